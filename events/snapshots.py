"""Snapshots: one opaque, derived state per game, stored beside its stream (same hash tag)."""

from __future__ import annotations

from dataclasses import dataclass

from events.connection import RedisClient, as_text
from events.store import game_key


@dataclass(frozen=True)
class Snapshot:
    """A projection's state after `version` events, serialized by the projection as `payload`."""

    version: int
    schema: str
    payload: str


class SnapshotStore:
    """The latest snapshot of each game; callers ignore a snapshot whose schema is not theirs."""

    def __init__(self, redis_client: RedisClient, *, namespace: str = "ll") -> None:
        self.redis = redis_client
        self.namespace = namespace

    def key(self, game_id: str) -> str:
        """The key of the game's snapshot (a hash: version, schema, payload)."""
        return game_key(self.namespace, game_id, "snapshot")

    def save(self, game_id: str, version: int, schema: str, payload: str) -> None:
        """Replace the game's snapshot (one HSET, so readers never see a half-written one)."""
        if version < 0:
            raise ValueError("version must be >= 0")
        self.redis.hset(
            self.key(game_id), mapping={"version": version, "schema": schema, "payload": payload}
        )

    def load(self, game_id: str) -> Snapshot | None:
        """The game's snapshot, or None when it has none."""
        version, schema, payload = self.redis.hmget(
            self.key(game_id), ["version", "schema", "payload"]
        )
        if version is None or schema is None or payload is None:
            return None
        return Snapshot(int(version), as_text(schema), as_text(payload))

    def delete(self, game_id: str) -> None:
        """Forget the game's snapshot (it is rebuilt from the stream when needed)."""
        self.redis.delete(self.key(game_id))
