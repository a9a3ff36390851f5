"""The table: seats, automatic start, time-outs, forfeits and playing again."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from game import IllegalCommand, legal_commands
from game.commands import Forfeit
from game.events import GameEnded, PlayerEliminated, SeatForfeited
from game.state import Phase
from game.table import (
    BeginGame,
    LeaveSeat,
    OpenTable,
    PlayAgain,
    Table,
    TakeSeat,
    TimeOut,
    TurnTimedOut,
    decide,
    evolve,
)


def run(table: Table | None, command: Any) -> Table:
    """Decide and fold one command."""
    for event in decide(table, command):
        table = evolve(table, event)
    assert table is not None
    return table


def opened(bots: tuple[str | None, ...], **options: Any) -> Table:
    """A classic table whose creator sits at seat 0."""
    command = OpenTable("classic", bots, "seed", host=TakeSeat(0, "ann", "h0"), **options)
    return run(None, command)


def refused(table: Table | None, command: Any) -> str:
    """The code of a refused command."""
    with pytest.raises(IllegalCommand) as refusal:
        decide(table, command)
    return refusal.value.code


def test_seats_fill_and_the_game_starts_by_itself() -> None:
    """Bots sit at once; humans take the open seats; the last one starts the game."""
    table = opened((None, "heuristic", None))
    assert table.status == "open" and table.open_seats == 1
    assert table.seats[1].name == "heuristic-bot-2"
    assert refused(table, TakeSeat(1, "bob", "h")) == "seat-taken"
    assert refused(table, TakeSeat(None, "ann", "h")) == "name-taken"
    table = run(table, TakeSeat(None, "bob", "h2"))
    assert table.status == "playing" and table.game is not None
    assert table.game.players == ("ann", "heuristic-bot-2", "bob")
    assert refused(table, LeaveSeat(2)) == "game-started"
    assert refused(table, TakeSeat(None, "cy", "h")) == "game-started"


def test_leaving_and_starting_by_hand() -> None:
    """Without autostart the game starts on BeginGame, once every seat is taken."""
    table = opened((None, None), autostart=False)
    assert refused(table, BeginGame()) == "seats-open"
    table = run(table, TakeSeat(1, "bob", "h1"))
    table = run(table, LeaveSeat(1))
    assert table.open_seats == 1
    assert refused(table, LeaveSeat(1)) == "seat-not-taken"
    table = run(run(table, TakeSeat(1, "cy", "h2")), BeginGame())
    assert table.status == "playing"


def test_opening_refusals() -> None:
    """Bad editions, seat counts and settings are refused."""
    assert refused(None, OpenTable("deluxe", (None, None), "s")) == "unknown-edition"
    assert refused(None, OpenTable("premium", (None, None), "s")) == "wrong-player-count"
    assert refused(None, OpenTable("classic", (None, None), "s", on_timeout="x")) == "bad-setting"
    assert refused(None, OpenTable("classic", (None, None), "s", turn_seconds=0)) == "bad-setting"
    assert refused(None, TakeSeat(None, "a", "h")) == "no-table"
    assert refused(opened((None, None)), OpenTable("classic", (None, None), "s")) == "table-exists"


def test_a_time_out_makes_the_given_move_or_forfeits() -> None:
    """With on_timeout=bot the bot's move is played; with forfeit the late seat forfeits."""
    table = run(opened((None, None), turn_seconds=30), TakeSeat(None, "bob", "h"))
    assert table.game is not None and table.game.current is not None
    seat = table.game.current
    move = legal_commands(table.game)[0]
    assert refused(table, TimeOut(1 - seat, move)) == "not-your-turn"
    assert refused(table, TimeOut(seat)) == "move-required"
    events = decide(table, TimeOut(seat, move))
    assert events[0] == TurnTimedOut(seat)

    strict = run(opened((None, None), on_timeout="forfeit"), TakeSeat(None, "bob", "h"))
    assert strict.game is not None and strict.game.current is not None
    late = strict.game.current
    events = decide(strict, TimeOut(late))
    assert events[:2] == [TurnTimedOut(late), SeatForfeited(late)]
    assert events[-1] == GameEnded((1 - late,))


def test_a_forfeit_in_a_bigger_game_sits_the_seat_out_of_later_rounds() -> None:
    """A forfeited seat is out at once, laid down at each later deal, and never wins."""
    table = run(run(opened((None, None, None)), TakeSeat(None, "b", "h")), TakeSeat(None, "c", "h"))
    rng = random.Random(3)
    table = run(table, Forfeit(1))
    assert table.game is not None and table.game.eliminated[1]
    rounds_seen = 0
    while table.game.phase is not Phase.OVER:
        round_before = table.game.round
        events = decide(table, rng.choice(legal_commands(table.game)))
        for event in events:
            table = evolve(table, event)
        if table.game.round > round_before:
            rounds_seen += 1
            eliminated = [e for e in events if isinstance(e, PlayerEliminated)]
            assert eliminated[-1].seat == 1 and eliminated[-1].cause == "forfeit"
        assert table.game.current != 1
    assert rounds_seen >= 1 and 1 not in table.game.game_winners


def test_playing_again_starts_a_new_game_with_its_own_seed() -> None:
    """After a game ends, PlayAgain deals a new one; the last result is kept."""
    table = run(opened((None, None)), TakeSeat(None, "bob", "h"))
    assert refused(table, PlayAgain()) == "game-not-over"
    assert table.game is not None and table.game.current is not None
    table = run(table, Forfeit(table.game.current))
    winners = table.game.game_winners if table.game else ()
    first_deal = table.game.dealt if table.game else ()
    table = run(table, PlayAgain())
    assert table.results == (winners,)
    assert table.game is not None and table.game.phase is Phase.ROUND
    assert table.game.round == 1 and table.game.tokens == (0, 0)
    assert Counter(table.game.dealt) == Counter(first_deal)
    assert table.game.seed != "seed"


def test_a_ranked_table_seats_people_only_and_deals_from_secrets() -> None:
    """ranked is kept on the table; bot seats, a chosen seed or a seat without a player are
    refused at a ranked table."""
    host = TakeSeat(0, "ann", "h0", player="p-ann")
    table = run(None, OpenTable("classic", (None, None), "s", host=host, ranked=True))
    assert table.ranked and not opened((None, None)).ranked
    assert refused(table, TakeSeat(None, "bob", "h1")) == "player-required"
    assert run(table, TakeSeat(None, "bob", "h1", player="p-bob")).status == "playing"
    assert refused(None, OpenTable("classic", (None, "random"), "s", ranked=True)) == "bad-setting"
    seeded = OpenTable("classic", (None, None), "s", seeded=True, ranked=True)
    assert refused(None, seeded) == "bad-setting"
