"""The RQ worker class to run (`rq worker -w workers.worker.Worker`): RQ's worker plus two
duties on threads beside it, each done by one worker at a time: a sweep that re-enqueues the
jobs of games left waiting past their time (see play/sweep.py), and the archiving of finished
games (see play/archive.py)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import rq

from play.archive import archive_if_first
from play.context import current
from play.sweep import SWEEP_EVERY_SECONDS, sweep_if_first
from workers.jobs import STOPPING

ARCHIVE_CHECK_SECONDS = 30.0  # how often (at most) a worker asks whether an archive run is due


class Worker(rq.SimpleWorker):
    """An RQ worker that also sweeps for lost jobs every second and archives finished games
    every `archive_every_seconds` (each duty one worker at a time, by a lock).

    Jobs run in the worker's own process (no fork per job): bot replies come sooner.
    """

    def work(self, *args: Any, **kwargs: Any) -> bool:
        """Start the duties beside RQ's own loop, then work as RQ does."""
        stop = threading.Event()
        archive_check = min(ARCHIVE_CHECK_SECONDS, current().settings.archive_every_seconds)
        duties = (
            ("sweep", SWEEP_EVERY_SECONDS, self._sweep),
            ("archive", archive_check, self._archive),
        )
        for name, period, duty in duties:
            thread = threading.Thread(
                target=self._every, args=(stop, name, period, duty), name=name, daemon=True
            )
            thread.start()
        try:
            return super().work(*args, **kwargs)
        finally:
            stop.set()

    def request_stop(self, signum: Any, frame: Any) -> None:
        """Stop as RQ does, and tell a lingering job (the push drain) to end now."""
        STOPPING.set()
        super().request_stop(signum, frame)

    def _every(
        self, stop: threading.Event, name: str, period: float, duty: Callable[[], None]
    ) -> None:
        """Do `duty` every `period` seconds until the worker stops; a failure (Redis away) is
        logged and the next period tries again."""
        while not stop.wait(period):
            try:
                duty()
            except Exception:  # the worker itself goes on
                self.log.exception("%s failed", name)

    def _sweep(self) -> None:
        found = sweep_if_first(current(), self.name)
        if found:
            self.log.info("re-enqueued %d lost job(s)", found)

    def _archive(self) -> None:
        report = archive_if_first(current(), self.name)
        if report is not None and report.archived:
            self.log.info("archived %d finished game(s)", report.archived)
