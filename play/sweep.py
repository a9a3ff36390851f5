"""Nothing waits on a lost job: games whose bot turn or deadline went past its sweep time get
their job enqueued again (a worker killed mid-job, a job lost with its worker's queue)."""

from __future__ import annotations

import time

from play.context import Context
from play.follow_up import LEASE_SECONDS, reschedule
from play.inbox import relay_overdue

SWEEP_EVERY_SECONDS = 1.0  # how often a worker sweeps (one worker at a time, by a lock)


def sweep(ctx: Context, now: float | None = None) -> int:
    """Enqueue again the job of every overdue game, and relay to the players' inboxes every
    append whose relay was lost; how many jobs were enqueued."""
    now = time.time() if now is None else now
    relay_overdue(ctx, now)
    due = ctx.games.store.due
    enqueued = 0
    for item in due.overdue(now):
        game = ctx.games.load(item.game_id)
        if game.version != item.version:  # moved on since: the append replaced its entry
            due.drop(item.game_id, item.version)
            continue
        enqueued += reschedule(ctx, item.game_id, game)
        due.postpone(item.game_id, item.version, now + LEASE_SECONDS)
    return enqueued


def sweep_if_first(ctx: Context, worker_name: str) -> int | None:
    """Sweep unless another worker swept within the last period (None: it did)."""
    lock = f"{ctx.settings.namespace}:sweep-lock"
    period_ms = int(SWEEP_EVERY_SECONDS * 1000)
    if not ctx.queue.connection.set(lock, worker_name, nx=True, px=period_ms):
        return None
    return sweep(ctx)
