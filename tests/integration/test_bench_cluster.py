"""`loveletter bench cluster` and `loveletter bench storage`, small: real Redis servers, real
gunicorn and RQ workers, two real failovers; everything they start is gone afterwards."""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

import pytest

from bench import cluster as bench_cluster
from bench import storage as bench_storage
from bench.faults import Faults
from tests.e2e.conftest import descendants


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_bench_cluster_plays_through_two_failovers_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    before = set(descendants(os.getpid()))
    # Eight games a mode for 20 s: with four, a slow machine once acknowledged no command of
    # one mode (its few calls all came during a failover and were answered 503).
    result = bench_cluster.run_cluster_bench(
        games=16, seconds=20, think=1, apis=1, workers=1, threads=4
    )
    assert set(descendants(os.getpid())) <= before  # no server, API or worker left running
    assert list(tmp_path.iterdir()) == []  # nor their folders
    assert [item["kind"] for item in result["failovers"]] == ["CLUSTER FAILOVER", "SIGKILL"]
    assert not any("error" in item for item in result["failovers"])
    killed = result["failovers"][1]
    assert 0 < killed["promoted_after_s"] < killed["replica_back_after_s"]
    assert result["appends"]["wait"]["appends"] == result["appends"]["no-wait"]["appends"] > 0
    wait, loose = result["modes"]["wait"], result["modes"]["no-wait"]
    assert wait["append_replicas"] == 1 and loose["append_replicas"] == 0
    for mode in (wait, loose):
        assert mode["commands_acknowledged"] > 0 and mode["command_ms"]["p99"] > 0
        assert mode["games_stuck"] == 0 and mode["verify_failures"] == 0
        assert len(mode["during_failovers"]) == 2
    assert wait["acknowledged_lost"] == 0  # the promise
    assert result["bots"]["moves"] > 0 and result["redis"]["store_operations_per_move"] > 0
    assert "SIGKILL" in bench_cluster.table(result)


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_bench_cluster_counts_each_fault_it_is_given_exactly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The negative controls, in the group whose appends wait for a replica: a game held on
    lost jobs is stuck, a lost acknowledged command is lost, an altered deal fails
    verification, an erased game lost its creation and every command acknowledged in it; the
    group without the promise, through the same failovers, shows no stuck game and no failed
    verification."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    faults = Faults(lose=1, stuck=1, tamper=1, erase=1)
    result = bench_cluster.run_cluster_bench(
        games=16, seconds=12, think=1, apis=1, workers=1, threads=4, faults=faults
    )
    injected = result["faults_injected"]
    assert [len(injected[name]) for name in ("held", "lost", "tampered", "erased")] == [1] * 4
    erased_commands = sum(injected["erased"].values())
    wait, loose = result["modes"]["wait"], result["modes"]["no-wait"]
    counted = (
        wait["games_stuck"],
        wait["acknowledged_lost"],
        wait["verify_failures"],
        wait["acknowledged_creations_lost"],
    )
    assert counted == (1, 1 + erased_commands, 1, 1)
    assert (loose["games_stuck"], loose["verify_failures"]) == (0, 0)


def test_bench_storage_measures_live_finished_and_archived_games(
    capsys: pytest.CaptureFixture[str],
) -> None:
    parser = argparse.ArgumentParser()
    bench_storage.register_bench(parser.add_subparsers())
    args = parser.parse_args(["storage", "--games", "2", "--json"])
    assert args.func(args) == 0
    result = json.loads(capsys.readouterr().out)
    assert [(row["edition"], row["players"]) for row in result["configs"]] == [
        ("2019", 2),
        ("classic", 4),
    ]
    for row in result["configs"]:
        live, finished = row["live_game_bytes"], row["finished_game_bytes"]
        assert 0 < live["stream"] < finished["stream"]
        assert finished["total"] > finished["stream"] + finished["idempotency"]
        assert finished["idempotency_keys"] == row["commands_per_game"]
        assert 100 < row["stream_bytes_per_event"] < 400
        assert 0 < row["archive_file_bytes_per_game"] < finished["stream"]
        assert row["redis_bytes_left_after_archiving"] == 0
        assert row["redis_operations_per_command"] > 1
