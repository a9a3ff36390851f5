"""EventStore against a real single server and a real cluster."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from redis.cluster import RedisCluster

from events.connection import RedisClient
from events.store import AppendResult, EventStore, Idempotency, StoredEvent
from tests.waits import wait_until

pytestmark = pytest.mark.redis


def key(name: str) -> Idempotency:
    """An idempotency key of the tests' one caller."""
    return Idempotency("s", name)


@pytest.fixture
def store(client: RedisClient, namespace: str) -> EventStore:
    return EventStore(client, namespace=namespace, idempotency_ttl_seconds=3600)


def events(*names: str) -> list[dict[str, object]]:
    return [{"type": name, "n": index} for index, name in enumerate(names)]


def test_empty_game_has_version_zero(store: EventStore) -> None:
    assert store.version("g1") == 0
    assert store.read("g1") == []
    assert not store.exists("g1")


def test_append_then_read(store: EventStore) -> None:
    meta = {"command": "start", "seat": 0, "at": 1.5}
    result = store.append("g1", 0, events("a", "b", "c"), meta=meta, at=1_700_000_000.25)
    assert result == AppendResult("ok", 1, 3, 3)
    assert result.ok
    assert store.version("g1") == 3
    assert store.exists("g1")
    assert result.stamp is not None
    assert store.read("g1") == [
        StoredEvent(1, {"type": "a", "n": 0}, meta, at=1_700_000_000_250),
        StoredEvent(2, {"type": "b", "n": 1}, None, at=1_700_000_000_250),
        StoredEvent(3, {"type": "c", "n": 2}, None, result.stamp, at=1_700_000_000_250),
    ]
    assert store.read("g1")[0].at_iso == "2023-11-14T22:13:20.250Z"  # every entry, one time
    second = store.append("g1", 3, events("d"))
    assert second == AppendResult("ok", 4, 4, 4)
    assert [e.version for e in store.read("g1", start=2, end=3)] == [2, 3]
    assert [e.version for e in store.read("g1", start=4)] == [4]
    assert store.read("g1", start=5) == []


def test_stream_ids_encode_versions(store: EventStore, client: RedisClient) -> None:
    store.append("g1", 0, events("a", "b"), meta={"seat": 1})
    entries: Any = client.xrange(store.stream_key("g1"))
    assert [entry_id for entry_id, _ in entries] == [b"1-0", b"2-0"]
    assert set(entries[0][1]) == {b"e", b"t", b"m"}  # t: when, on every entry
    assert set(entries[1][1]) == {b"e", b"t", b"n"}  # the append's stamp, on its last entry
    assert entries[0][1][b"e"] == b'{"n":0,"type":"a"}'  # compact, sorted keys


def test_appending_nothing_is_an_error(store: EventStore) -> None:
    with pytest.raises(ValueError):
        store.append("g1", 0, [])
    assert store.version("g1") == 0


@pytest.mark.parametrize("bad", ["", "a{b}", "with space", "x" * 201, "a/b"])
def test_game_ids_must_be_url_safe(store: EventStore, bad: str) -> None:
    with pytest.raises(ValueError):
        store.append(bad, 0, events("a"))


def test_stale_version_appends_nothing(store: EventStore) -> None:
    store.append("g1", 0, events("a", "b"))
    result = store.append("g1", 1, events("c"))
    assert result == AppendResult("conflict", 0, 0, 2)
    assert not result.ok
    assert store.append("g1", 5, events("c")).status == "conflict"
    assert store.version("g1") == 2
    assert [e.event["type"] for e in store.read("g1")] == ["a", "b"]


def test_same_idempotency_key_appends_once(store: EventStore, client: RedisClient) -> None:
    first = store.append("g1", 0, events("a", "b"), idempotency=key("cmd-1"))
    again = store.append("g1", 0, events("a", "b"), idempotency=key("cmd-1"))
    assert first == AppendResult("ok", 1, 2, 2)
    assert again == AppendResult("duplicate", 1, 2, 2)
    assert store.version("g1") == 2
    ttl = client.ttl(store.idempotency_key("g1", Idempotency("s", "cmd-1")))
    assert 3590 <= ttl <= 3600
    # A repeated key wins over a stale version: the client gets its first result back.
    store.append("g1", 2, events("c"), idempotency=key("cmd-2"))
    late = store.append("g1", 0, events("a", "b"), idempotency=key("cmd-1"))
    assert late == AppendResult("duplicate", 1, 2, 3)


