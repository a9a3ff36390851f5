"""`loveletter bench deliveries`: a following process's CPU per append, on a small load."""

from __future__ import annotations

import argparse
import json

import pytest

from bench import deliveries as bench_deliveries


@pytest.fixture
def redis_env(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """REDIS_URL pointed at the tests' Redis for the benchmark's servers."""
    monkeypatch.setenv("REDIS_URL", redis_url)
    return redis_url


@pytest.mark.slow
@pytest.mark.parametrize("poll", [False, True])
def test_bench_deliveries_counts_every_event_to_both_seats(
    redis_env: str, poll: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    parser = argparse.ArgumentParser()
    bench_deliveries.register_bench(parser.add_subparsers())
    line = ["deliveries", "--games", "2", "--seconds", "1.5", "--warmup", "0.5", "--json"]
    args = parser.parse_args(line + (["--poll"] if poll else []))
    assert args.func(args) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["errors"] == [] and result["dropped"] == 0
    assert result["appends"] > 0 and result["commands"]["errors"] == 0
    # Each append carries at least one event, and both seats of its game follow it.
    assert result["receipts"] >= 2 * result["appends"]
    assert result["follower_process_cpu_seconds"] > 0
    assert result["cpu_ms_per_append"] == pytest.approx(
        result["follower_process_cpu_seconds"] * 1000 / result["appends"], rel=0.01, abs=0.002
    )
    assert result["followers_per_game"] == {"stream": 1 if poll else 2, "long_poll": int(poll)}
    assert "ms per append" in bench_deliveries.table(result)
