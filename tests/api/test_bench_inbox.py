"""`loveletter bench inbox`: a few players' inboxes open beside the command load, bots on RQ
workers; every entry arrives once and the run leaves nothing behind."""

from __future__ import annotations

import argparse
import json

import pytest

from bench import inbox as bench_inbox
from events.connection import RedisClient


@pytest.mark.slow
def test_bench_inbox_delivers_the_players_entries(
    redis_url: str,
    redis_client: RedisClient,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("REDIS_URL", redis_url)
    parser = argparse.ArgumentParser()
    bench_inbox.register_bench(parser.add_subparsers())
    args = parser.parse_args(
        ["inbox", "--players", "12", "--games", "2", "--hold", "8", "--seconds", "2",
         "--moves", "10", "--warmup", "0.5", "--workers", "1", "--rq-workers", "1", "--json"]
    )  # fmt: skip
    assert args.func(args) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["crowd"]["opened"] == 12 and result["crowd"]["errors"] == 0
    assert result["crowd"]["dropped"] == 0
    assert result["delivery"]["count"] > 0 and result["delivery"]["repeated"] == 0
    assert "your_turn" in result["delivery"]["by_type"]
    assert result["players_moves"]["moves"] > 0 and result["players_moves"]["errors"] == 0
    assert result["with_inboxes"]["requests"] > 0 and result["without_inboxes"]["requests"] > 0
    assert result["redis_memory"]["per_player_own_keys_bytes"] > 0
    assert not list(redis_client.scan_iter(match="bench-inbox-*"))  # its keys are gone
    assert "targets" in bench_inbox.table(result)
