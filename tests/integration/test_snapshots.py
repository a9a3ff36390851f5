"""SnapshotStore against a real single server and a real cluster."""

from __future__ import annotations

import pytest
from redis.cluster import key_slot

from events.connection import RedisClient
from events.snapshots import Snapshot, SnapshotStore
from events.store import EventStore, Idempotency

pytestmark = pytest.mark.redis


def test_save_load_delete(client: RedisClient, namespace: str) -> None:
    snapshots = SnapshotStore(client, namespace=namespace)
    assert snapshots.load("g1") is None
    snapshots.save("g1", 12, "state-v1", '{"round": 2, "name": "Ünïcode"}')
    assert snapshots.load("g1") == Snapshot(12, "state-v1", '{"round": 2, "name": "Ünïcode"}')
    snapshots.save("g1", 20, "state-v2", "{}")
    assert snapshots.load("g1") == Snapshot(20, "state-v2", "{}")
    assert snapshots.load("g2") is None
    snapshots.delete("g1")
    assert snapshots.load("g1") is None


def test_snapshot_lives_in_the_slot_of_its_stream(client: RedisClient, namespace: str) -> None:
    snapshot_key = SnapshotStore(client, namespace=namespace).key("g1")
    store = EventStore(client, namespace=namespace)
    slots = {key_slot(k.encode()) for k in (snapshot_key, store.stream_key("g1"))}
    slots.add(key_slot(store.idempotency_key("g1", Idempotency("s", "any")).encode()))
    assert len(slots) == 1


def test_negative_version_is_refused(client: RedisClient, namespace: str) -> None:
    with pytest.raises(ValueError):
        SnapshotStore(client, namespace=namespace).save("g1", -1, "s", "{}")
