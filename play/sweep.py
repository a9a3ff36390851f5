"""Nothing waits on a lost job: games whose bot turn or deadline went past its sweep time get
their job enqueued again (a worker killed mid-job, a job lost with its worker's queue)."""

from __future__ import annotations

import logging
import time

from play.context import Context
from play.follow_up import LEASE_SECONDS, reschedule
from play.inbox import relay_overdue
from play.push_send import enqueue_drain
from play.quickplay import sweep_queue

log = logging.getLogger(__name__)

SWEEP_EVERY_SECONDS = 1.0  # how often a worker sweeps (one worker at a time, by a lock)


def sweep(ctx: Context, now: float | None = None) -> int:
    """Enqueue again the job of every overdue game, relay to the players' inboxes every
    append whose relay was lost, and match in the quick-play queue; how many jobs were
    enqueued."""
    now = time.time() if now is None else now
    relay_overdue(ctx, now)
    if ctx.push_outbox.needs_drain():  # its drain job was lost (or never enqueued)
        enqueue_drain(ctx)
    try:
        sweep_queue(ctx)
    except Exception as error:  # the queue's trouble must not hold up the games' jobs
        log.warning("quick-play sweep failed: %s", error)
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
