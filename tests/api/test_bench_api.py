"""`loveletter bench api`: the harness, with the bare endpoint on both sides."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator

import pytest

from service.cli import bench_api


@pytest.fixture
def redis_env(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """REDIS_URL pointed at the tests' Redis for the benchmark's servers."""
    monkeypatch.setenv("REDIS_URL", redis_url)
    yield redis_url


@pytest.mark.slow
def test_bench_api_measures_both_sides(redis_env: str, capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    bench_api.register_bench(parser.add_subparsers())
    args = parser.parse_args(
        ["api", "--games", "3", "--seconds", "1", "--warmup", "0.5", "--rounds", "2",
         "--workers", "1", "--threads", "4", "--app", bench_api.BARE_APP,
         "--driver", bench_api.BARE_DRIVER, "--json"]
    )  # fmt: skip
    assert args.func(args) == 0
    result = json.loads(capsys.readouterr().out)
    for side in ("bare", "commands"):
        assert result[side]["requests"] > 10
        assert result[side]["errors"] == 0
        assert 0 < result[side]["p50_ms"] <= result[side]["p99_ms"]
    assert result["throughput_ratio"] > 0
    assert set(result) >= {"p99_ratio", "meets_targets", "gunicorn"}


def test_table_names_both_sides() -> None:
    row = {"app": "a", "driver": "d", "requests": 10, "errors": 0, "requests_per_second": 10.0,
           "p50_ms": 1.0, "p99_ms": 2.0}  # fmt: skip
    result = {"games": 2, "seconds": 1.0, "rounds": 2, "bare": row, "commands": row,
              "throughput_ratio": 1.0, "p99_ratio": 1.0, "meets_targets": True,
              "gunicorn": {"worker_class": "gthread", "workers": 2, "threads": 8}}  # fmt: skip
    text = bench_api.table(result)
    assert "bare" in text and "commands" in text and "met" in text
