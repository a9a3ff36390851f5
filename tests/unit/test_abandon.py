"""Seats that survive their player leaving: abandoning, time-outs in a row, a table of bots."""

from __future__ import annotations

from typing import Any

import pytest

from game import IllegalCommand, legal_commands
from game.events import GameEnded, RoundEnded
from game.state import Phase
from game.table import (
    AbandonSeat,
    OpenTable,
    SeatTakenOver,
    Table,
    TakeSeat,
    TimeOut,
    decide,
    evolve,
    step,
    waiting_on,
)


def run(table: Table | None, command: Any) -> tuple[list[Any], Table]:
    """Decide a command, fold its events one by one, and check `step` gives the same table."""
    events = decide(table, command)
    folded = table
    for event in events:
        folded = evolve(folded, event)
    assert folded is not None
    assert step(table, command)[1] == folded
    return events, folded


def table_of(*bots: str | None, **options: Any) -> Table:
    """A started classic table: ann (player p-ann) at seat 0, bob (p-bob) at the next human seat."""
    host = TakeSeat(0, "ann", "h0", player="p-ann")
    _, table = run(None, OpenTable("classic", bots, "seed", first_player=0, host=host, **options))
    if table.open_seats:
        _, table = run(table, TakeSeat(None, "bob", "h1", player="p-bob"))
    assert table.status == "playing"
    return table


def test_a_player_holds_one_seat_of_a_table() -> None:
    host = TakeSeat(0, "ann", "h0", player="p-ann")
    _, table = run(None, OpenTable("classic", (None, None, None), "s", host=host))
    with pytest.raises(IllegalCommand) as refused:
        decide(table, TakeSeat(None, "ann2", "h1", player="p-ann"))
    assert refused.value.code == "player-seated"
    _, table = run(table, TakeSeat(None, "bob", "h1", player="p-bob"))
    assert table.seat_of_player("p-bob") == 1 and table.seats[1].player == "p-bob"


def test_an_abandoned_seat_is_played_by_the_tables_bot_and_the_game_goes_on() -> None:
    table = table_of(None, None, "random", takeover_bot="random")
    events, after = run(table, AbandonSeat(0))
    assert events == [SeatTakenOver(0, "random", "abandoned")]
    seat = after.seats[0]
    assert (seat.bot, seat.name, seat.token_hash, seat.player, seat.left_by) == (
        "random", "ann", None, None, "p-ann"
    )  # fmt: skip
    assert after.status == "playing"
    waiting = waiting_on(after)
    assert waiting is not None and waiting.seat == 0 and waiting.bot == "random"


def test_a_table_where_every_person_left_ends_at_once_with_no_winner() -> None:
    table = table_of(None, None, "heuristic")
    _, table = run(table, AbandonSeat(1))
    events, after = run(table, AbandonSeat(0))
    assert isinstance(events[1], RoundEnded) and events[1].reason == "abandoned"
    assert events[1].salt == table.game.salt  # type: ignore[union-attr]  # the deal is revealed
    assert events[-1] == GameEnded(())
    assert after.status == "over" and after.game is not None and after.game.game_winners == ()


@pytest.mark.parametrize("command", [AbandonSeat(2), AbandonSeat(7)])
def test_only_a_persons_seat_of_a_game_in_play_can_be_abandoned(command: AbandonSeat) -> None:
    with pytest.raises(IllegalCommand) as refused:
        decide(table_of(None, None, "random"), command)
    assert refused.value.code == "seat-not-taken"
    host = TakeSeat(0, "ann", "h0")
    _, waiting = run(None, OpenTable("classic", (None, None), "s", host=host))
    with pytest.raises(IllegalCommand) as refused:
        decide(waiting, AbandonSeat(0))
    assert refused.value.code == "game-not-in-play"


def time_out(table: Table) -> tuple[list[Any], Table]:
    """The seat to act times out; the first legal move is made for it."""
    assert table.game is not None
    seat = table.game.current
    assert seat is not None
    return run(table, TimeOut(seat, legal_commands(table.game)[0]))  # type: ignore[arg-type]


def own_move(table: Table) -> Table:
    """The seat to act moves by itself."""
    assert table.game is not None
    return run(table, legal_commands(table.game)[0])[1]


def test_a_seat_that_times_out_n_times_in_a_row_is_taken_over() -> None:
    table = table_of(None, None, abandon_after=2)
    seat = table.game.current  # type: ignore[union-attr]
    _, table = time_out(table)
    assert table.seats[seat].timeouts == 1
    while table.game is not None and table.game.current != seat:
        table = own_move(table)
        assert table.status == "playing"
    events, table = time_out(table)
    assert SeatTakenOver(seat, "heuristic", "timed-out") in events
    assert table.seats[seat].bot == "heuristic"


def test_a_move_of_its_own_ends_a_seats_run_of_time_outs() -> None:
    table = table_of(None, None, abandon_after=2)
    seat = table.game.current  # type: ignore[union-attr]
    _, table = time_out(table)
    while table.game.current != seat:  # type: ignore[union-attr]
        table = own_move(table)
    table = own_move(table)  # its own move, this time
    assert table.seats[seat].timeouts == 0
    while table.game.current != seat:  # type: ignore[union-attr]
        table = own_move(table)
    events, table = time_out(table)
    assert not any(isinstance(event, SeatTakenOver) for event in events)
    assert table.seats[seat].timeouts == 1 and table.game.phase is Phase.ROUND  # type: ignore[union-attr]
