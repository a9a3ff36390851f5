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
    cpu = result["api_cpu_ms_per_command"]
    assert cpu["without_waiters"] > 0 and cpu["with_waiters"] > 0
    assert "targets" in bench_waiters.table(result)


@pytest.mark.slow
@pytest.mark.parametrize(("quiet", "polls_answered"), [("stream", False), ("poll", True)])
def test_bench_waiters_quiet_tables_wait_one_way(
    quiet: str, polls_answered: bool, redis_env: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--quiet stream` holds only streams on the quiet tables, `--quiet poll` only long polls
    (each answered empty once its one-second wait is over, then asked again)."""
    parser = argparse.ArgumentParser()
    bench_waiters.register_bench(parser.add_subparsers())
    args = parser.parse_args(
        ["waiters", "--waiters", "10", "--following", "0", "--quiet", quiet, "--hold", "6",
         "--games", "1", "--seconds", "1", "--warmup", "0.5", "--workers", "1",
         "--poll-wait", "1", "--json"]
    )  # fmt: skip
    assert args.func(args) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["quiet_tables"] == quiet
    assert result["crowd"]["opened"] == 10 and result["crowd"]["errors"] == 0
    assert (result["crowd"]["long_poll_answers"] > 0) is polls_answered


@pytest.mark.slow
def test_bench_waiters_quiet_long_polls_ask_again_spread_over_a_wait(
    redis_env: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Opened at once, the quiet long polls' first asks wait from a whole wait down to nearly
    none, so some are answered long before one wait is over (here 20 s, held 6 s): they ask
    again spread over a wait, not all together in waves a short load could fall between."""
    parser = argparse.ArgumentParser()
    bench_waiters.register_bench(parser.add_subparsers())
    args = parser.parse_args(
        ["waiters", "--waiters", "20", "--following", "0", "--quiet", "poll", "--hold", "6",
         "--games", "1", "--seconds", "1", "--warmup", "0.5", "--workers", "1",
         "--poll-wait", "20", "--json"]
    )  # fmt: skip
    assert args.func(args) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["crowd"]["opened"] == 20 and result["crowd"]["errors"] == 0
    assert 2 <= result["crowd"]["long_poll_answers"] < 20
