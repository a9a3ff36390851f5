"""What a push says (play/push.py): a property test over played games that no payload holds
a card (by id or by its name in any language) that the player's own view at that moment does
not show, nor anything but its six fields, within 4 KB; every language has every text; quiet
hours read in the player's time zone."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game import legal_commands, view
from game.editions import EDITIONS
from game.table import Asked, Asker, OpenTable, Table, TakeSeat, step, waiting_on
from play.inbox import notices
from play.push import LANGUAGES, NOTICES, default_preferences, push_of, quiet, texts
from service.languages import card_words
from tests.unit.games import GAME_SIZES

ALL_ON = {**default_preferences(), "notices": dict.fromkeys(NOTICES, True)}
FIELDS = {"type", "game", "title", "body", "url", "lang"}


def card_names(edition: str) -> dict[str, set[str]]:
    """Each card of the edition -> its id and its names in every language."""
    return {
        card: {card, *(card_words(edition, card, lang)[0] for lang in LANGUAGES)}
        for card in EDITIONS[edition].cards
    }


def shown_cards(text: str, names: dict[str, set[str]]) -> set[str]:
    return {card for card, words in names.items() if any(word in text for word in words)}


@pytest.mark.parametrize(("edition", "players"), GAME_SIZES)
@given(seed=st.integers(min_value=0, max_value=2**32), lang=st.sampled_from(LANGUAGES))
@settings(max_examples=3, deadline=None)
def test_no_payload_holds_what_the_players_view_does_not(
    edition: str, players: int, seed: int, lang: str
) -> None:
    rng = random.Random(seed)
    ids = [f"p{seat}" for seat in range(players)]
    seated = tuple(
        TakeSeat(seat, f"n{seat}", f"h{seat}", player=ids[seat]) for seat in range(players)
    )
    before: Table | None = None
    events, table = step(None, OpenTable(edition, (None,) * players, str(seed), seated=seated))
    names = card_names(edition)
    preferences = {**ALL_ON, "lang": lang}
    version, pushes = 0, 0
    for _ in range(400):
        told = notices("g1", version + 1, events, table, before)
        version += len(events)
        for player, notice in told.items():
            seat = ids.index(player)
            seen = json.dumps(view(table.game, seat), default=str) if table.game else ""
            for entry in notice.entries:
                push = push_of(entry, preferences, datetime.now(UTC))
                if push is None:
                    continue
                pushes += 1
                assert set(push.payload) == FIELDS and push.payload["lang"] == lang
                assert len(push.body()) <= 4096
                leaked = shown_cards(push.body().decode(), names) - shown_cards(seen, names)
                assert not leaked, (push.payload, leaked)
        waiting = waiting_on(table)
        if table.status == "over" or waiting is None or table.game is None:
            break
        command = rng.choice(legal_commands(table.game))
        before = table
        events, table = step(table, Asked(Asker(player=ids[waiting.seat]), command))
    assert pushes > 0


def test_every_language_has_every_text() -> None:
    found = texts()
    assert set(found) == set(LANGUAGES)
    for lang in LANGUAGES:
        assert set(found[lang]) == set(found["en"]), lang
        assert all(words.strip() for words in found[lang].values())


@pytest.mark.parametrize(
    ("hours", "utc", "expected"),
    [
        ({"start": "22:00", "end": "08:00", "time_zone": "Asia/Tokyo"}, "2026-12-04T14:00", True),
        ({"start": "22:00", "end": "08:00", "time_zone": "Asia/Tokyo"}, "2026-12-04T22:59", True),
        ({"start": "22:00", "end": "08:00", "time_zone": "Asia/Tokyo"}, "2026-12-04T23:00", False),
        ({"start": "09:00", "end": "17:00", "time_zone": "UTC"}, "2026-12-04T12:00", True),
        ({"start": "09:00", "end": "17:00", "time_zone": "UTC"}, "2026-12-04T17:00", False),
        (None, "2026-12-04T12:00", False),
    ],
)
def test_quiet_hours_are_read_in_the_players_time_zone(
    hours: dict[str, str] | None, utc: str, expected: bool
) -> None:
    assert quiet(hours, datetime.fromisoformat(utc).replace(tzinfo=UTC)) is expected


def test_chat_is_off_by_default_and_urgency_follows_the_notice() -> None:
    entry: dict[str, Any] = {"type": "chat", "game": "g1", "seat": 0}
    assert push_of(entry, default_preferences(), datetime.now(UTC)) is None
    chat = push_of(entry, ALL_ON, datetime.now(UTC))
    turn = push_of({**entry, "type": "your_turn"}, ALL_ON, datetime.now(UTC))
    assert chat is not None and chat.urgency == "low"
    assert turn is not None and turn.urgency == "high" and turn.topic != chat.topic
    assert len(turn.topic) <= 32
