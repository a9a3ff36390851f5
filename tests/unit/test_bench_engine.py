"""`loveletter bench engine` plays real games and prints its figures, or one JSON object."""

from __future__ import annotations

import json

import pytest

from service.cli import main


def test_bench_engine_prints_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    """One line per edition and size asked for, with positive rates."""
    assert (
        main(
            ["bench", "engine", "--edition", "2019", "--players", "3", "--seconds", "0.3", "--json"]
        )
        == 0
    )
    printed = json.loads(capsys.readouterr().out)
    (row,) = printed["results"]
    assert (row["edition"], row["players"]) == ("2019", 3)
    assert (
        row["games"] >= 3
        and row["games_per_second"] > 0
        and row["decisions_per_second"] > row["games_per_second"]
    )


def test_bench_engine_table_covers_every_size(capsys: pytest.CaptureFixture[str]) -> None:
    """Without filters: every edition with every player count it allows."""
    assert main(["bench", "engine", "--seconds", "0.05"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 + 3 + 5 + 3 + 4
