"""Processes the benchmarks start beside themselves: RQ workers of our worker class."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from rq import Queue, Worker

import play
from service.serve import Child

READY_TIMEOUT_SECONDS = 30.0
WORKER_CLASS = "workers.worker.Worker"


@contextmanager
def worker_processes(
    url: str, queue: Queue, count: int, env: Mapping[str, str], worker_class: str = WORKER_CLASS
) -> Iterator[None]:
    """`count` rq worker processes (of `worker_class`) on the queue, registered before this
    yields; then stopped."""
    root = str(Path(play.__file__).resolve().parents[1])
    path = os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
    child_env = {**os.environ, **env, "PYTHONPATH": path}
    command = [
        sys.executable, "-m", "rq.cli", "worker", "--url", url,
        "--worker-class", worker_class, "--with-scheduler",
        "--logging_level", "WARNING", queue.name,
    ]  # fmt: skip
    children: list[Child] = []
    keys: list[str] = []
    try:
        for number in range(count):
            children.append(Child(f"rq worker {number + 1}", command, child_env, quiet=True))
        deadline = time.monotonic() + READY_TIMEOUT_SECONDS
        while len(keys) < count:
            if time.monotonic() > deadline or not all(child.alive() for child in children):
                raise RuntimeError(f"{count} rq workers did not start on queue {queue.name}")
            time.sleep(0.05)
            keys = [worker.key for worker in Worker.all(connection=queue.connection, queue=queue)]
        yield
    finally:
        for child in children:
            child.stop()
        if keys:  # a stopped worker's keys would otherwise linger for a minute
            queue.connection.delete(*keys, *(f"{key}:executions" for key in keys))
