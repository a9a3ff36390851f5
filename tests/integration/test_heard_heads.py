"""A waiting client asking again costs its process no Redis read while nothing happened: the head
cache takes a game's head as it is when the append hub has heard nothing of that game since the
head was read, and reads again once it has (or once the hub lost its subscription)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from events.connection import RedisClient
from events.games import LoadedGame
from events.hub import AppendHub
from events.store import appends_channel, game_key
from game.table import OpenTable, TakeSeat, step
from play.context import Context
from play.heads import HeadCache
from play.settings import Settings
from tests.integration.workers import submit

pytestmark = pytest.mark.redis


@pytest.fixture
def ctx(client: RedisClient, namespace: str) -> Iterator[Context]:
    found = Context.on(client, Settings(namespace=namespace, queue=namespace))
    yield found
    found.hub.close()


class CountedReads:
    """The repository's reads and loads of a game, counted (the real ones all the same)."""

    def __init__(self, ctx: Context) -> None:
        self.count = 0
        for name in ("read", "load"):
            setattr(ctx.games, name, self._counted(getattr(ctx.games, name)))

    def _counted(self, method: Any) -> Any:
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return method(*args, **kwargs)

        return counted


def heard_since(hub: AppendHub, mark: tuple[int, int] | None) -> None:
    """Wait until the hub has handled an append after `mark`."""
    assert mark is not None
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        now = hub.mark()
        if now is not None and now[1] > mark[1]:
            return
        time.sleep(0.02)
    raise AssertionError("the hub heard nothing")


def test_a_head_is_read_once_until_the_hub_hears_an_append_of_its_game(ctx: Context) -> None:
    game = submit(ctx, "g1", OpenTable("2019", (None, None), "seed"), expected_version=0)
    heads, hub = HeadCache(ctx.games), ctx.hub
    reads = CountedReads(ctx)

    def load(listener: AppendHub | None = hub) -> tuple[Any, int]:
        """The head, and how many reads it took."""
        before = reads.count
        loaded = heads.load("g1", listener)
        return loaded, reads.count - before

    with hub.watch("g1"):  # as a long poll watches its game before it loads it
        assert hub.subscribed.wait(10)
        first, taken = load()
        assert taken == 1 and first.version == game.game.version
        for _ in range(3):  # asked again and again: no read while nothing is heard
            assert load() == (first, 0)
        mark = hub.mark()
        submit(ctx, "other", OpenTable("2019", (None, None), "seed"), expected_version=0)
        heard_since(hub, mark)
        assert load() == (first, 0)  # another game's news
        mark = hub.mark()
        submit(ctx, "g1", TakeSeat(0, "p0", "-"), expected_version=first.version)
        heard_since(hub, mark)
        again, taken = load()
        assert taken == 1 and again.version == first.version + 1
        assert load() == (again, 0)
        assert load(None)[1] == 1  # without the hub: read


def test_a_head_is_read_again_after_the_hub_lost_its_subscription(ctx: Context) -> None:
    submit(ctx, "g1", OpenTable("2019", (None, None), "seed"), expected_version=0)
    heads, hub = HeadCache(ctx.games), ctx.hub
    with hub.watch("g1"):
        assert hub.subscribed.wait(10)
        heads.load("g1", hub)
        reads = CountedReads(ctx)
        heads.load("g1", hub)
        assert reads.count == 0
        mark = hub.mark()
        assert hub._pubsub is not None
        hub._pubsub.connection.disconnect()  # the listener's connection is lost
        deadline = time.monotonic() + 10
        while hub.mark() in (None, mark) and time.monotonic() < deadline:
            time.sleep(0.05)  # until it has subscribed again
        assert hub.mark() not in (None, mark)
        heads.load("g1", hub)
        assert reads.count == 1  # appends may have gone unheard meanwhile: read


@pytest.fixture
def elsewhere(client: RedisClient, namespace: str) -> Iterator[Context]:
    """Another process's context on the same games."""
    found = Context.on(client, Settings(namespace=namespace, queue=namespace))
    yield found
    found.hub.close()


def followed(ctx: Context, game_id: str) -> tuple[HeadCache, LoadedGame]:
    """A head cache the hub keeps current, with the game's head kept, and the hub listening
    (for a waiter)."""
    heads = HeadCache(ctx.games)
    heads.follow(ctx.hub)
    kept = heads.load(game_id)
    with ctx.hub.watch("a game with a waiter"):
        assert ctx.hub.subscribed.wait(10)
    return heads, kept


def test_a_followed_head_takes_another_process_append_without_a_read(
    ctx: Context, elsewhere: Context
) -> None:
    game = submit(ctx, "g1", OpenTable("2019", (None, None), "seed"), expected_version=0)
    heads, kept = followed(ctx, "g1")
    reads = CountedReads(ctx)
    for seat in (0, 1):  # two appends by the other process, one after the other
        mark = ctx.hub.mark()
        version = game.game.version
        game = submit(elsewhere, "g1", TakeSeat(seat, f"p{seat}", "-"), expected_version=version)
        heard_since(ctx.hub, mark)
        head = heads.peek("g1")
        assert head is not None and head.version == game.game.version
        assert head.stamp == game.game.stamp and head.at == game.game.at
        assert head.table == game.game.table
    assert heads.load("g1", ctx.hub).version == game.game.version  # taken as it is
    assert reads.count == 0
    assert kept.version < game.game.version


def test_a_followed_head_takes_no_append_that_checked_no_stamp_or_another_one(
    ctx: Context, elsewhere: Context, client: RedisClient, namespace: str
) -> None:
    opened = submit(ctx, "g1", OpenTable("2019", (None, None), "seed"), expected_version=0)
    heads, kept = followed(ctx, "g1")
    assert kept.version == opened.game.version
    # Written without the stamp check (as no use case writes): not folded.
    events, _ = step(kept.table, TakeSeat(0, "p0", "-"))
    encoded = [ctx.games.vocabulary.encode(event) for event in events]
    mark = ctx.hub.mark()
    ctx.games.store.append("g1", kept.version, encoded)
    heard_since(ctx.hub, mark)
    assert heads.peek("g1") == kept
    # The stream written anew (as after a failover that lost writes): the next append checks
    # another stamp at the kept version, and is not folded either.
    client.delete(game_key(namespace, "g1", "stream"))
    again = submit(elsewhere, "g1", OpenTable("2019", (None, None), "seed"), expected_version=0)
    assert again.game.version == kept.version and again.game.stamp != kept.stamp
    mark = ctx.hub.mark()
    submit(elsewhere, "g1", TakeSeat(0, "p0", "-"), expected_version=again.game.version)
    heard_since(ctx.hub, mark)
    assert heads.peek("g1") == kept
    assert heads.load("g1").stamp != kept.stamp  # a read notices


def test_a_followed_head_is_dropped_for_an_append_it_cannot_decode(
    ctx: Context, client: RedisClient, namespace: str
) -> None:
    opened = submit(ctx, "g1", OpenTable("2019", (None, None), "seed"), expected_version=0)
    heads, kept = followed(ctx, "g1")
    # As a later release might publish it: an event this one does not know, after the head.
    fields = ["g1", str(kept.version + 1), "1700000000125", str(kept.stamp), "s2"]
    message = "\n".join([*fields, '{"type": "from_a_later_release"}'])
    mark = ctx.hub.mark()
    client.publish(appends_channel(namespace), message)
    heard_since(ctx.hub, mark)
    assert heads.peek("g1") is None  # read again when next needed
    assert ctx.hub.subscribed.is_set()  # and the hub listens on
    assert heads.load("g1").version == opened.game.version
