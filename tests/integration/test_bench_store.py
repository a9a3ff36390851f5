"""`loveletter bench store`: runs on both backends, prints a table or one JSON object."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable

import pytest

from bench.store import register_bench, run_store_bench, sample_event
from events.connection import RedisClient
from events.store import EventStore

pytestmark = pytest.mark.redis
STORE_BENCH_KEYS = "bench-" + "[0-9a-f]" * 8 + ":*"


def test_bench_figures_and_cleanup(client: RedisClient, capsys: pytest.CaptureFixture[str]) -> None:
    def replay(store: EventStore, game_id: str, size: int) -> Callable[[], object]:
        for version in range(size):
            store.append(game_id, version, [sample_event(version)])
        return lambda: store.read(game_id)

    before = set(client.scan_iter(match=STORE_BENCH_KEYS))
    result = run_store_bench(client, events=300, load_cases={"replay": replay}, load_sizes=[5, 50])
    assert result["lua_appends_per_second"] > 0
    assert result["xadd_per_second"] > 0
    assert result["ratio"] > 0
    assert 150 < result["event_bytes"] < 260
    assert result["stream_bytes_per_event"] > result["event_bytes"] / 2
    assert set(result["load_ms"]["replay"]) == {"5", "50"}
    assert "plain XADD" in capsys.readouterr().out
    # It deleted what it wrote (its namespace is bench-<8 hex digits>; other benchmarks that run
    # on the same server meanwhile write namespaces of other shapes).
    assert set(client.scan_iter(match=STORE_BENCH_KEYS)) == before


def test_cli_prints_exactly_one_json_object(
    redis_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("REDIS_URL", redis_url)
    parser = argparse.ArgumentParser()
    register_bench(parser.add_subparsers(dest="bench", required=True))
    args = parser.parse_args(["store", "--events", "200", "--sizes", "40,120", "--json"])
    assert args.func(args) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["benchmark"] == "store"
    assert printed["events"] == 200
    loads = printed["load_ms"]
    assert set(loads) == {"with snapshots", "without snapshots"}
    assert all(set(sizes) == {"40", "120"} for sizes in loads.values())
    assert 50 < printed["game_stream_bytes_per_event"] < 1000
