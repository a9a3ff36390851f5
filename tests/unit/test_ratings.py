"""Placings and ratings of finished games: who places where, and the fold of rated games."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from game.commands import Forfeit
from game.legal import legal_commands
from game.ratings import MU, SIGMA, Rating, rate, replay
from game.records import FinishedGame, SeatRecord, finished_games
from game.table import AbandonSeat, OpenTable, PlayAgain, Table, TakeSeat, decide, evolve


def seats(*specs: tuple[bool, int, bool]) -> list[SeatRecord]:
    """Seats of players p0, p1, ... from (winner, tokens, left)."""
    return [
        SeatRecord(i, f"p{i}", winner=w, tokens=t, left=left)
        for i, (w, t, left) in enumerate(specs)
    ]


def test_winners_first_then_tokens_and_leavers_last() -> None:
    game = FinishedGame("g#1", "classic", 1, True,
                        seats((False, 2, False), (True, 4, False), (False, 3, True),
                              (False, 2, False)))  # fmt: skip
    assert game.ranks() == [2, 1, 3, 2]
    left_winner = FinishedGame("g#1", "classic", 1, True, seats((True, 4, True), (False, 0, False)))
    assert left_winner.ranks() == [2, 1]  # a player who left places last, whatever the bot did


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 7), st.booleans()), min_size=2,
                max_size=6))  # fmt: skip
def test_places_follow_the_rules_of_placing(specs: list[tuple[bool, int, bool]]) -> None:
    """No leaver above a stayer, no non-winner above a winner who stayed, ties only when
    alike, places 1..k with none skipped."""
    game = FinishedGame("g#1", "2019", 0, True, seats(*specs))
    ranks = game.ranks()
    assert sorted(set(ranks)) == list(range(1, max(ranks) + 1))
    for a, ra in zip(game.seats, ranks, strict=True):
        for b, rb in zip(game.seats, ranks, strict=True):
            if not a.left and b.left:
                assert ra < rb
            if not a.left and not b.left and a.winner and not b.winner:
                assert ra < rb
            if (a.left and b.left) or (a.winner, a.tokens, a.left) == (b.winner, b.tokens, b.left):
                assert ra == rb


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(0, 10**6)),
                min_size=1, max_size=12))  # fmt: skip
def test_replay_is_the_fold_in_order_whatever_order_the_games_come_in(
    games: list[tuple[int, int, int]],
) -> None:
    """Folding rated games one by one in their order gives replay's numbers, from any
    shuffle of them; every player's games count their rated games."""
    finished = []
    for n, (a, b, at) in enumerate(games):
        if a == b:
            b = (a + 1) % 6
        pair = [SeatRecord(0, f"p{a}", winner=True), SeatRecord(1, f"p{b}", tokens=n % 3)]
        finished.append(FinishedGame(f"g{n}#1", "2019", at, True, pair))
    ratings: dict[str, Rating] = {}
    for game in sorted(finished, key=lambda g: g.order):
        ratings.update(rate(game, ratings))
    shuffled = finished[:]
    random.Random(len(games)).shuffle(shuffled)
    assert replay(shuffled)[0] == ratings
    played: dict[str, int] = {}
    for game in finished:
        for seat in game.seats:
            played[str(seat.player)] = played.get(str(seat.player), 0) + 1
    assert {p: r.games for p, r in ratings.items()} == played


def test_a_winner_gains_and_a_loser_loses_from_the_defaults() -> None:
    game = FinishedGame("g#1", "2019", 1, True, seats((True, 6, False), (False, 2, False)))
    after = rate(game, {})
    assert after["p0"].mu > MU > after["p1"].mu
    assert after["p0"].sigma < SIGMA and after["p0"].games == 1


def apply(table: Any, command: Any, events: list[Any]) -> Table:
    """Decide and fold one command, keeping its events."""
    for event in decide(table, command):
        table = evolve(table, event)
        events.append(event)
    assert table is not None
    return table


def play_out(table: Table, rng: random.Random, events: list[Any], leave: int | None) -> Table:
    """Random legal moves until the game at the table is over; `leave` abandons first."""
    if leave is not None:
        table = apply(table, AbandonSeat(leave), events)
    while table.status == "playing":
        assert table.game is not None
        legal = legal_commands(table.game)
        command = rng.choice(legal) if legal else Forfeit(table.game.current or 0)
        table = apply(table, command, events)
    return table


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 4), st.integers(0, 10_000), st.one_of(st.none(), st.integers(0, 3)))
def test_finished_games_of_a_ranked_table(players: int, seed: int, leave: int | None) -> None:
    """Each game at a ranked table is one finished game; the first is rated; one a seat left
    to a bot places that seat last, and the game after it (a bot seat from its start) is not
    rated; cards played and rounds won add up to the events."""
    leave = None if leave is None or leave >= players else leave
    host = TakeSeat(0, "n0", "h0", player="p0")
    events: list[Any] = []
    table: Any = None
    table = apply(None, OpenTable("classic", (None,) * players, f"s{seed}", host=host,
                                  ranked=True), events)  # fmt: skip
    for i in range(1, players):
        table = apply(table, TakeSeat(None, f"n{i}", f"h{i}", player=f"p{i}"), events)
    rng = random.Random(seed)
    table = play_out(table, rng, events, leave)
    table = apply(table, PlayAgain(f"again{seed}"), events)
    if table.status == "playing":
        table = play_out(table, rng, events, None)
    found = finished_games("t", ((event, n) for n, event in enumerate(events)))
    assert [g.key for g in found] == ["t#1", "t#2"][: len(found)] and found
    first = found[0]
    assert first.rated and [s.player for s in first.seats] == [f"p{i}" for i in range(players)]
    played = sum(1 for e in events if e.type == "card_played")
    assert sum(sum(s.cards.values()) for g in found for s in g.seats) == played
    if leave is not None:
        assert first.seats[leave].left and first.ranks()[leave] == max(first.ranks())
        assert len(found) == 1 or not found[1].rated
    elif len(found) == 2:
        assert found[1].rated