def test_a_conflict_does_not_burn_the_idempotency_key(store: EventStore) -> None:
    store.append("g1", 0, events("a"))
    assert store.append("g1", 0, events("b"), idempotency=key("k")).status == "conflict"
    assert store.append("g1", 1, events("b"), idempotency=key("k")) == AppendResult("ok", 2, 2, 2)


def test_idempotency_keys_are_per_game(store: EventStore) -> None:
    assert store.append("g1", 0, events("a"), idempotency=key("k")).ok
    assert store.append("g2", 0, events("a"), idempotency=key("k")).ok


def test_idempotency_keys_belong_to_their_caller(store: EventStore) -> None:
    """The same key from two callers is two keys: each appends."""
    assert store.append("g1", 0, events("a"), idempotency=Idempotency("seat0", "move-1")).ok
    assert store.append("g1", 1, events("b"), idempotency=Idempotency("seat1", "move-1")).ok
    assert store.version("g1") == 2


def test_a_key_sent_again_with_another_request_is_refused(store: EventStore) -> None:
    """A key is bound to its request's fingerprint: another one is `key-reused`, appending
    nothing, and the first request again still gets its first result."""
    first = Idempotency("seat0", "move-1", "fingerprint-a")
    assert store.append("g1", 0, events("a"), idempotency=first).ok
    other = Idempotency("seat0", "move-1", "fingerprint-b")
    assert store.append("g1", 1, events("b"), idempotency=other) == AppendResult(
        "key-reused", 1, 1, 1
    )
    assert store.version("g1") == 1
    assert store.append("g1", 1, events("b"), idempotency=first).status == "duplicate"
    remembered = store.recall("g1", other)
    assert remembered is not None and remembered.fingerprint == "fingerprint-a"


def test_what_a_game_waits_on_is_written_with_its_events(store: EventStore) -> None:
    """The due entry of the version decided on is replaced by the new version's, atomically;
    a conflict leaves it as it was; an append with nothing due removes it."""
    assert store.append("g1", 0, events("a"), due_at=100.0).ok
    assert store.due.when("g1", 1) == 100.0
    assert store.append("g1", 0, events("b"), due_at=200.0).status == "conflict"
    assert store.due.when("g1", 1) == 100.0
    assert store.append("g1", 1, events("b", "c"), due_at=300.0).ok
    assert (store.due.when("g1", 1), store.due.when("g1", 3)) == (None, 300.0)
    assert [item.game_id for item in store.due.overdue(now=1000.0)] == ["g1"]
    assert store.append("g1", 3, events("d")).ok
    assert store.due.when("g1", 3) is None
    assert store.due.overdue(now=1000.0) == []


def test_follow_returns_at_once_when_events_exist(store: EventStore) -> None:
    store.append("g1", 0, events("a", "b", "c"))
    started = time.monotonic()
    followed = store.follow("g1", 1, timeout_seconds=20)
    assert [e.version for e in followed] == [2, 3]
    assert time.monotonic() - started < 10  # not its whole wait


def test_follow_times_out_with_nothing(store: EventStore) -> None:
    store.append("g1", 0, events("a"))
    started = time.monotonic()
    assert store.follow("g1", 1, timeout_seconds=0.2) == []
    assert store.follow("g2", 0, timeout_seconds=0.05) == []
    assert time.monotonic() - started >= 0.2


def blocked_reads(client: RedisClient) -> int:
    """How many clients of the server (every primary of a cluster) are blocked in XREAD now."""
    nodes = client.get_primaries() if isinstance(client, RedisCluster) else [None]
    found = [client.client_list(target_nodes=node) if node else client.client_list()
             for node in nodes]  # fmt: skip
    return sum(c["cmd"] == "xread" and "b" in c["flags"] for listed in found for c in listed)


