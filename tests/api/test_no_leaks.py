"""No response to any seat or spectator holds a card that audience has no right to see.

Random games are played through the API; after every command each audience's view and new
feed events are checked against the true game (folded from the stream) and against an
independent account of who was shown what (docs/rules.md, "What each seat sees", as written in
the tests).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st

from events.games import GameRepository
from game.table import Table, evolve
from tests.api.players import Player, new_game
from tests.unit.test_views import PRIVATE_FIELDS, Witness

SECRETS = ("seed", "token_hash", "secret")  # never shown while a game is being played
TABLE_EVENT_TYPES = ("table_opened", "seat_taken", "seat_left", "webhook_set", "turn_timed_out")


class Truth:
    """The true game, folded from its stream as it grows, with who was shown what."""

    def __init__(self, games: GameRepository, game: str, players: int, edition: str) -> None:
        self.games, self.game = games, game
        self.table: Table | None = None
        self.events: list[Any] = []
        self.witness = Witness(players, edition)

    def catch_up(self) -> Table:
        """Fold the events appended since the last call."""
        for item in self.games.store.read(self.game, len(self.events) + 1):
            event = self.games.vocabulary.decode(item.event)
            self.table = evolve(self.table, event)
            self.events.append(event)
            if event.type not in TABLE_EVENT_TYPES:
                self.witness.see(event)
        assert self.table is not None
        return self.table


def check_view(body: dict[str, Any], table: Table, seat: int | None, witness: Witness) -> None:
    """A view shows this audience's hand only, and only what it was shown."""
    view = body["view"]
    state = table.game
    assert state is not None
    if state.phase.value == "over":  # the whole record is open to the seats now
        assert seat is None or view["hands"] == [list(hand) for hand in state.hands]
        return
    assert view["hands"] is None
    assert view["hand"] == (None if seat is None else list(state.hands[seat]))
    if state.phase.value == "round":
        assert view["deck"] is None and view["set_aside"] is None
    for item in view["known"]:
        assert seat is not None and (item["seat"], item["card"]) in witness.facts[seat]
    for item in view["seen_by"]:  # who knows my card: only what I saw them learn
        assert seat is not None and item["card"] in state.hands[seat]
        assert (seat, item["card"]) in witness.facts[item["seat"]]
    if state.phase.value == "round":  # public clues, worked out from public events alone
        clues = [(c["seat"], frozenset(c["cards"]), c["plays"]) for c in view["ruled_out"]]
        assert clues == witness.clues
    if body["legal"]:
        assert seat == state.current
        hand = set(state.hands[seat])
        for command in body["legal"]:
            assert {command.get("card"), command.get("keep"), *command.get("bottom", [])} - {
                None
            } <= hand


def check_event(shown: dict[str, Any], event: Any, seat: int | None, over: bool) -> None:
    """A feed event hides what docs/rules.md keeps from this audience (all is open after the game,
    but the table's own secrets)."""
    assert shown.get("token_hash") is None and shown.get("secret") is None
    if over:
        return
    for name in SECRETS:
        assert shown.get(name) is None
    if event.type == "round_started":
        assert shown["hands"] == [c if i == seat else None for i, c in enumerate(event.hands)]
        assert shown["set_aside"] is None and set(shown["deck"]) <= {None}
        return
    hidden, parties = PRIVATE_FIELDS.get(type(event), ((), ()))
    entitled = seat is not None and any(getattr(event, party) == seat for party in parties)
    for name in hidden:
        if not entitled:
            value = shown[name]
            assert value is None or (isinstance(value, list) and set(value) <= {None}), name


# Editions and sizes that together exercise every card and both deal layouts.
SIZES = [("classic", 2), ("classic", 4), ("2019", 3), ("2019-classic", 2), ("premium", 5)]


# Games per edition and size in each run, each dealt and played from a seed hypothesis draws
# afresh every run (20 games: about a minute on a busy 2-core machine); a failure prints the
# game's seed and the @reproduce_failure blob that replays it.
EXAMPLES = 4


@pytest.mark.parametrize(("edition", "players"), SIZES)
@given(seed=st.integers(0, 2**31))
@settings(
    max_examples=EXAMPLES,
    print_blob=True,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    phases=(Phase.explicit, Phase.reuse, Phase.generate),  # a whole game is too slow to shrink
)
def test_no_audience_ever_sees_a_card_it_may_not(
    make_app: Callable[..., Flask], edition: str, players: int, seed: int
) -> None:
    """Views (the first one included) and event feeds, for every seat and a spectator."""
    app = make_app(
        {
            "LOVELETTER_RATE_LIMIT_ADDRESS": "off",
            "LOVELETTER_RATE_LIMIT_SEAT": "off",
            "LOVELETTER_SEEDED_GAMES": "1",  # each example is dealt from its own seed
        }
    )
    client = app.test_client()
    note(f"the game: {edition}, {players} players, seed {seed}")  # printed when it fails
    rng = random.Random(seed)
    game, seated = new_game(client, edition, ["human"] * players, seed=str(seed))
    audiences: list[Player] = [*seated, Player(client, game, None, None)]
    read_up_to = {id(p): 0 for p in audiences}
    truth = Truth(app.extensions["loveletter"].context.games, game, players, edition)
    for step in itertools.count():
        table = truth.catch_up()
        state = table.game
        assert state is not None
        over = state.phase.value == "over"
        # Every audience at the start, the end and every 4th step; else three of them.
        looking = audiences if over or step % 4 == 0 else rng.sample(audiences, 3)
        for player in looking:
            check_view(player.look().json, table, player.seat, truth.witness)
            feed = player.feed(after=read_up_to[id(player)]).json
            for shown in feed["events"]:
                check_event(shown, truth.events[shown["version"] - 1], player.seat, over)
            read_up_to[id(player)] = feed["version"]
        if over:
            break
        actor = seated[state.current if state.current is not None else 0]
        command = rng.choice(actor.look().json["legal"])
        assert actor.send(command).status_code == 200
