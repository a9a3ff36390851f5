"""`loveletter bench api`: the harness, with the bare endpoint on both sides."""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Iterator

import pytest

from bench import api as bench_api
from bench import games as bench_games
from events.connection import RedisClient
from events.games import GameRepository


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


@pytest.fixture
def live_app(redis_env: str, namespace: str) -> Iterator[str]:
    """The real app under gunicorn (one worker) in this test's namespace; its base URL."""
    env = {
        **os.environ,
        "LOVELETTER_NAMESPACE": namespace,
        "LOVELETTER_QUEUE": namespace,
        "LOVELETTER_RATE_LIMIT_ADDRESS": bench_api.NO_LIMIT,
        "LOVELETTER_RATE_LIMIT_SEAT": bench_api.NO_LIMIT,
        "LOVELETTER_SEEDED_GAMES": "1",
    }
    with bench_api.gunicorn_app(bench_api.COMMAND_APP, env, 1, 4) as (base_url, _):
        yield base_url


def test_the_game_driver_plays_real_commands_through_the_app(
    live_app: str, namespace: str, redis_client: RedisClient
) -> None:
    """Each call is one command of the seat to act; a finished game is followed by the one set
    up beforehand, then by one set up on the spot (create, join, look)."""
    driver = bench_games.GameDriver(live_app, ready=1)
    assert driver.prepare() == 0 and driver.games_started == 1
    first = driver.game_id
    calls = untimed = 0
    while driver.games_started < 2:
        untimed += driver.prepare()
        driver()
        calls += 1
        assert calls < 500, "a 2-player game should end long before 500 commands"
    assert driver.game_id != first and untimed == 3
    games = GameRepository.on(redis_client, namespace)
    played = [s.meta for s in games.store.read(first) if s.meta and s.meta.get("by") == "seat"]
    assert len(played) == calls - 1  # the last call was the second game's first command
    assert {meta["seat"] for meta in played} == {0, 1}
    final = games.load(first)
    assert final.table is not None and final.table.status == "over"
    assert games.load(driver.game_id).version == driver.version


@pytest.mark.slow
def test_bench_api_drives_the_real_app_by_default(
    redis_env: str, capsys: pytest.CaptureFixture[str]
) -> None:
    parser = argparse.ArgumentParser()
    bench_api.register_bench(parser.add_subparsers())
    args = parser.parse_args(
        ["api", "--games", "2", "--seconds", "1", "--warmup", "0.5", "--rounds", "1",
         "--workers", "1", "--threads", "4", "--json"]
    )  # fmt: skip
    assert args.func(args) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["commands"]["app"] == "service.wsgi:app"
    assert result["commands"]["driver"] == "bench.games:make_game_driver"
    assert result["commands"]["requests"] > 5 and result["commands"]["errors"] == 0
