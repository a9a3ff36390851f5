"""`loveletter bench queue`: a small crowd entering quick play across two API processes; no
player matched twice, no entry lost, every game played to its end (won, nobody leaving), every
rated game rated once, a rebuild agreeing, and nothing left behind."""

from __future__ import annotations

import argparse
import json

import pytest

from bench import queue as bench_queue
from events.connection import RedisClient


@pytest.mark.slow
def test_bench_queue_matches_a_crowd_once_each(
    redis_url: str,
    redis_client: RedisClient,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("REDIS_URL", redis_url)
    parser = argparse.ArgumentParser()
    bench_queue.register_bench(parser.add_subparsers())
    args = parser.parse_args(
        ["queue", "--players", "40", "--seconds", "3", "--drain", "25", "--apis", "2",
         "--rq-workers", "1", "--threads", "8", "--json"]
    )  # fmt: skip
    assert args.func(args) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["entries"] == 40 and result["client_failures"] == {}
    assert result["matched_twice"] == 0 and result["entries_lost"] == 0
    assert result["cancelled_then_matched"] == 0
    assert result["final_states"]["matched"] >= 30 and result["games"] >= 8
    assert result["time_to_match_ms"]["count"] == result["final_states"]["matched"]
    ratings = result["ratings"]
    assert ratings["games_played_out"] == result["games"]
    assert ratings["endings"] == {"won": result["games"]} and ratings["move_failures"] == 0
    assert ratings["rated_games"] == ratings["ranked_games_ended"] > 0
    assert ratings["rebuild_games"] == result["games"] and ratings["rebuild_agrees"]
    assert ratings["updates_twice"] == ratings["updates_missed"] == 0
    assert result["meets_targets"]
    assert not list(redis_client.scan_iter(match="bench-queue-*"))  # its keys are gone
    assert "targets" in bench_queue.table(result)
