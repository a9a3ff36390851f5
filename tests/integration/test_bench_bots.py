"""`loveletter bench bots`, small: real Redis, real `rq worker` processes, real bot replies."""

from __future__ import annotations

import argparse
import json

import pytest

from bench import bots as bench_bots
from events.connection import RedisClient


@pytest.mark.slow
def test_bench_bots_times_replies_and_empty_jobs_then_cleans_up(
    redis_url: str,
    single_client: RedisClient,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("REDIS_URL", redis_url)
    parser = argparse.ArgumentParser()
    bench_bots.register_bench(parser.add_subparsers())
    args = parser.parse_args(
        ["bots", "--games", "4", "--moves", "3", "--workers", "2", "--jobs", "10", "--json"]
    )
    assert args.func(args) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["errors"] == 0 and result["games"] == 4 and result["workers"] == 2
    assert result["reply"]["count"] == result["reply_observed"]["count"] == 12
    assert result["noop_idle"]["count"] == 10
    for key in ("reply", "reply_observed", "noop_idle"):
        row = result[key]
        assert 0 < row["p50_ms"] <= row["p95_ms"] <= row["max_ms"]
    assert result["reply"]["p50_ms"] <= result["reply_observed"]["p50_ms"]
    namespace = result["namespace"]
    assert not list(single_client.scan_iter(match=f"*{namespace}*", count=1000))
    assert not [m for m in single_client.smembers("rq:queues") if namespace.encode() in m]
    for key in single_client.scan_iter(match="rq:worker:*", count=1000, _type="hash"):
        assert single_client.hget(key, "queues") != namespace.encode()


def test_the_table_names_every_figure() -> None:
    row = {"count": 3, "p50_ms": 1.0, "p95_ms": 2.0, "mean_ms": 1.5, "max_ms": 2.5}
    result = {"games": 2, "bot": "heuristic", "edition": "2019", "moves": 3, "workers": 2,
              "worker_class": "workers.worker.Worker", "games_started": 2, "errors": 0,
              "namespace": "ns", "reply": row, "reply_observed": row, "noop_idle": row,
              "noop_loaded": row}  # fmt: skip
    text = bench_bots.table(result)
    assert "bot reply" in text and "empty RQ job" in text and "p95" in text


def test_figures_of_nothing_and_of_one() -> None:
    assert bench_bots.figures([])["count"] == 0
    one = bench_bots.figures([0.002])
    assert one["p50_ms"] == one["p95_ms"] == one["max_ms"] == 2.0
