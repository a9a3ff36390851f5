"""Given everything a seat was ever shown at a table, earlier games included, the next deal is
not derivable: two tables with the same history (one stream, forked) deal different rematches,
and no game's secret is in anything shown to any seat before that game is over."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from game.events import RoundStarted
from game.legal import legal_commands
from game.state import Phase
from game.table import OpenTable, Table, TakeSeat, decide, evolve
from game.views import redact
from service.seeds import opening_seed, rematch
from tests.unit.games import GAME_SIZES


def run(table: Table | None, command: Any, log: list[Any]) -> Table:
    """Decide and apply a command, noting its events."""
    for event in decide(table, command):
        log.append(event)
        table = evolve(table, event)
    assert table is not None
    return table


def play_out(table: Table, rng: random.Random, log: list[Any]) -> Table:
    """Random legal commands until the game at the table is over."""
    while table.game is not None and table.game.phase is not Phase.OVER:
        table = run(table, rng.choice(legal_commands(table.game)), log)
    return table


def everything_shown(log: list[Any], seats: int) -> str:
    """All that every seat and a spectator may read of these events, as one text."""
    return json.dumps([redact(event, seat) for event in log for seat in (*range(seats), None)])


def deal_of(events: list[Any]) -> tuple[Any, ...]:
    """The first deal among the events, whole."""
    first = next(event for event in events if isinstance(event, RoundStarted))
    return (first.set_aside, first.face_up, first.hands, first.deck)


@given(
    size=st.sampled_from(GAME_SIZES),
    moves=st.integers(0, 2**32),
    earlier=st.integers(1, 3),
    seeded=st.booleans(),
)
@settings(max_examples=30, deadline=None)
def test_the_next_deal_is_not_derivable_from_what_any_seat_was_shown(
    size: tuple[str, int], moves: int, earlier: int, seeded: bool
) -> None:
    edition, players = size
    rng = random.Random(moves)
    seed, chosen = opening_seed({"seed": "the creator's"} if seeded else {}, allowed=True)
    log: list[Any] = []
    table = run(None, OpenTable(edition, (None,) * players, seed, seeded=chosen), log)
    for seat in range(players):
        table = run(table, TakeSeat(seat, f"p{seat}", f"h{seat}"), log)
    for number in range(earlier):
        if number:
            table = run(table, rematch(table), log)
        game_started = len(log)
        table = play_out(table, rng, log)
        secret = table.game.seed if table.game else ""
        # While it was being played, nobody could read this game's secret.
        assert secret not in everything_shown(log[game_started:-1], players) or chosen
    history = len(log)  # from here the stream forks: both tables share all that was shown
    first, second = rematch(table), rematch(table)
    fork_a, fork_b = decide(table, first), decide(table, second)
    shown = everything_shown(log[:history], players)
    if chosen:  # the creator's seed, known to them: the table says so, the deals repeat
        assert table.seeded and deal_of(fork_a) == deal_of(fork_b)
        return
    assert not table.seeded
    assert deal_of(fork_a) != deal_of(fork_b)
    for command, fork in ((first, fork_a), (second, fork_b)):
        assert command.seed is not None and command.seed not in shown
        assert command.seed not in everything_shown(fork, players)
        dealt = next(event for event in fork if isinstance(event, RoundStarted))
        assert dealt.salt not in everything_shown(fork, players)
