"""`loveletter bench mygames`: a page loads only its own games whatever the player's count of
games, the old full load loads them all; prints one JSON object and leaves nothing behind."""

from __future__ import annotations

import argparse
import json

import pytest

from bench import mygames as bench_mygames
from events.connection import RedisClient

pytestmark = pytest.mark.redis


def test_bench_mygames_pages_load_their_games_alone(
    redis_url: str,
    single_client: RedisClient,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("REDIS_URL", redis_url)
    parser = argparse.ArgumentParser()
    bench_mygames.register_bench(parser.add_subparsers())
    args = parser.parse_args(
        ["mygames", "--few", "5", "--many", "120", "--limit", "4", "--pages", "3", "--json"]
    )
    assert args.func(args) == 0
    result = json.loads(capsys.readouterr().out)
    few, many = result["cases"]["5"], result["cases"]["120"]
    assert [few[case]["loaded"] for case in few] == [4, 3, 4, 5]
    assert [many[case]["loaded"] for case in many] == [4, 4, 4, 120]
    assert all(figures["p95_ms"] >= figures["p50_ms"] > 0 for figures in many.values())
    assert not list(single_client.scan_iter(match="bench-mygames-*"))  # its keys are gone
    assert "old full load" in bench_mygames.table(result)
