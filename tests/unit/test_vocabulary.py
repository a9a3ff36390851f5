"""The event vocabulary: every type round-trips, old versions are upcast, fields are pinned."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from events.commands import COMMAND_TYPES, decode_command, dump_command, encode_command
from events.store import to_json
from events.vocabulary import VOCABULARY, Vocabulary
from game import events as ev
from game.selfplay import play_game, random_chooser
from game.table import (
    AbandonSeat,
    OpenTable,
    SeatLeft,
    SeatTakenOver,
    TakeSeat,
    TurnTimedOut,
    WebhookSet,
    decide,
)
from tests.unit.games import GAME_SIZES

# The wire contract: (version, fields) of every event type. Changing an event's fields means
# a new version and an upcaster for the old one; this table makes forgetting that fail.
WIRE: dict[str, tuple[int, tuple[str, ...]]] = {
    "assassin_revealed": (1, ("seat", "guard_player")),
    "card_drawn": (1, ("seat", "card", "from_set_aside")),
    "card_played": (1, ("seat", "card", "targets", "guess", "look")),
    "chancellor_drew": (1, ("seat", "cards")),
    "chancellor_returned": (1, ("seat", "kept", "bottom")),
    "game_ended": (1, ("winners",)),
    "game_started": (1, ("edition", "players", "seed")),
    "guess_checked": (1, ("seat", "target", "guess", "correct")),
    "hand_discarded": (1, ("seat", "card")),
    "hand_seen": (1, ("viewer", "seat", "card")),
    "hands_compared": (1, ("seat", "target", "card", "target_card", "loser")),
    "hands_swapped": (1, ("seat", "other", "seat_card", "other_card")),
    "jester_marked": (1, ("seat", "target")),
    "player_eliminated": (1, ("seat", "hand", "cause")),
    "protection_gained": (1, ("seat",)),
    "redraw_answered": (1, ("seat", "redraw")),
    "redraw_offered": (1, ("seat",)),
    "round_ended": (
        1,
        ("round", "winners", "reason", "showdown", "set_aside", "deck", "dealt", "salt"),
    ),
    "round_started": (
        1,
        ("round", "first", "set_aside", "face_up", "hands", "deck", "salt", "commitment"),
    ),
    "seat_forfeited": (1, ("seat",)),
    "seat_left": (1, ("seat",)),
    "seat_taken": (2, ("seat", "name", "token_hash", "player")),
    "seat_taken_over": (1, ("seat", "bot", "reason")),
    "sycophant_marked": (1, ("seat", "target")),
    "table_opened": (
        5,
        (
            "edition",
            "bots",
            "seed",
            "first_player",
            "turn_seconds",
            "on_timeout",
            "autostart",
            "seeded",
            "abandon_after",
            "takeover_bot",
            "ranked",
            "spectator_chat",
            "tutorial",
        ),
    ),
    "token_gained": (1, ("seat", "reason")),
    "turn_started": (1, ("seat", "card")),
    "turn_timed_out": (1, ("seat",)),
    "webhook_set": (1, ("seat", "url", "secret")),
}


def sample_events() -> dict[str, Any]:
    """At least one real event of every type, from random games of every edition and size."""
    found: dict[str, Any] = {}
    for event in decide(None, OpenTable("classic", (None, None), "s", host=TakeSeat(0, "a", "h"))):
        found.setdefault(event.type, event)
    found.setdefault("seat_left", SeatLeft(1))
    found.setdefault("seat_forfeited", ev.SeatForfeited(2))
    found.setdefault("turn_timed_out", TurnTimedOut(0))
    found.setdefault("seat_taken_over", SeatTakenOver(1, "heuristic", "abandoned"))
    found.setdefault("webhook_set", WebhookSet(0, "https://example.org/hook", "whsec_c2VjcmV0"))
    for seed in range(40):
        for edition, players in GAME_SIZES:
            for event in play_game(edition, players, f"v{seed}", random_chooser(seed)).events:
                found.setdefault(event.type, event)
        if len(found) == len(VOCABULARY.types):
            break
    return found


SAMPLES = sample_events()


def test_the_wire_table_covers_every_event_type() -> None:
    """Every event type is pinned here, and pinned to its real fields and version."""
    assert set(WIRE) == set(VOCABULARY.types)
    for name, cls in VOCABULARY.types.items():
        names = tuple(f.name for f in dataclasses.fields(cls))
        assert WIRE[name] == (VOCABULARY.version(name), names)


@pytest.mark.parametrize("name", sorted(VOCABULARY.types))
def test_every_event_type_round_trips_through_json(name: str) -> None:
    """encode -> JSON text -> decode gives an equal event, with `type` and `v` on the wire."""
    event = SAMPLES[name]
    assert VOCABULARY.encode(event) == VOCABULARY.dump(event)  # the quick path, as the schema
    wire = json.loads(json.dumps(VOCABULARY.encode(event)))
    assert wire["type"] == name and wire["v"] == VOCABULARY.version(name)
    assert VOCABULARY.decode(wire) == event


@pytest.mark.parametrize("name", sorted(VOCABULARY.types))
def test_the_stored_text_is_the_standard_librarys(name: str) -> None:
    """The store's quick encoder writes what json.dumps (compact, sorted, UTF-8) writes."""
    encoded = {**VOCABULARY.encode(SAMPLES[name]), "name": "Zoë 🌹", "at": 1764480000.123456}
    standard = json.dumps(encoded, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    assert to_json(encoded) == standard
    assert to_json({"big": 10**30}) == '{"big":1000000000000000000000000000000}'


def test_malformed_events_are_refused() -> None:
    """Unknown types, unknown versions, wrong field types and unknown fields don't load."""
    good = VOCABULARY.encode(SAMPLES["card_played"])
    for bad in (
        {**good, "type": "card_burnt"},
        {**good, "v": 9},
        {**good, "seat": "zero"},
        {**good, "extra": 1},
        {k: v for k, v in good.items() if k != "card"},
    ):
        with pytest.raises(ValidationError):
            VOCABULARY.decode(bad)


@dataclass(frozen=True, slots=True)
class GuessCheckedV2:
    """A later shape of guess_checked, used only here: `correct` renamed `right`."""

    type: ClassVar[str] = "guess_checked"
    seat: int
    target: int
    guess: str | int
    right: bool


def test_a_stored_v1_event_is_read_as_v2_after_a_change() -> None:
    """An upcaster turns the stored v1 data into v2 before it is loaded."""

    def v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
        data = dict(data)
        data["right"] = data.pop("correct")
        return data

    later = Vocabulary(
        {**VOCABULARY.types, "guess_checked": GuessCheckedV2},
        versions={"guess_checked": 2},
        upcasters={("guess_checked", 1): v1_to_v2},
    )
    stored_v1 = json.loads(json.dumps(VOCABULARY.encode(ev.GuessChecked(0, 1, "priest", True))))
    assert stored_v1["v"] == 1
    assert later.decode(stored_v1) == GuessCheckedV2(0, 1, "priest", True)
    assert later.encode(GuessCheckedV2(0, 1, 3, False))["v"] == 2


@pytest.mark.parametrize("name", sorted(COMMAND_TYPES))
def test_recorded_commands_round_trip(name: str) -> None:
    """Every command type recorded in meta decodes back to an equal command."""
    from game.commands import (
        AnswerRedraw,
        Deal,
        FinishChancellor,
        Forfeit,
        PlayCard,
        StartGame,
        StartRound,
    )
    from game.table import BeginGame, LeaveSeat, PlayAgain, SetWebhook, TimeOut

    examples = {
        "abandon_seat": AbandonSeat(1),
        "open_table": OpenTable(
            "premium",
            (None, "heuristic", None, None, None),
            "s",
            2,
            60,
            "forfeit",
            False,
            TakeSeat(0, "ann", "h"),
        ),
        "take_seat": TakeSeat(None, "bob", "h2"),
        "leave_seat": LeaveSeat(1),
        "begin_game": BeginGame(),
        "start_game": StartGame("classic", ("a", "b"), "s", 1),
        "start_round": StartRound(Deal("guard", ("a", "b", "c"), ("d", "e"), ("f",))),
        "play_card": PlayCard(1, "guard", (0,), 3),
        "finish_chancellor": FinishChancellor(0, "king", ("guard", "spy")),
        "answer_redraw": AnswerRedraw(2, False),
        "forfeit": Forfeit(3),
        "time_out": TimeOut(1, FinishChancellor(1, "spy", ("guard",))),
        "play_again": PlayAgain(),
        "set_webhook": SetWebhook(0, "https://example.org/hook", "whsec_c2VjcmV0"),
    }
    command = examples[name]
    assert encode_command(command) == dump_command(command)  # the quick path, as the schema
    assert decode_command(json.loads(json.dumps(encode_command(command)))) == command


def test_a_stream_written_before_rematch_secrets_still_verifies() -> None:
    """table_opened v1 (no `seeded`), an open_table command without `seeded` and a play_again
    without `seed` (the rematch dealt from `<seed>#2`): read as before, and every deal of both
    games verified."""
    from events.audit import verify
    from game.commands import Forfeit
    from game.table import PlayAgain, evolve

    commands: list[Any] = [OpenTable("classic", (None, None), "old"), TakeSeat(0, "a", "h0"),
                           TakeSeat(1, "b", "h1"), None, PlayAgain(), None]  # fmt: skip
    table: Any = None
    records: list[dict[str, Any]] = []
    for command in commands:
        if command is None:  # the seat to act gives up, ending the game
            command = Forfeit(table.game.current)
        meta = {"command": encode_command(command)}
        meta["command"].pop("seeded", None)
        if isinstance(command, PlayAgain):
            del meta["command"]["seed"]
        for offset, event in enumerate(decide(table, command)):
            stored = VOCABULARY.encode(event)
            if stored["type"] == "table_opened":
                stored = {**{k: v for k, v in stored.items() if k != "seeded"}, "v": 1}
            records.append({"version": len(records) + 1, "event": stored,
                            "meta": None if offset else meta})  # fmt: skip
            table = evolve(table, event)
    assert table.seeded is False
    assert table.game.seed == "old#2"
    report = verify(records)
    assert report.ok, report.divergence
    assert report.deals_opened == 2
    assert VOCABULARY.decode(records[0]["event"]).seeded is False


def test_stored_v1_seats_and_v2_tables_read_as_today() -> None:
    """A seat taken before players existed has no player; an older table abandons after 3."""
    stored = {"type": "seat_taken", "v": 1, "seat": 0, "name": "a", "token_hash": "h"}
    seat = VOCABULARY.decode(stored)
    assert seat.player is None
    table = VOCABULARY.decode(
        {"type": "table_opened", "v": 2, "edition": "classic", "bots": [None, "random"],
         "seed": "s", "first_player": None, "turn_seconds": None, "on_timeout": "bot",
         "autostart": True, "seeded": False}
    )  # fmt: skip
    assert (table.abandon_after, table.takeover_bot) == (3, "heuristic")


def test_stored_v3_tables_read_as_unranked() -> None:
    """A table opened before ranked tables existed is unranked."""
    table = VOCABULARY.decode(
        {"type": "table_opened", "v": 3, "edition": "classic", "bots": [None, None],
         "seed": "s", "first_player": None, "turn_seconds": None, "on_timeout": "bot",
         "autostart": True, "seeded": False, "abandon_after": 3, "takeover_bot": "heuristic"}
    )  # fmt: skip
    assert table.ranked is False
    opened = OpenTable("classic", (None, None), "s", ranked=True)
    stored = VOCABULARY.encode(decide(None, opened)[0])
    assert stored["v"] == 5 and VOCABULARY.decode(stored).ranked is True
    assert table.spectator_chat is False
    assert table.tutorial is None


def test_stored_v4_tables_read_as_no_tutorial() -> None:
    """A table opened before tutorials existed plays none (so it is listed and rated as ever)."""
    table = VOCABULARY.decode(
        {"type": "table_opened", "v": 4, "edition": "2019", "bots": [None, None],
         "seed": "s", "first_player": None, "turn_seconds": None, "on_timeout": "bot",
         "autostart": True, "seeded": False, "abandon_after": 3, "takeover_bot": "heuristic",
         "ranked": True, "spectator_chat": False}
    )  # fmt: skip
    assert (table.ranked, table.tutorial) == (True, None)


def test_v3_tables_keep_spectators_out_of_chat() -> None:
    """A table opened before chat existed lets only its seats chat."""
    table = VOCABULARY.decode(
        {"type": "table_opened", "v": 3, "edition": "classic", "bots": [None, "random"],
         "seed": "s", "first_player": None, "turn_seconds": None, "on_timeout": "bot",
         "autostart": True, "seeded": False, "abandon_after": 5, "takeover_bot": "random"}
    )  # fmt: skip
    assert (table.abandon_after, table.spectator_chat) == (5, False)


@pytest.mark.parametrize("name", sorted(VOCABULARY.types))
def test_an_event_as_published_is_built_as_its_schema_loads_it(name: str) -> None:
    """What the append hub hears (`decode_own`) equals what the schema loads, type and all."""
    wire = json.loads(json.dumps(VOCABULARY.encode(SAMPLES[name])))
    built, loaded = VOCABULARY.decode_own(wire), VOCABULARY.decode(wire)
    assert built == loaded == SAMPLES[name]
    assert type(built) is type(loaded)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.sampled_from(GAME_SIZES))
def test_every_event_of_a_game_is_built_as_its_schema_loads_it(
    seed: int, size: tuple[str, int]
) -> None:
    edition, players = size
    for event in play_game(edition, players, f"own{seed}", random_chooser(seed)).events:
        wire = json.loads(json.dumps(VOCABULARY.encode(event)))
        assert VOCABULARY.decode_own(wire) == VOCABULARY.decode(wire) == event


def test_what_encode_did_not_write_is_decoded_and_checked() -> None:
    """An older version is upcast, and malformed data refused, as `decode` does."""
    good = VOCABULARY.encode(SAMPLES["card_played"])
    for bad in (
        {**good, "type": "card_burnt"},
        {**good, "v": 9},
        {**good, "extra": 1},
        {k: v for k, v in good.items() if k != "card"},
    ):
        with pytest.raises(ValidationError):
            VOCABULARY.decode_own(bad)
    seat = {"type": "seat_taken", "v": 1, "seat": 1, "name": "bo", "token_hash": "h"}
    assert VOCABULARY.decode_own(seat) == VOCABULARY.decode(seat)
    assert VOCABULARY.decode_own(seat).player is None
