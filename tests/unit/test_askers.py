"""Who may act on a seat: an `Asked` command is decided only if its asker holds the seat it acts
for in the table it is applied to (pure: game/table.py)."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game import IllegalCommand, legal_commands
from game.commands import Forfeit
from game.table import (
    AbandonSeat,
    Asked,
    Asker,
    BeginGame,
    LeaveSeat,
    OpenTable,
    PlayAgain,
    SetWebhook,
    Table,
    TakeSeat,
    step,
)

ANN, BOB, CY = Asker("h-ann"), Asker(player="p-bob"), Asker("h-cy")


def run(table: Table | None, command: Any) -> Table:
    """Decide and fold one command."""
    return step(table, command)[1]


def refused(table: Table | None, command: Any) -> str:
    """The code of a refused command."""
    with pytest.raises(IllegalCommand) as refusal:
        step(table, command)
    return refusal.value.code


def three_seats(autostart: bool = False) -> Table:
    """ann (a seat token) at seat 0, bob (a player) at seat 1, seat 2 open."""
    command = OpenTable("classic", (None,) * 3, "seed", host=TakeSeat(0, "ann", "h-ann"),
                        autostart=autostart)  # fmt: skip
    return run(run(None, command), TakeSeat(1, "bob", "h-bob", player="p-bob"))


def test_a_seat_acts_only_for_itself() -> None:
    table = three_seats()
    assert refused(table, Asked(ANN, LeaveSeat(1))) == "forbidden"
    assert refused(table, Asked(CY, LeaveSeat(1))) == "unauthorized"
    assert refused(table, Asked(Asker(), LeaveSeat(0))) == "unauthorized"
    assert refused(table, Asked(ANN, LeaveSeat(7))) == "forbidden"
    assert run(table, Asked(BOB, LeaveSeat(1))).seats[1].open  # a player, by its id
    assert run(table, Asked(Asker("h-bob"), LeaveSeat(1))).seats[1].open  # or the seat's token
    assert run(table, Asked(ANN, SetWebhook(0, "https://a.example", "s"))).seats[0].webhook


def test_a_leaver_cant_act_on_the_seat_someone_else_took_since() -> None:
    """The leave decided again on the newer table (a retry after a conflict) is refused."""
    table = three_seats()
    left = run(table, Asked(BOB, LeaveSeat(1)))
    retaken = run(left, TakeSeat(1, "cy", "h-cy"))
    assert refused(retaken, Asked(BOB, LeaveSeat(1))) == "unauthorized"
    assert refused(retaken, Asked(Asker("h-bob"), SetWebhook(1, None))) == "unauthorized"
    assert run(retaken, Asked(CY, LeaveSeat(1))).seats[1].open
    assert refused(left, Asked(BOB, LeaveSeat(1))) == "unauthorized"  # not seat-not-taken


def test_a_table_command_needs_any_seat_and_a_move_its_own() -> None:
    table = run(three_seats(), TakeSeat(2, "cy", "h-cy"))
    assert refused(table, Asked(Asker("h-dan"), BeginGame())) == "unauthorized"
    started = run(table, Asked(CY, BeginGame()))
    assert started.status == "playing" and started.game is not None
    mover = started.game.current
    assert mover is not None
    move = legal_commands(started.game)[0]
    other = [ANN, BOB, CY][(mover + 1) % 3]
    assert refused(started, Asked(other, move)) == "forbidden"
    assert run(started, Asked([ANN, BOB, CY][mover], move)).version > started.version


def test_abandoning_hands_the_seat_to_a_bot_and_its_holder_acts_no_more() -> None:
    table = run(three_seats(autostart=True), TakeSeat(2, "cy", "h-cy"))
    assert table.status == "playing"
    gone = run(table, Asked(BOB, AbandonSeat(1)))
    assert gone.seats[1].bot is not None
    assert refused(gone, Asked(BOB, AbandonSeat(1))) == "unauthorized"
    assert refused(gone, Asked(BOB, Forfeit(1))) == "unauthorized"
    assert refused(gone, Asked(Asker("h-bob"), PlayAgain())) == "unauthorized"


def test_only_a_seats_commands_can_be_asked() -> None:
    with pytest.raises(TypeError):
        step(three_seats(), Asked(ANN, TakeSeat(2, "x", "h-x")))  # type: ignore[arg-type]


ASKERS = [ANN, BOB, CY, Asker("h-bob"), Asker(player="p-ann"), Asker()]
COMMANDS = st.one_of(
    st.builds(LeaveSeat, st.integers(0, 3)),
    st.builds(AbandonSeat, st.integers(0, 3)),
    st.builds(SetWebhook, st.integers(0, 3), st.just(None)),
    st.just(BeginGame()),
    st.builds(TakeSeat, st.sampled_from([None, 1, 2]), st.sampled_from(["bob", "cy", "dan"]),
              st.sampled_from(["h-bob", "h-cy"]), st.sampled_from([None, "p-bob"])),
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(ASKERS), COMMANDS), max_size=12),
    st.booleans(),
)
def test_an_asked_command_is_the_command_decided_only_for_its_seats_holder(
    program: list[tuple[Asker, Any]], autostart: bool
) -> None:
    """On any table reached by joins, leaves, abandons and starts: an `Asked` command gives
    the command's own events exactly when its asker holds the seat the command acts for (any
    seat for a start), and is refused otherwise; a seat's holder is changed by nobody else."""
    table = three_seats(autostart)
    for asker, command in program:
        if isinstance(command, TakeSeat):  # a join is nobody's seat's: sent as it is
            with contextlib.suppress(IllegalCommand):
                table = run(table, command)
            continue
        held = table.seat_of(asker)
        acting = getattr(command, "seat", held)
        try:
            own_events, own_after = step(table, command)
        except IllegalCommand:
            own_events = None
        if held is None or held != acting:
            assert refused(table, Asked(asker, command)) in {"unauthorized", "forbidden"}
            continue
        if own_events is None:
            assert refused(table, Asked(asker, command)) not in {"unauthorized", "forbidden"}
            continue
        events, after = step(table, Asked(asker, command))
        assert (events, after) == (own_events, own_after)
        table = after