def test_follow_wakes_when_another_thread_appends(store: EventStore) -> None:
    store.append("g1", 0, events("a"))
    result: list[StoredEvent] = []
    before = blocked_reads(store.redis)
    follower = threading.Thread(target=lambda: result.extend(store.follow("g1", 1, 20)))
    follower.start()
    wait_until(lambda: blocked_reads(store.redis) > before, "the follower to block on its read")
    store.append("g1", 1, events("b", "c"))
    follower.join(30)
    assert not follower.is_alive()
    assert [e.version for e in result] == [2, 3]  # woken with them, not at its wait's end


def test_only_one_of_many_concurrent_appends_wins(store: EventStore) -> None:
    store.append("g1", 0, events("start"))
    threads = 32
    barrier = threading.Barrier(threads)
    results: list[AppendResult] = []
    lock = threading.Lock()

    def attempt(index: int) -> None:
        barrier.wait()
        outcome = store.append(
            "g1", 1, events(f"move{index}", "after"), idempotency=key(str(index))
        )
        with lock:
            results.append(outcome)

    workers = [threading.Thread(target=attempt, args=(i,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(10)
    assert sorted(r.status for r in results) == ["conflict"] * (threads - 1) + ["ok"]
    assert all(r.current_version == 3 for r in results if r.status == "conflict")
    stored = store.read("g1")
    assert [e.version for e in stored] == [1, 2, 3]
    assert stored[2].event["type"] == "after"


def test_concurrent_appenders_build_a_gapless_stream(store: EventStore) -> None:
    def play(worker: int) -> None:
        done = 0
        while done < 10:
            version = store.version("g1")
            if store.append("g1", version, events(f"w{worker}")).ok:
                done += 1

    workers = [threading.Thread(target=play, args=(i,)) for i in range(8)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(20)
    assert [e.version for e in store.read("g1")] == list(range(1, 81))


def test_game_ids_lists_every_game(store: EventStore, client: RedisClient) -> None:
    names = {f"game-{i}" for i in range(40)}
    for name in names:
        store.append(name, 0, events("a"))
    client.set(f"{store.namespace}:{{not-a-stream}}:stream", b"x")  # wrong type: not listed
    assert set(store.game_ids()) == names
    assert set(EventStore(client, namespace=store.namespace + "x").game_ids()) == set()


def test_the_stamp_tells_two_histories_at_one_version_apart(store: EventStore) -> None:
    """An append decided on an entry that is no longer there (same version, other events)
    is a conflict; decided on the entry that is there, it appends."""
    first = store.append("g1", 0, events("a"))
    assert store.read("g1")[-1].stamp == first.stamp
    assert store.append("g1", 1, events("b"), expected_stamp="not-that-one").status == "conflict"
    assert store.append("g1", 1, events("b"), expected_stamp=first.stamp).ok
    assert store.version("g1") == 2


def test_dropping_a_game_takes_all_of_its_keys_unless_it_moved(
    store: EventStore, client: RedisClient
) -> None:
    store.append("g1", 0, events("a"), idempotency=key("k1"), due_at=time.time() + 60)
    store.append("g2", 0, events("a"), idempotency=key("k1"))
    keys = store.keys_of("g1")
    assert store.stream_key("g1") in keys and store.idempotency_key("g1", key("k1")) in keys
    assert not store.drop("g1", 0)  # it is at version 1: kept
    assert store.drop("g1", 1)
    assert store.keys_of("g1") == [] and store.due.when("g1", 1) is None
    assert store.version("g2") == 1 and store.keys_of("g2")


def test_restoring_writes_archived_events_into_an_empty_stream_only(store: EventStore) -> None:
    store.append("g1", 0, events("a", "b"), meta={"at": 1.0})
    archived = store.read("g1")
    store.drop("g1", 2)
    assert store.restore("g1", archived) == 2
    assert [(e.version, e.event, e.meta) for e in store.read("g1")] == [
        (e.version, e.event, e.meta) for e in archived
    ]
    assert store.restore("g1", archived[:1]) == 2  # not empty: nothing written
    assert store.append("g1", 2, events("c")).ok
