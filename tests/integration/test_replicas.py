"""The acknowledgement promise: with LOVELETTER_APPEND_REPLICAS, an append is answered once that
many replicas have it; otherwise NotReplicated, and a retry with the same key gets the answer
once they do. On real servers: a master with a replica, a master without, and a Redis Cluster
whose masters have replicas (failed over, and with a slot being moved)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from redis.cluster import RedisCluster
from redis.crc import key_slot
from redis.exceptions import TryAgainError

from events.connection import RedisClient, connect
from events.redis_cluster import LocalCluster
from events.redis_server import EmbeddedRedis
from events.replicas import NotReplicated
from events.store import EventStore, Idempotency
from game.table import OpenTable, TakeSeat
from play.context import Context
from play.send_command import Sent, send_command
from play.settings import Settings
from tests.integration.workers import submit
from tests.redis_keys import new_namespace
from tests.waits import wait_until

pytestmark = pytest.mark.redis

EVENT = [{"type": "a"}]


def replica_of(master: EmbeddedRedis, folder: Path) -> EmbeddedRedis:
    """A replica of `master`, in sync once this returns."""
    replica = EmbeddedRedis(folder, extra_args=["--replicaof", "127.0.0.1", str(master.port)])
    replica.start()
    client = redis.Redis(port=replica.port)
    with client:
        wait_until(
            lambda: client.info("replication")["master_link_status"] == "up",
            "the replica to be in sync with its master",
        )
    return replica


@pytest.fixture
def master(tmp_path: Path) -> Iterator[EmbeddedRedis]:
    """A server of this test alone (so replicas can be attached and taken away)."""
    with EmbeddedRedis(tmp_path / "master") as server:
        yield server


def test_an_append_is_answered_once_the_replica_has_it(
    master: EmbeddedRedis, tmp_path: Path
) -> None:
    replica = replica_of(master, tmp_path / "replica")
    try:
        store = EventStore(connect(master.url), namespace="t", replicas=1)
        result = store.append("g1", 0, EVENT, idempotency=Idempotency("s", "k1"))
        assert result.ok and result.replicated
        copy = redis.Redis(port=replica.port)
        with copy:  # acknowledged: the replica has it now, not eventually
            assert copy.xlen(store.stream_key("g1")) == 1
            assert copy.get(store.idempotency_key("g1", Idempotency("s", "k1"))) is not None
    finally:
        replica.stop()


def test_without_a_replica_the_command_is_written_but_not_acknowledged(
    master: EmbeddedRedis, tmp_path: Path
) -> None:
    """The use case raises NotReplicated (the API answers 503) and the append stands on the
    master; the same key again is refused the same way while no replica has it, then gets the
    first answer, and nothing was appended twice."""
    client = connect(master.url)
    loose = Context.on(client, Settings(namespace="t", queue="t"))
    opened = submit(loose, "g1", OpenTable("classic", (None, None), "seed"), expected_version=0)
    seated = submit(loose, "g1", TakeSeat(0, "ann", "-"), expected_version=opened.game.version)
    strict = Context.on(
        client, Settings(namespace="t", queue="t", append_replicas=1, append_timeout_ms=50)
    )
    # Once a replica is there, a timeout a busy machine can keep (the replica's ack may take
    # longer than 50 ms when other work shares the cores).
    patient = Context.on(
        client, Settings(namespace="t", queue="t", append_replicas=1, append_timeout_ms=3000)
    )
    before = seated.game

    def join(context: Context = strict) -> Sent:
        return send_command(
            context,
            "g1",
            TakeSeat(1, "bob", "-"),
            game=before,
            expected_version=before.version,
            idempotency=Idempotency("seat1", "join", "fingerprint"),
        )

    with pytest.raises(NotReplicated):
        join()
    appended = strict.games.store.version("g1")
    assert appended > before.version  # the master has it
    assert strict.heads.peek("g1") is None  # a head the replicas may lack is not kept
    with pytest.raises(NotReplicated):
        join()
    with pytest.raises(NotReplicated):  # the key's answer, asked for apart, waits as well
        strict.games.store.recall("g1", Idempotency("seat1", "join", "fingerprint"))
    replica = replica_of(master, tmp_path / "replica")
    try:
        answer = join(patient)
        assert answer.repeated and answer.game.version == appended
        assert strict.games.store.version("g1") == appended
    finally:
        replica.stop()
        client.close()


@pytest.fixture(scope="module")
def replicated_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    """Three masters with a replica each, for this module alone."""
    cluster = LocalCluster(tmp_path_factory.mktemp("replicated"), replicas=1).start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def cluster_store(replicated_cluster: LocalCluster) -> Iterator[EventStore]:
    client = connect(replicated_cluster.url)
    yield EventStore(client, namespace=new_namespace("replicas"), replicas=1)
    client.close()


def owner(client: RedisClient, key: str) -> int:
    assert isinstance(client, RedisCluster)
    port: int = client.get_node_from_key(key).port
    return port


def test_appends_follow_a_manual_failover(
    replicated_cluster: LocalCluster, cluster_store: EventStore
) -> None:
    """After CLUSTER FAILOVER the old master answers MOVED; the append goes to the new one."""
    store = cluster_store
    first = store.append("g1", 0, EVENT)
    assert first.ok and first.replicated
    was = owner(store.redis, store.stream_key("g1"))
    replica = replicated_cluster.replica_of(was)
    with redis.Redis(port=replica.port) as promoted:
        promoted.execute_command("CLUSTER", "FAILOVER")
        wait_until(
            lambda: promoted.info("replication")["role"] == "master",
            "the replica to take over as master",
        )
    second = store.append("g1", 1, EVENT, expected_stamp=first.stamp)
    assert second.ok and second.replicated
    assert owner(store.redis, store.stream_key("g1")) == replica.port
    assert [item.version for item in store.read("g1")] == [1, 2]
    replicated_cluster.wait_ok()  # every node agrees on the new master before the next test


def test_while_a_slot_moves_a_new_game_waits_for_the_move_to_end(
    replicated_cluster: LocalCluster, cluster_store: EventStore
) -> None:
    """While the game's slot migrates, its absent keys are asked for on the importing node,
    which can't run a script on keys it may not all have yet: TRYAGAIN (the API answers 503),
    and nothing is written. Once the slot has moved, the append lands on its new master."""
    store = cluster_store
    client = store.redis
    assert isinstance(client, RedisCluster)
    slot = key_slot(b"moving")
    source = client.get_node_from_key(store.stream_key("moving"))
    target = next(node for node in client.get_primaries() if node.name != source.name)
    source_id = client.cluster_myid(source)
    target_id = client.cluster_myid(target)
    key = Idempotency("s", "first")
    with (
        redis.Redis(port=source.port) as old,
        redis.Redis(port=target.port) as new,
    ):
        new.execute_command("CLUSTER", "SETSLOT", slot, "IMPORTING", source_id)
        old.execute_command("CLUSTER", "SETSLOT", slot, "MIGRATING", target_id)
        try:
            with pytest.raises(TryAgainError):
                store.append("moving", 0, EVENT, idempotency=key)
            for server in (old, new):
                assert server.execute_command("CLUSTER", "COUNTKEYSINSLOT", slot) == 0
        finally:
            for server in (new, old):
                server.execute_command("CLUSTER", "SETSLOT", slot, "NODE", target_id)
    result = store.append("moving", 0, EVENT, idempotency=key)
    assert result.ok and result.replicated
    assert owner(client, store.stream_key("moving")) == target.port
