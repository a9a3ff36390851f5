"""The RQ worker class to run (`rq worker -w workers.worker.Worker`): it first recovers lost bot
turns, so a worker killed in the middle of a bot's job loses no move."""

from __future__ import annotations

import time
from typing import Any

import rq

from workers.context import current
from workers.sweep import reschedule_bots


class Worker(rq.SimpleWorker):
    """An RQ worker that re-schedules waiting bot turns when it starts.

    Jobs run in the worker's own process (no fork per job): bot replies come sooner.
    """

    def work(self, *args: Any, **kwargs: Any) -> bool:
        """Sweep once, then work as RQ does."""
        found = reschedule_bots(current(), attempt=f"sweep{time.time_ns()}")
        self.log.info("re-scheduled %d waiting bot turn(s)", found)
        return super().work(*args, **kwargs)
