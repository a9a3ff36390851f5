"""`loveletter bench engine`: random legal games per second for every edition and player count."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from game.editions import EDITIONS
from game.selfplay import play_game, random_chooser
from service.cli.help import add_command
from service.cli.progress import progress

REPEATS = 3  # the figures are the best of this many runs (as timeit does: noise only slows)


def register(group: argparse._SubParsersAction) -> None:
    """Add `bench engine`."""
    parser = add_command(
        group,
        "engine",
        summary="random legal games per second (one process)",
        description="Play random legal games of every edition and table size in this process"
        f" for --seconds each (best of {REPEATS} runs): games, decisions and events per second.",
        examples=(
            "loveletter bench engine --seconds 3",
            "loveletter bench engine --edition classic --players 4",
        ),
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="time per edition and size")
    parser.add_argument("--edition", choices=sorted(EDITIONS), help="only this edition")
    parser.add_argument("--players", type=int, help="only this many players")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def measure(edition: str, players: int, seconds: float) -> dict[str, Any]:
    """Play random games for about `seconds` (in REPEATS runs); the best run's rates."""
    runs = [
        _run(edition, players, seconds / REPEATS, first_seed=i * 100_000) for i in range(REPEATS)
    ]
    best = max(runs, key=lambda run: run["games"] / run["cpu_seconds"])
    return {
        "edition": edition,
        "players": players,
        "games": sum(run["games"] for run in runs),
        "games_per_second": round(best["games"] / best["wall_seconds"], 1),
        "games_per_cpu_second": round(best["games"] / best["cpu_seconds"], 1),
        "decisions_per_second": round(best["decisions"] / best["wall_seconds"], 1),
        "events_per_second": round(best["events"] / best["wall_seconds"], 1),
    }


def _run(edition: str, players: int, seconds: float, first_seed: int) -> dict[str, Any]:
    """Games, decisions and events played in about `seconds`, with wall and CPU time."""
    games = decisions = events = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds or games == 0:
        seed = first_seed + games
        played = play_game(edition, players, f"bench-{seed}", random_chooser(seed))
        games += 1
        decisions += len(played.commands)
        events += len(played.events)
    return {
        "games": games,
        "decisions": decisions,
        "events": events,
        "wall_seconds": time.perf_counter() - wall,
        "cpu_seconds": time.process_time() - cpu,
    }


def run(args: argparse.Namespace) -> int:
    """Measure every edition and player count asked for and print the figures."""
    sizes = [
        (edition.id, players)
        for edition in EDITIONS.values()
        if args.edition in (None, edition.id)
        for players in range(edition.min_players, edition.max_players + 1)
        if args.players in (None, players)
    ]
    rows = []
    with progress("editions and table sizes", len(sizes)) as advance:
        for edition_id, players in sizes:
            rows.append(measure(edition_id, players, args.seconds))
            advance()
    if args.json:
        print(json.dumps({"benchmark": "engine", "repeats": REPEATS, "results": rows}))
        return 0
    print(f"random legal games, one process, best of {REPEATS} runs per line")
    header = ("edition", "players", "games/s", "games/cpu-s", "decisions/s", "events/s")
    print(
        f"{header[0]:<13}{header[1]:>8}{header[2]:>10}{header[3]:>13}{header[4]:>13}{header[5]:>11}"
    )
    for row in rows:
        print(
            f"{row['edition']:<13}{row['players']:>8}{row['games_per_second']:>10}"
            f"{row['games_per_cpu_second']:>13}{row['decisions_per_second']:>13}"
            f"{row['events_per_second']:>11}"
        )
    return 0
