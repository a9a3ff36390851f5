"""The `loveletter tournament` command: fair seating, Wilson intervals, figures as JSON."""

from __future__ import annotations

import argparse
import json
from collections import Counter

import pytest

from game.bots import Options
from service.cli import tournament
from service.cli.tournament import (
    GameSpec,
    chance_share,
    percentile,
    play_one,
    seat_entries,
    wilson,
)


def test_seats_rotate_so_each_bot_plays_each_seat_equally() -> None:
    """Over `players` games every entry sits in every seat as often as the lineup allows."""
    for entries, players in ((2, 2), (2, 4), (3, 3), (2, 5)):
        seen: Counter[tuple[int, int]] = Counter()
        for number in range(players):
            for seat, entry in enumerate(seat_entries(entries, players, number)):
                seen[(entry, seat)] += 1
        share = Counter(k % entries for k in range(players))
        for (entry, _seat), times in seen.items():
            assert times == share[entry]
        assert {entry for entry, _ in seen} == set(range(entries))


def test_wilson_interval() -> None:
    """Known values of the 95% Wilson score interval."""
    low, high = wilson(80, 100)
    assert low == pytest.approx(0.7111, abs=1e-4)
    assert high == pytest.approx(0.8666, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == pytest.approx(1.0)
    assert percentile([5, 1, 3, 2, 4], 95) == 5
    assert percentile([], 95) == 0.0


def test_chance_share_counts_the_seats_an_entry_holds() -> None:
    """One search among three heuristics wins a quarter by chance; a bot listed once of two at
    a table of four holds two seats, so half."""
    assert [chance_share(4, 4, entry) for entry in range(4)] == [0.25] * 4
    assert chance_share(2, 4, 0) == chance_share(2, 4, 1) == 0.5
    assert chance_share(2, 5, 0) == 0.6 and chance_share(2, 5, 1) == 0.4
    assert chance_share(2, 2, 0) == 0.5


def test_one_game_counts_winning_entries_and_times() -> None:
    """A game reports the winning bot entries and every seat's decision times."""
    spec = GameSpec(0, "2019", "t:0", (0, 1, 0), ("heuristic", "random"), Options())
    result = play_one(spec)
    assert result.winners and set(result.winners) <= {0, 1}
    assert set(result.times) == set(result.cpu) == {0, 1}
    assert all(t >= 0 for times in result.times.values() for t in times)
    assert all(len(result.cpu[entry]) == len(result.times[entry]) for entry in (0, 1))


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Run the sub-command alone (the rest of the CLI is not needed)."""
    parser = argparse.ArgumentParser()
    tournament.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["tournament", *argv])
    status = args.func(args)
    return status, capsys.readouterr().out


def test_json_figures_are_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    """--json prints one object; the same --seed gives the same wins."""
    argv = [
        "--bots",
        "heuristic,random,heuristic",
        "--players",
        "3",
        "--games",
        "6",
        "--workers",
        "2",
        "--seed",
        "s",
        "--json",
    ]
    status, out = run_cli(argv, capsys)
    assert status == 0
    figures = json.loads(out)
    assert [row["bot"] for row in figures["bots"]] == ["heuristic#1", "random", "heuristic#2"]
    for row in figures["bots"]:
        assert row["games"] == 6 and 0 <= row["wins"] <= 6
        assert row["ci95"][0] <= row["win_rate"] <= row["ci95"][1]
        assert row["decisions"] > 0 and row["ms_max"] >= row["ms_p95"] >= 0
        assert row["cpu_ms_p95"] >= 0 and row["cpu_ms_mean"] >= 0
    assert [row["chance"] for row in figures["bots"]] == [0.3333] * 3
    again = json.loads(run_cli(argv, capsys)[1])
    assert [r["wins"] for r in again["bots"]] == [r["wins"] for r in figures["bots"]]


def test_table_and_bad_bot(capsys: pytest.CaptureFixture[str]) -> None:
    """The table names each bot and says how shared wins count; unknown bots are refused."""
    status, out = run_cli(
        ["--bots", "search,random", "--games", "2", "--workers", "1", "--iterations", "1"], capsys
    )
    assert status == 0
    assert "search" in out and "random" in out and "shared win" in out
    assert run_cli(["--bots", "nobody,random", "--games", "2"], capsys)[0] == 2
    assert run_cli(["--games", "0"], capsys)[0] == 2
    assert run_cli(["--edition", "premium", "--players", "2"], capsys)[0] == 2
