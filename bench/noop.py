"""An empty job: `loveletter bench bots` times its round trip through the queue and a worker."""

from __future__ import annotations


def noop() -> None:
    """Do nothing (the job's cost is RQ's own: enqueue, fetch, run, store the result)."""
