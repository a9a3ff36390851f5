"""What follows an append: the job of whoever must act now (a bot's turn, a turn deadline, a
"your turn" webhook), and when a sweep should step in if that job is lost.

The sweep time is written by the append itself (see events/due.py); the jobs are enqueued right
after it. RQ runs the jobs by name (`workers.jobs`), so this layer does not import the workers.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Any

from rq import Queue, Retry
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job, JobStatus

from events.games import LoadedGame
from game.table import Table, Waiting, waiting_on
from play.context import Context

LEASE_SECONDS = 4.0  # a job has this long to move its game before a sweep steps in
DEADLINE_GRACE_SECONDS = 2.0  # how late a deadline job may start before a sweep steps in
BOT_TURN = "workers.jobs.bot_turn"
TURN_DEADLINE = "workers.jobs.turn_deadline"
DELIVER_WEBHOOK = "workers.jobs.deliver_webhook"
WEBHOOK_JOB_MARGIN_SECONDS = 10  # RQ ends a delivery job this long after its own deadline


def sweep_time(table: Table | None, now: float) -> float | None:
    """When a sweep should step in for the game after an append at `now` (None: no job due)."""
    waiting = waiting_on(table)
    if waiting is None:
        return None
    if waiting.bot is not None:
        return now + LEASE_SECONDS
    if waiting.turn_seconds is not None:
        return deadline(now, waiting.turn_seconds) + DEADLINE_GRACE_SECONDS
    return None


def deadline(now: float, turn_seconds: int) -> float:
    """When a turn begun at `now` runs out, in whole seconds (RQ's scheduler keeps whole
    seconds, cutting the fraction, so the deadline is rounded up lest it run early)."""
    return float(math.ceil(now + turn_seconds))


def schedule(ctx: Context, game_id: str, game: LoadedGame, now: float) -> None:
    """Enqueue the jobs of whoever must act at `game`'s version (each at most once)."""
    table = game.table
    waiting = waiting_on(table)
    if table is None or waiting is None:
        return
    if waiting.bot is not None:
        _enqueue(ctx, BOT_TURN, job_id(ctx, "bot", game_id, game.version), game_id, game, waiting)
        return
    if waiting.turn_seconds is not None:
        at = datetime.fromtimestamp(deadline(now, waiting.turn_seconds), tz=UTC)
        key = job_id(ctx, "deadline", game_id, game.version)
        _enqueue(ctx, TURN_DEADLINE, key, game_id, game, waiting, at=at)
    if table.seats[waiting.seat].webhook is not None:
        retries = ctx.settings.webhook_retries
        retry = Retry(max=len(retries), interval=list(retries))
        key = job_id(ctx, "hook", game_id, game.version)
        timeout = math.ceil(ctx.settings.webhook_timeout) + WEBHOOK_JOB_MARGIN_SECONDS
        _enqueue(ctx, DELIVER_WEBHOOK, key, game_id, game, waiting, retry=retry,
                 queue=ctx.webhook_queue, job_timeout=timeout)  # fmt: skip


def reschedule(ctx: Context, game_id: str, game: LoadedGame) -> bool:
    """Enqueue again the bot turn or deadline a game waits on, unless its job waits in its
    queue (one that started and went quiet, was taken off the queue by a worker that died, or
    was never enqueued, is lost). True when enqueued."""
    waiting = waiting_on(game.table)
    if waiting is None or (waiting.bot is None and waiting.turn_seconds is None):
        return False
    kind, function = ("bot", BOT_TURN) if waiting.bot is not None else ("deadline", TURN_DEADLINE)
    key = job_id(ctx, kind, game_id, game.version)
    try:
        job = Job.fetch(key, connection=ctx.queue.connection)
    except NoSuchJobError:
        job = None
    if job is not None:
        waits = Queue(job.origin, connection=ctx.queue.connection).get_job_position(job.id)
        if job.get_status() == JobStatus.QUEUED and waits is not None:
            return False
        job.delete()
    return _enqueue(ctx, function, key, game_id, game, waiting)


def job_id(ctx: Context, kind: str, game_id: str, version: int) -> str:
    """The id of a game's job at a version (RQ job ids are global: the namespace is in it)."""
    return f"{kind}-{ctx.settings.namespace}-{game_id}-{version}"


def _enqueue(
    ctx: Context,
    function: str,
    key: str,
    game_id: str,
    game: LoadedGame,
    waiting: Waiting,
    *,
    at: datetime | None = None,
    retry: Retry | None = None,
    queue: Queue | None = None,
    job_timeout: int | None = None,
) -> bool:
    """Enqueue a job once per id (now, or at `at`) on `queue` (default: the job queue); False
    when that job exists already."""
    args = (game_id, game.version, waiting.seat)
    options: dict[str, Any] = {"job_id": key, "unique": True, "retry": retry}
    if job_timeout is not None:
        options["job_timeout"] = job_timeout
    queue = queue or ctx.queue
    try:
        if at is None:
            queue.enqueue(function, *args, **options)
        else:
            queue.enqueue_at(at, function, *args, **options)
    except DuplicateJobError:
        return False
    return True
