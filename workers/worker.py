"""The RQ worker class to run (`rq worker -w workers.worker.Worker`): RQ's worker plus a sweep
that re-enqueues the jobs of games left waiting past their time (see play/sweep.py)."""

from __future__ import annotations

import threading
from typing import Any

import rq

from play.context import current
from play.sweep import SWEEP_EVERY_SECONDS, sweep_if_first


class Worker(rq.SimpleWorker):
    """An RQ worker that also sweeps for lost jobs every second (one worker at a time).

    Jobs run in the worker's own process (no fork per job): bot replies come sooner.
    """

    def work(self, *args: Any, **kwargs: Any) -> bool:
        """Start the sweep beside RQ's own loop, then work as RQ does."""
        stop = threading.Event()
        sweeper = threading.Thread(target=self._sweep, args=(stop,), name="sweep", daemon=True)
        sweeper.start()
        try:
            return super().work(*args, **kwargs)
        finally:
            stop.set()

    def _sweep(self, stop: threading.Event) -> None:
        """Sweep until the worker stops; a failed sweep (Redis away) is logged and retried."""
        while not stop.wait(SWEEP_EVERY_SECONDS):
            try:
                found = sweep_if_first(current(), self.name)
            except Exception:  # the next period tries again; the worker itself goes on
                self.log.exception("sweep failed")
                continue
            if found:
                self.log.info("re-enqueued %d lost job(s)", found)
