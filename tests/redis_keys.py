"""The keys tests leave in Redis: none. Every namespace (and RQ queue, and worker name) of a test
run carries the run's mark, so what the run made can be told from other runs' keys on a shared
server, removed with RQ's keys of it, and checked for when the run ends.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

from rq import Queue

from events.connection import RedisClient, as_text

RUN = uuid.uuid4().hex[:10]  # this test run's mark
# RQ's sets that name queues and workers of every run: ours are taken out of them, not deleted.
RQ_SHARED_SETS = ("rq:queues", "rq:workers")


def new_namespace(kind: str) -> str:
    """A key namespace (also used as RQ queue name) of one test: `test-<kind>-<run>-<random>`."""
    return f"test-{kind}-{RUN}-{uuid.uuid4().hex[:8]}"


def worker_name(queue: str) -> str:
    """A name for an `rq worker` on `queue` (RQ's own names are random: nothing would say
    which run a worker's keys belong to)."""
    return f"{queue}-worker-{uuid.uuid4().hex[:6]}"


def delete_namespace(client: RedisClient, namespace: str) -> None:
    """Delete the namespace's keys (never FLUSH*)."""
    for key in list(client.scan_iter(match=f"{namespace}:*", count=1000)):
        client.delete(key)


def delete_queue(client: RedisClient, queue: str) -> None:
    """Delete RQ's keys of a queue: the queue, its registries, its jobs (whose ids hold the
    queue's name) and their results, its workers and their scheduler."""
    Queue(queue, connection=client).delete(delete_jobs=True)  # type: ignore[arg-type]
    doomed = [
        *client.scan_iter(match=f"rq:*{queue}*", count=1000),
        *_schedulers_naming(client, queue),
    ]
    for key in doomed:
        client.delete(key)
    for shared in RQ_SHARED_SETS:
        members = [m for m in client.smembers(shared) if queue in as_text(m)]  # type: ignore[union-attr]
        if members:
            client.srem(shared, *members)


def left_behind(client: RedisClient, mark: str = RUN) -> list[str]:
    """Every key, and every member of RQ's shared sets, that names `mark` (default: this run)."""
    found = [as_text(key) for key in client.scan_iter(match=f"*{mark}*", count=1000)]
    found += _schedulers_naming(client, mark)
    for shared in RQ_SHARED_SETS:
        found += [f"{shared} ∋ {as_text(m)}" for m in client.smembers(shared) if mark in as_text(m)]  # type: ignore[union-attr]
    return sorted(found)


def _schedulers_naming(client: RedisClient, text: str) -> Iterator[str]:
    """RQ's scheduler hashes (named at random) of queues whose names hold `text`."""
    for key in client.scan_iter(match="rq:scheduler:*", count=1000, _type="hash"):
        if any(text in as_text(value) for value in client.hvals(key)):  # type: ignore[union-attr]
            yield as_text(key)
