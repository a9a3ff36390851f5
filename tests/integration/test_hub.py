"""The append hub on a real Redis and a real Redis Cluster: one subscription per process hears
every append, hands each game's events to its watches, and after a lost connection has them
read their streams, so a follower loses nothing and repeats nothing."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator

import pytest

from events.connection import RedisClient
from events.hub import AppendHub
from events.store import AppendResult, EventStore, StoredEvent, appends_channel
from play.follow import Follower
from tests.redis_keys import delete_namespace, new_namespace

EVENT = {"type": "card_played", "seat": 0, "card": "guard"}


@pytest.fixture
def hub(client: RedisClient, namespace: str) -> Iterator[AppendHub]:
    found = AppendHub(client, namespace)
    yield found
    found.close()


def subscribed(hub: AppendHub, game_id: str) -> None:
    """Wait until the hub listens (a watch starts it)."""
    with hub.watch(game_id):
        assert hub.subscribed.wait(10)


AT = 1_700_000_000_125  # when the appends are made (Unix ms): the hub hears it with them


def append(store: EventStore, game_id: str, count: int = 1) -> AppendResult:
    """Append `count` events after the game's current version."""
    events = [{**EVENT, "n": n} for n in range(count)]
    return store.append(game_id, store.version(game_id), events, at=AT / 1000)


def test_a_watch_hears_its_games_appends_and_no_others(
    client: RedisClient, namespace: str, hub: AppendHub
) -> None:
    store = EventStore(client, namespace=namespace)
    other = EventStore(client, namespace=namespace + "-other")
    subscribed(hub, "g1")
    try:
        with hub.watch("g1") as watch:
            watch.take()
            stamp = append(store, "g1", 3).stamp
            append(store, "g2")
            append(other, "g1")
            append(store, "g1")  # a last one: once it is heard, all published before it were
            heard: list[list[StoredEvent]] = []
            while not heard or heard[-1][-1].version != 4:
                assert watch.wait(5), f"the last append was not heard: {heard}"
                taken, missed = watch.take()
                assert not missed
                heard += taken
            assert heard.pop()[-1].version == 4
    finally:  # the other namespace is this test's to clean
        for key in client.scan_iter(match=f"{namespace}-other:*"):
            client.delete(key)
    stamps = [None, None, stamp]  # the append's stamp is heard on its last event
    expected = [
        StoredEvent(v, {**EVENT, "n": v - 1}, None, stamps[v - 1], at=AT) for v in (1, 2, 3)
    ]
    assert heard == [expected]
    assert hub.watching() == 0  # the watch is gone with its block


def test_an_append_published_without_stamps_is_heard_as_it_was(
    client: RedisClient, namespace: str, hub: AppendHub
) -> None:
    """A process of the release before published no stamps: while both run, its appends are
    heard whole and in order."""
    subscribed(hub, "g1")
    events = [{**EVENT, "n": n} for n in range(2)]
    message = "\n".join(["g1", "4", str(AT), *(json.dumps(event) for event in events)])
    with hub.watch("g1") as watch:
        watch.take()
        client.publish(appends_channel(namespace), message)
        assert watch.wait(5)
        heard, missed = watch.take()
    assert not missed
    assert heard == [[StoredEvent(4 + n, event, None, at=AT) for n, event in enumerate(events)]]


def test_a_follower_gets_every_event_once_in_order_while_appends_race_it(
    client: RedisClient, namespace: str, hub: AppendHub
) -> None:
    """Appends before the watch, during the first read and after: all of them, once each."""
    store = EventStore(client, namespace=namespace)
    append(store, "g", 2)
    appender = threading.Thread(target=lambda: [append(store, "g", n % 3 + 1) for n in range(30)])
    received: list[int] = []
    with hub.watch("g") as watch:
        follower = Follower(store, watch, after=1, limit=None)
        appender.start()
        deadline = time.monotonic() + 20
        while len(received) < 1 + 60 and time.monotonic() < deadline:
            received += [item.version for item in follower.next(1.0)]
    appender.join()
    assert received == list(range(2, 63))


def test_a_follower_with_a_limit_gets_the_rest_next_time(
    client: RedisClient, namespace: str, hub: AppendHub
) -> None:
    store = EventStore(client, namespace=namespace)
    subscribed(hub, "g")
    with hub.watch("g") as watch:
        follower = Follower(store, watch, after=0, limit=2)
        assert follower.next(0.1) == []
        append(store, "g", 5)
        batches = [[item.version for item in follower.next(5)] for _ in range(3)]
    assert batches == [[1, 2], [3, 4], [5]]


def test_after_a_lost_connection_every_watch_reads_its_stream(single_client: RedisClient) -> None:
    """The hub's connection is killed; an append made before it subscribes again still reaches
    the follower (read from the stream), and nothing twice."""
    namespace = new_namespace("hub")
    hub = AppendHub(single_client, namespace)
    store = EventStore(single_client, namespace=namespace)
    try:
        with hub.watch("g") as watch:
            assert hub.subscribed.wait(10)
            follower = Follower(store, watch, after=0, limit=None)
            assert follower.next(0.1) == []
            host, port = hub._pubsub.connection._sock.getsockname()[:2]
            single_client.client_kill(f"{host}:{port}")  # the server hangs up on the hub
            append(store, "g", 2)  # published while nobody listens
            first = [item.version for item in follower.next(10)]
            assert hub.subscribed.wait(10)
            append(store, "g")
            second = [item.version for item in follower.next(10)]
    finally:
        hub.close()
        delete_namespace(single_client, namespace)
    assert (first, second) == ([1, 2], [3])


def test_closing_the_hub_wakes_every_waiter(client: RedisClient, namespace: str) -> None:
    hub = AppendHub(client, namespace)
    store = EventStore(client, namespace=namespace)
    with hub.watch("g") as watch:
        follower = Follower(store, watch, after=0, limit=None)
        threading.Timer(0.3, hub.close).start()
        started = time.monotonic()
        assert follower.next(30) == []
        assert follower.closed and time.monotonic() - started < 20  # at the close, not at 30 s
