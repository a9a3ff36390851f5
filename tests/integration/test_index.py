"""GameIndex against a real single server and a real cluster."""

from __future__ import annotations

import pytest

from events.connection import RedisClient
from events.index import GameIndex, GameSummary, RebuildReport

pytestmark = pytest.mark.redis


@pytest.fixture
def index(client: RedisClient, namespace: str) -> GameIndex:
    return GameIndex(client, namespace=namespace)


def summary(status: str = "waiting", edition: str = "classic", open_seats: int = 1,
            players: int = 2, at: float = 0.0) -> GameSummary:  # fmt: skip
    return GameSummary(status, edition, open_seats, players, at)


def test_put_get_remove(index: GameIndex) -> None:
    assert index.get("g1") is None
    index.put("g1", summary(at=1.25))
    assert index.get("g1") == summary(at=1.25)
    index.remove("g1")
    assert index.get("g1") is None
    assert index.query() == []


def test_query_newest_first_with_filters(index: GameIndex) -> None:
    index.put("a", summary("waiting", "classic", 2, 2, at=1))
    index.put("b", summary("active", "classic", 0, 4, at=2))
    index.put("c", summary("waiting", "premium", 0, 6, at=3))
    index.put("d", summary("finished", "premium", 0, 3, at=4))
    assert [g for g, _ in index.query()] == ["d", "c", "b", "a"]
    assert [g for g, _ in index.query(status="waiting")] == ["c", "a"]
    assert [g for g, _ in index.query(edition="premium")] == ["d", "c"]
    assert [g for g, _ in index.query(has_open_seats=True)] == ["a"]
    assert [g for g, _ in index.query(has_open_seats=False)] == ["d", "c", "b"]
    assert [g for g, _ in index.query(status="waiting", edition="classic")] == ["a"]
    assert index.query(status="nobody") == []
    assert index.query()[0] == ("d", summary("finished", "premium", 0, 3, at=4))


def test_limit_and_offset_page_through(index: GameIndex) -> None:
    for i in range(450):
        index.put(f"g{i}", summary("waiting" if i % 3 else "active", at=float(i)))
    assert [g for g, _ in index.query(limit=3)] == ["g449", "g448", "g447"]
    assert [g for g, _ in index.query(limit=2, offset=3)] == ["g446", "g445"]
    waiting = index.query(status="waiting", limit=1000)
    assert len(waiting) == 300
    active = [g for g, _ in index.query(status="active", limit=5, offset=140)]
    assert active == ["g27", "g24", "g21", "g18", "g15"]
    assert index.query(limit=0) == []


def test_status_change_moves_the_game(index: GameIndex) -> None:
    index.put("g1", summary("waiting", at=1))
    index.put("g1", summary("active", open_seats=0, at=2))
    assert index.query(status="waiting") == []
    assert [g for g, _ in index.query(status="active")] == ["g1"]
    assert len(index.query()) == 1


def test_rebuild_reports_and_replaces(index: GameIndex) -> None:
    index.put("same", summary(at=1))
    index.put("moved", summary("waiting", at=2))
    index.put("gone", summary("active", at=3))
    report = index.rebuild(
        [
            ("same", summary(at=1)),
            ("moved", summary("finished", open_seats=0, at=5)),
            ("new", summary("waiting", at=4)),
        ]
    )
    assert report == RebuildReport(added=1, changed=1, removed=1, unchanged=1)
    assert [g for g, _ in index.query()] == ["moved", "new", "same"]
    assert [g for g, _ in index.query(status="waiting")] == ["new", "same"]
    assert index.query(status="active") == []
    assert index.get("gone") is None
    assert index.rebuild([]) == RebuildReport(added=0, changed=0, removed=3, unchanged=0)
    assert index.query() == []


def test_rebuild_drops_stray_set_members(index: GameIndex, client: RedisClient) -> None:
    index.put("g1", summary(at=1))
    client.zadd(f"{index.prefix}updated", {"ghost": 9})
    client.zadd(f"{index.prefix}status:waiting", {"ghost": 9})
    assert [g for g, _ in index.query()] == ["g1"]  # members without a summary are skipped
    index.rebuild([("g1", summary(at=1))])
    assert client.zscore(f"{index.prefix}updated", "ghost") is None
    assert client.zscore(f"{index.prefix}status:waiting", "ghost") is None


def test_clear_deletes_every_index_key(index: GameIndex, client: RedisClient) -> None:
    for i in range(20):
        index.put(f"g{i}", summary("waiting" if i % 2 else "active", at=float(i)))
    index.clear()
    assert list(client.scan_iter(match=f"{index.prefix}*")) == []
    assert index.query() == []
