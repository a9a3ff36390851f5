"""`loveletter bench waiters`: a small crowd of waiting clients beside the command load."""

from __future__ import annotations

import argparse
import json

import pytest

from bench import waiters as bench_waiters


@pytest.fixture
def redis_env(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """REDIS_URL pointed at the tests' Redis for the benchmark's server."""
    monkeypatch.setenv("REDIS_URL", redis_url)
    return redis_url


@pytest.mark.slow
def test_bench_waiters_delivers_every_followed_event_once(
    redis_env: str, capsys: pytest.CaptureFixture[str]
) -> None:
    parser = argparse.ArgumentParser()
    bench_waiters.register_bench(parser.add_subparsers())
    args = parser.parse_args(
        ["waiters", "--waiters", "40", "--hold", "8", "--games", "2", "--seconds", "2",
         "--warmup", "0.5", "--workers", "1", "--json"]
    )  # fmt: skip
    assert args.func(args) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["crowd"]["opened"] == 40 and result["crowd"]["errors"] == 0
    assert result["crowd"]["dropped"] == 0
    delivery = result["delivery"]
    assert delivery["count"] > 0 and delivery["count"] == delivery["expected"]
    assert delivery["missing"] == 0 and delivery["repeated"] == 0
    assert delivery["by_kind"]["stream"]["count"] > 0 and delivery["by_kind"]["poll"]["count"] > 0
    assert result["with_waiters"]["requests"] > 0 and result["without_waiters"]["requests"] > 0
    under_load = result["while_held_under_load"]
    assert under_load["api_processes"] == 1
    assert 0 < under_load["api_redis_connections"][0] <= 65
    assert "targets" in bench_waiters.table(result)
