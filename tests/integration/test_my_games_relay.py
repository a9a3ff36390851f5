"""A player's games index is written by the relay, so a relay a crash lost is made by the
sweep: a table left before its start leaves the player's games, a new game enters them."""

from __future__ import annotations

import time

import pytest

from events.players import MY_TURN
from game.table import Asked, Asker, LeaveSeat, OpenTable, TakeSeat
from play import send_command
from play.context import Context
from play.inbox import relay_overdue
from play.lobby import open_table, send_to_table

pytestmark = pytest.mark.redis


def test_the_sweep_makes_a_lost_relay_of_my_games(
    ctx: Context, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = TakeSeat(None, "ann", "hash-ann", "ann")
    left = open_table(ctx, OpenTable("2019", (None, None), "s1", host=host))[0]
    assert set(ctx.my_games.scores("ann", "open")) == {left}
    monkeypatch.setattr(send_command, "relay_after_append", lambda *args: None)  # a crash
    send_to_table(ctx, left, Asked(Asker(player="ann"), LeaveSeat(0)))
    opened = OpenTable("2019", (None, "heuristic"), "s2", first_player=0, host=host)
    playing = open_table(ctx, opened)[0]
    assert set(ctx.my_games.scores("ann")) == {left}  # not relayed yet
    assert relay_overdue(ctx, time.time() + 3600) == 2
    game = ctx.games.load(playing)
    assert ctx.my_games.scores("ann") == {playing: (game.at or 0) + MY_TURN}
    assert ctx.my_games.scores("ann", "playing") == {playing: (game.at or 0) + MY_TURN}
    assert ctx.my_games.scores("ann", "open") == {}
