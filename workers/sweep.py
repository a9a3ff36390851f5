"""Find games whose bot seat must act but whose job was lost (a worker killed mid-job)."""

from __future__ import annotations

from workers.context import Context
from workers.path import schedule_next


def reschedule_bots(ctx: Context, attempt: str) -> int:
    """Schedule a bot job (under a fresh id) for every playing game waiting on a bot."""
    if ctx.games.index is None:
        return 0
    count = 0
    for game_id, _ in ctx.games.index.query(status="playing", limit=10_000):
        game = ctx.games.load(game_id)
        table = game.table
        if table is None or table.game is None or table.game.current is None:
            continue
        if table.seats[table.game.current].bot is not None:
            schedule_next(ctx, game_id, game, attempt=attempt)
            count += 1
    return count
