"""Faults that `loveletter chaos` and `bench cluster` inject when a test asks for them, so that
each counter they report is shown to count (a negative control): an acknowledged command lost,
one request's key applied twice, a game stuck on a lost job, a deal that no longer verifies, a
game's creation lost.

No command-line option reaches them: only `bench.chaos.chaos(..., faults=...)` and
`bench.cluster.run_cluster_bench(..., faults=...)` take them, and only tests pass them.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import Any

from rq.job import Job
from rq.queue import Queue
from rq.worker import WorkerStatus

from events.connection import RedisClient
from events.store import EventStore, StoredEvent
from play.context import current
from workers.worker import Worker

BOT_TURN = "workers.jobs.bot_turn"
LOSING_WORKER = "bench.faults.LosingWorker"


@dataclass(frozen=True)
class Faults:
    """How many games suffer each fault; each fault has games of its own."""

    lose: int = 0  # the stream loses its tail from the game's last acknowledged command on
    twice: int = 0  # the store forgets a seat's key, which the seat sends with its next command
    stuck: int = 0  # the game's bot jobs are dropped with their due entries (LosingWorker)
    tamper: int = 0  # the commitment of the game's first deal is altered
    erase: int = 0  # the game's stream is gone, its creation with it (bench cluster)

    def __bool__(self) -> bool:
        return any(dataclasses.astuple(self))


NO_FAULTS = Faults()


def rewrite(store: EventStore, game_id: str, kept: list[StoredEvent]) -> None:
    """Replace the game's stream with `kept` (written back as an archived game is)."""
    store.redis.delete(store.stream_key(game_id))
    if kept:
        store.restore(game_id, kept)


def lose_from(store: EventStore, game_id: str, version: int) -> None:
    """The stream loses every event from `version` on, as a failover loses unreplicated
    writes."""
    rewrite(store, game_id, store.read(game_id, 1, version - 1))


def tamper_deal(store: EventStore, game_id: str) -> None:
    """Alter the commitment of the game's first deal: its deal no longer opens it."""
    stored = store.read(game_id)
    for index, item in enumerate(stored):
        if item.event.get("type") == "round_started":
            commitment = item.event["commitment"]
            altered = commitment[:-1] + ("1" if commitment.endswith("0") else "0")
            stored[index] = dataclasses.replace(item, event={**item.event, "commitment": altered})
            rewrite(store, game_id, stored)
            return
    raise ValueError(f"{game_id} was never dealt")


def forget_key(store: EventStore, game_id: str, key: str) -> None:
    """The store forgets a caller's idempotency key, as if it had expired."""
    suffix = f":{key}"
    names = [name for name in store.keys_of(game_id) if ":idem:" in name and name.endswith(suffix)]
    if names:
        store.redis.delete(*names)


def held_key(namespace: str) -> str:
    """The set of the games whose bot jobs a LosingWorker drops."""
    return f"{namespace}:faults:held"


def hold(queue_redis: RedisClient, namespace: str, game_id: str) -> None:
    """From now on, the game's bot jobs are lost (by LosingWorker) with their due entries."""
    queue_redis.sadd(held_key(namespace), game_id)


def release(queue_redis: RedisClient, store: EventStore, game_id: str, version: int) -> None:
    """Lose no more of the game's jobs, and make its bot due at `version` again (the sweep
    enqueues its job)."""
    queue_redis.srem(held_key(store.namespace), game_id)
    store.due.put(game_id, version, time.time())


class LosingWorker(Worker):
    """The project's worker, but the bot turns of the games held (`hold`) are lost: the job
    is deleted unrun and the game's due entry dropped, so no sweep finds it either."""

    def execute_job(self, job: Job, queue: Queue) -> Any:
        """Run the job, unless it is a held game's bot turn."""
        ctx = current()
        if job.func_name == BOT_TURN and self.connection.sismember(
            held_key(ctx.settings.namespace), job.args[0]
        ):
            game_id, version = job.args[0], job.args[1]
            ctx.games.store.due.drop(game_id, version)
            job.delete()
            self.set_state(WorkerStatus.IDLE)
            return None
        return super().execute_job(job, queue)
