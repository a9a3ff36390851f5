"""The pushes waiting to be sent: one list every relay adds to and drain jobs empty.

One RQ job per push cost more CPU than the push itself (RQ keeps a job's hash, its registries
and its result), so a drain job sends every push waiting, and waits a little for more before it
stops: `{ns}:{push}:pending` holds them in order, `{ns}:{push}:draining` says a drain job is on
its way or at work (a push added while it is not there enqueues one), and
`{ns}:{push}:outcome:<key>` what became of each push for an hour (a push added twice by its key
is queued once). All three share the `{push}` slot.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

import orjson

from events.connection import RedisClient, Script, as_text

ADD_SCRIPT = files("events").joinpath("push_outbox.lua").read_text(encoding="utf-8")
RELEASE_SCRIPT = files("events").joinpath("push_outbox_release.lua").read_text(encoding="utf-8")
OUTCOME_SECONDS = 3600  # a push's key (not queued twice) and its outcome are kept this long
DRAIN_FLAG_SECONDS = 60  # a drain job lost holds the next one back this long (it runs for less)


@dataclass(frozen=True)
class Pending:
    """A push waiting: its key, the player and the inbox entries it tells of."""

    key: str
    player: str
    entries: list[dict[str, Any]]


class PushOutbox:
    """The pushes of one namespace waiting for a drain job, and their outcomes."""

    def __init__(self, redis_client: RedisClient, *, namespace: str) -> None:
        self.redis = redis_client
        self.prefix = f"{namespace}:{{push}}:"
        self._add = Script(redis_client, ADD_SCRIPT)
        self._release = Script(redis_client, RELEASE_SCRIPT)

    def add(self, pending: Pending) -> bool | None:
        """Queue a push (once by its key); whether a drain job must be enqueued for it (None:
        queued before)."""
        item = orjson.dumps({"key": pending.key, "player": pending.player,
                             "entries": pending.entries})  # fmt: skip
        keys = [self.prefix + "pending", self.prefix + "draining", self._outcome(pending.key)]
        found = int(self._add(keys, [item, OUTCOME_SECONDS, DRAIN_FLAG_SECONDS]))
        return None if found < 0 else found == 1

    def release(self) -> bool:
        """A drain job would stop: whether it must go on instead (pushes wait; it keeps the
        flag), else the flag goes and the next push enqueues a drain job."""
        keys = [self.prefix + "pending", self.prefix + "draining"]
        return bool(self._release(keys, [DRAIN_FLAG_SECONDS]))

    def needs_drain(self) -> bool:
        """Whether pushes wait with no drain job on its way (set it so: the caller enqueues)."""
        if not self.redis.llen(self.prefix + "pending"):
            return False
        return bool(self.redis.set(self.prefix + "draining", 1, nx=True, ex=DRAIN_FLAG_SECONDS))

    def take(self, count: int, wait: float = 0.0, gather: float = 0.0) -> list[Pending]:
        """Up to `count` pushes, the oldest first; each is the caller's alone. When none is
        there, wait up to `wait` seconds for one, then `gather` seconds for more to come."""
        key = self.prefix + "pending"
        raw: Any = self.redis.lpop(key, count) or []
        if not raw and wait > 0:
            first: Any = self.redis.blpop([key], timeout=wait)
            if first is not None:
                if gather > 0 and count > 1:
                    time.sleep(gather)
                raw = [first[1], *((self.redis.lpop(key, count - 1) or []) if count > 1 else [])]
        found = [orjson.loads(item) for item in raw]
        return [Pending(item["key"], item["player"], item["entries"]) for item in found]

    def done(self, outcomes: dict[str, dict[str, int]]) -> None:
        """Note what became of these pushes, by key (counts of `sent`, `gone`, ...)."""
        pipe = self.redis.pipeline(transaction=False)
        for key, counts in outcomes.items():
            pipe.set(self._outcome(key), orjson.dumps(counts), xx=True, keepttl=True)
        pipe.execute()

    def outcome(self, key: str) -> dict[str, int] | None:
        """What became of a push: its counts once sent, None while it waits (or is unknown)."""
        found = self.redis.get(self._outcome(key))
        if found is None or as_text(found) == "pending":
            return None
        return dict(orjson.loads(found))

    def _outcome(self, key: str) -> str:
        return f"{self.prefix}outcome:{key}"
