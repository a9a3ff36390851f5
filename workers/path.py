"""The command path shared by the API and the jobs: decide, append, then schedule what follows."""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from rq import Retry
from rq.exceptions import DuplicateJobError

from events.games import LoadedGame, Outcome
from game.state import Phase
from workers.context import Context


def submit(
    ctx: Context,
    game_id: str,
    command: Any,
    *,
    expected_version: int,
    idempotency_key: str | None = None,
    meta: Mapping[str, Any] | None = None,
    loaded: LoadedGame | None = None,
) -> Outcome:
    """Run a command on a game; after a successful append, schedule the next seat's jobs.

    Raises IllegalCommand when the rules refuse it (nothing is appended or scheduled then).
    """
    outcome = ctx.games.execute(
        game_id,
        command,
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        meta=meta,
        loaded=loaded,
    )
    if outcome.status == "ok":
        schedule_next(ctx, game_id, outcome.game)
    return outcome


def schedule_next(ctx: Context, game_id: str, game: LoadedGame, attempt: str = "") -> None:
    """Whoever must act now: a bot gets a job; a human gets a deadline and a webhook call.

    Jobs are keyed by game and version (plus `attempt`, for re-scheduling a lost job).
    """
    table = game.table
    if table is None or table.game is None or table.game.phase is not Phase.ROUND:
        return
    seat = table.game.current
    if seat is None:
        return
    seated = table.seats[seat]
    key = f"{ctx.settings.namespace}-{game_id}-{game.version}{attempt}"  # RQ job ids are global
    if seated.bot is not None:
        _enqueue(ctx, "workers.jobs.bot_turn", f"bot-{key}", game_id, game.version, seat)
        return
    if table.turn_seconds is not None:
        _enqueue(
            ctx,
            "workers.jobs.turn_deadline",
            f"deadline-{key}",
            game_id,
            game.version,
            seat,
            delay=table.turn_seconds,
        )
    if seated.webhook is not None:
        retry = Retry(
            max=len(ctx.settings.webhook_retries), interval=list(ctx.settings.webhook_retries)
        )
        _enqueue(
            ctx,
            "workers.jobs.deliver_webhook",
            f"hook-{key}",
            game_id,
            game.version,
            seat,
            retry=retry,
        )


def _enqueue(
    ctx: Context,
    function: str,
    job_id: str,
    *args: Any,
    delay: int | None = None,
    retry: Retry | None = None,
) -> None:
    """Enqueue a job once per id (a repeated schedule of the same job does nothing); with a
    `delay`, to run no sooner than that many seconds from now."""
    options: dict[str, Any] = {"job_id": job_id, "unique": True, "retry": retry}
    try:
        if delay is None:
            ctx.queue.enqueue(function, *args, **options)
        else:
            ctx.queue.enqueue_at(not_before(time.time() + delay), function, *args, **options)
    except DuplicateJobError:
        pass


def not_before(moment: float) -> datetime:
    """The time to schedule a job due at `moment` (Unix seconds): RQ's scheduler keeps whole
    seconds, cutting the fraction, so a deadline is rounded up lest it run early."""
    return datetime.fromtimestamp(math.ceil(moment), tz=UTC)
