"""A waiting client asking again costs its process no Redis read while nothing happened: the head
cache takes a game's head as it is when the append hub has heard nothing of that game since the
head was read, and reads again once it has (or once the hub lost its subscription)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from events.connection import RedisClient
from events.hub import AppendHub
from game.table import OpenTable, TakeSeat
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
