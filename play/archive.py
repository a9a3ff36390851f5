"""The storage lifecycle: games over for longer than the archive age leave Redis for the archive
(events/archive.py), where views, feeds, replays and audits still find them.

The lobby index lists finished games by the time they ended, so the candidates are found
without scanning; each is checked again against its stream before it moves. A worker runs this
every `archive_every_seconds` (one worker at a time); `loveletter archive` runs it once.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from play.context import Context

BATCH = 500  # games looked at per query of the index


@dataclass
class ArchiveReport:
    """What one archive run did: games archived, and the others by why they stayed."""

    archived: int = 0
    kept: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0


def archive_finished(
    ctx: Context, now: float | None = None, older_than: float | None = None, limit: int = 10_000
) -> ArchiveReport:
    """Archive up to `limit` games over since before `now - older_than` (default: the
    settings' archive age)."""
    started = time.perf_counter()
    now = time.time() if now is None else now
    age = ctx.settings.archive_after_seconds if older_than is None else older_than
    index = ctx.games.index
    report = ArchiveReport()
    if ctx.games.archive is None or index is None:
        raise ValueError("no archive is configured (LOVELETTER_ARCHIVE_DIR)")
    looked_at = 0
    while looked_at < limit:
        kept = sum(report.kept.values())  # still listed, before the ones not looked at yet
        batch = index.updated_before("over", now - age, min(BATCH, limit - looked_at), kept)
        if not batch:
            break
        for game_id in batch:
            looked_at += 1
            outcome = ctx.games.archive_game(game_id, now - age)
            if outcome == "archived":
                report.archived += 1
                ctx.heads.forget(game_id)
            else:
                report.kept[outcome] += 1
    report.seconds = time.perf_counter() - started
    return report


def archive_if_first(ctx: Context, worker_name: str) -> ArchiveReport | None:
    """Archive unless another worker did within the last period (None: it did), or there is
    no archive."""
    if ctx.games.archive is None:
        return None
    lock = f"{ctx.settings.namespace}:archive-lock"
    period_ms = int(ctx.settings.archive_every_seconds * 1000)
    if not ctx.queue.connection.set(lock, worker_name, nx=True, px=period_ms):
        return None
    return archive_finished(ctx)
