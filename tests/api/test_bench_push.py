"""`loveletter bench push`: a few away players' turns pushed beside the command load; every
turn played arrives once at the push service, and the run leaves nothing behind."""

from __future__ import annotations

import argparse
import json

import pytest

from bench import push as bench_push
from events.connection import RedisClient


@pytest.mark.slow
def test_bench_push_times_every_turn_to_the_push_service(
    redis_url: str,
    redis_client: RedisClient,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("REDIS_URL", redis_url)
    parser = argparse.ArgumentParser()
    bench_push.register_bench(parser.add_subparsers())
    args = parser.parse_args(
        ["push", "--players", "12", "--seconds", "2", "--load-games", "2", "--workers", "1",
         "--rq-workers", "1", "--push-workers", "1", "--json"]
    )  # fmt: skip
    assert args.func(args) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["push"]["moves"] == 12 and result["push"]["count"] == 12
    assert result["push"]["received"] == 12 and result["push"]["missing"] == 0
    assert result["errors"] == 0, result["first_errors"]
    assert result["with_push"]["requests"] > 0 and result["without_push"]["requests"] > 0
    assert not list(redis_client.scan_iter(match="bench-push-*"))  # its keys are gone
    assert "targets" in bench_push.table(result)
