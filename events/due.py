"""What games wait on (a bot's turn, a turn deadline), recorded with the append that makes it due.

A due set is a sorted set of `<game id>@<version>` members scored by the Unix time after which a
sweep should step in if the job that serves it has not moved the game on. The append script
replaces a game's member atomically with its events, so no crash can lose what must happen next.

Redis Cluster runs a script only on keys of one slot, so there each slot has its own due set,
named with a tag that hashes to that slot; on one server a single set serves every game. Like
snapshots and the lobby index, due sets are derived: `loveletter rebuild` recomputes them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from redis.cluster import RedisCluster
from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

from events.connection import RedisClient, as_text


@dataclass(frozen=True)
class Overdue:
    """A game at `version` that waited on a job past `since` (Unix seconds)."""

    game_id: str
    version: int
    since: float
    first: int | None = None  # relay sets: the first version of the append to relay


def member(game_id: str, version: int, first: int | None = None) -> str:
    """The due set member of a game waiting at `version` (a relay set's: `first-version`)."""
    return f"{game_id}@{version}" if first is None else f"{game_id}@{first}-{version}"


class DueSets:
    """The due sets of one namespace: which key holds a game, and what is overdue."""

    def __init__(
        self, redis_client: RedisClient, *, namespace: str = "ll", kind: str = "due"
    ) -> None:
        self.redis = redis_client
        self.namespace = namespace
        self.kind = kind  # "due" (jobs), or "relay" (appends the players must be told of)
        self.clustered = isinstance(redis_client, RedisCluster)

    def key(self, game_id: str) -> str:
        """The due set holding `game_id` (in the game's own slot on a cluster)."""
        if not self.clustered:
            return f"{self.namespace}:{self.kind}"
        return f"{self.namespace}:{self.kind}:{{{slot_tag(key_slot(game_id.encode()))}}}"

    def keys(self) -> Iterator[str]:
        """Every due set that holds a game now (empty sets don't exist in Redis)."""
        if not self.clustered:
            yield f"{self.namespace}:{self.kind}"
            return
        seen: set[str] = set()
        for key in self.redis.scan_iter(match=f"{self.namespace}:{self.kind}:*", count=1000):
            name = as_text(key)
            if name not in seen:
                seen.add(name)
                yield name

    def overdue(self, now: float, limit: int = 1000) -> list[Overdue]:
        """Games whose sweep time has passed, oldest first (at most `limit` per set)."""
        found = []
        for key in self.keys():
            entries: Any = self.redis.zrangebyscore(
                key, "-inf", now, start=0, num=limit, withscores=True
            )
            for name, score in entries:
                game_id, _, versions = as_text(name).rpartition("@")
                first, _, last = versions.rpartition("-")  # relay members: `first-last`
                since = float(score)
                found.append(Overdue(game_id, int(last), since, int(first) if first else None))
        return sorted(found, key=lambda item: item.since)

    def postpone(self, game_id: str, version: int, until: float, first: int | None = None) -> None:
        """Move the sweep's time for this game and version (only if it is still due)."""
        self.redis.zadd(self.key(game_id), {member(game_id, version, first): until}, xx=True)

    def put(self, game_id: str, version: int, at: float) -> None:
        """Record that the game at `version` waits on a job (rebuild only; appends do it)."""
        self.redis.zadd(self.key(game_id), {member(game_id, version): at})

    def drop(self, game_id: str, version: int, first: int | None = None) -> None:
        """Forget the game's entry at `version` (a relay set's: `first` to `version`)."""
        self.redis.zrem(self.key(game_id), member(game_id, version, first))

    def when(self, game_id: str, version: int) -> float | None:
        """When the sweep steps in for this game at `version` (None: it waits on no job)."""
        score: Any = self.redis.zscore(self.key(game_id), member(game_id, version))
        return None if score is None else float(score)


@cache
def slot_tag(slot: int) -> str:
    """A short hash tag whose Redis Cluster slot is `slot` (found once, then remembered)."""
    return _slot_tags()[slot]


@cache
def _slot_tags() -> dict[int, str]:
    """A tag for each of the 16,384 slots: `d0`, `d1`, ... until every slot has one (~0.1 s)."""
    tags: dict[int, str] = {}
    number = 0
    while len(tags) < REDIS_CLUSTER_HASH_SLOTS:
        tag = f"d{number}"
        tags.setdefault(key_slot(tag.encode()), tag)
        number += 1
    return tags
