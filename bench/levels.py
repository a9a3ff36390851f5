"""easy < medium < hard at every edition and table size, as one Markdown table (docs/bots.md).

    python -m bench.levels --games 100 --seed levels            # every table
    python -m bench.levels --games 100 --seed levels --players 2 # two-player tables only

At two players `easy,medium` and `medium,hard` each play `--games` games (seats rotating). At
three or more, one tournament of `easy,medium,hard`, the list cycled to fill the table, so an
entry may hold more than one seat: each win rate is read against its share by chance.
Each tournament is `loveletter tournament ... --json`, run as its own process.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from typing import Any

from game.editions import EDITIONS

LEVELS = ("easy", "medium", "hard")


def tournament(bots: str, edition: str, players: int, games: int, seed: str) -> dict[str, Any]:
    """One `loveletter tournament` run's figures."""
    command = [
        sys.executable, "-c", "from service.cli import main; main()", "tournament",
        "--bots", bots, "--edition", edition, "--players", str(players),
        "--games", str(games), "--workers", "1", "--seed", seed, "--json",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def rate(row: dict[str, Any]) -> str:
    """A win rate with its 95% interval."""
    low, high = row["ci95"]
    return f"{row['win_rate']:.1%} ({low:.1%}–{high:.1%})"  # noqa: RUF001 (as the docs write it)


def two_players(edition: str, games: int, seed: str) -> str:
    """A row from `easy,medium` and `medium,hard`: each level against its neighbour."""
    low = {row["bot"]: row for row in tournament("easy,medium", edition, 2, games, seed)["bots"]}
    high = {row["bot"]: row for row in tournament("medium,hard", edition, 2, games, seed)["bots"]}
    ordered = low["medium"]["win_rate"] > 0.5 and high["hard"]["win_rate"] > 0.5
    return (
        f"| {edition} | 2 | {games} + {games} | {rate(low['easy'])} against medium | "
        f"{rate(low['medium'])} against easy; {rate(high['medium'])} against hard | "
        f"{rate(high['hard'])} against medium | 50% | {'yes' if ordered else 'no'} |"
    )


def crowded(edition: str, players: int, games: int, seed: str) -> str:
    """A row from one `easy,medium,hard` tournament: each win rate over its share by chance."""
    rows = {
        row["bot"]: row
        for row in tournament(",".join(LEVELS), edition, players, games, seed)["bots"]
    }
    times = [rows[level]["win_rate"] / rows[level]["chance"] for level in LEVELS]
    chances = " / ".join(f"{rows[level]['chance']:.0%}" for level in LEVELS)
    ordered = times[0] < times[1] < times[2]
    shares = " < ".join(f"x{value:.2f}" for value in times)
    return (
        f"| {edition} | {players} | {games} | "
        + " | ".join(rate(rows[level]) for level in LEVELS)
        + f" | {chances} | {'yes' if ordered else 'no'} ({shares}) |"
    )


def main() -> None:
    """Print the table, a row as each table is played."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", default="levels")
    parser.add_argument("--players", type=int, action="append", help="only these table sizes")
    args = parser.parse_args()
    print("| edition | players | games | easy | medium | hard | by chance (easy / medium / hard)"
          " | easy < medium < hard |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|")
    for edition in EDITIONS.values():
        for players in range(edition.min_players, edition.max_players + 1):
            if args.players and players not in args.players:
                continue
            if players == 2:
                line = two_players(edition.id, args.games, args.seed)
            else:
                line = crowded(edition.id, players, args.games, args.seed)
            print(line, flush=True)


if __name__ == "__main__":
    main()
