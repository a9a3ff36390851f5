"""`loveletter bench engine`: random legal games per second for every edition and player count."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from game.editions import EDITIONS
from game.selfplay import play_game, random_chooser


def register(group: argparse._SubParsersAction) -> None:
    """Add `bench engine`."""
    parser = group.add_parser("engine", help="random legal games per second (one process)")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per edition and size")
    parser.add_argument("--edition", choices=sorted(EDITIONS), help="only this edition")
    parser.add_argument("--players", type=int, help="only this many players")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def measure(edition: str, players: int, seconds: float) -> dict[str, Any]:
    """Play random games for about `seconds`; count games, decisions and events."""
    games = decisions = events = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds or games == 0:
        played = play_game(edition, players, f"bench-{games}", random_chooser(games))
        games += 1
        decisions += len(played.commands)
        events += len(played.events)
        elapsed = time.perf_counter() - start
    return {
        "edition": edition,
        "players": players,
        "games": games,
        "seconds": round(elapsed, 3),
        "games_per_second": round(games / elapsed, 1),
        "decisions_per_second": round(decisions / elapsed, 1),
        "events_per_second": round(events / elapsed, 1),
    }


def run(args: argparse.Namespace) -> int:
    """Measure every edition and player count asked for and print the figures."""
    rows = [
        measure(edition.id, players, args.seconds)
        for edition in EDITIONS.values()
        if args.edition in (None, edition.id)
        for players in range(edition.min_players, edition.max_players + 1)
        if args.players in (None, players)
    ]
    if args.json:
        print(json.dumps({"benchmark": "engine", "results": rows}))
        return 0
    print(f"{'edition':<13}{'players':>8}{'games/s':>10}{'decisions/s':>13}{'events/s':>11}")
    for row in rows:
        print(
            f"{row['edition']:<13}{row['players']:>8}{row['games_per_second']:>10}"
            f"{row['decisions_per_second']:>13}{row['events_per_second']:>11}"
        )
    return 0
