"""`loveletter tournament`: bots play many games in parallel processes; win rates with 95% CIs,
the share each would win by chance, and time per decision (wall clock, and CPU)."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from game.bots import POLICIES, Options, make_policy
from game.clues import Clue
from game.commands import Command
from game.editions import EDITIONS
from game.selfplay import play_clued
from game.state import GameState
from game.views import view
from service.cli.help import add_command
from service.cli.progress import progress

Z95 = 1.959963984540054


@dataclass(frozen=True)
class GameSpec:
    """One game to play: which bot entry sits in each seat, and the seeds."""

    number: int
    edition: str
    seed: str
    seats: tuple[int, ...]  # seat -> bot entry (an index into the --bots list)
    bots: tuple[str, ...]
    options: Options


@dataclass
class GameResult:
    """The entries that won one game, and each entry's decision times in milliseconds: wall
    clock, and the CPU time of the process (what a decision costs, whatever the machine's load)."""

    winners: tuple[int, ...]
    times: dict[int, list[float]] = field(default_factory=dict)
    cpu: dict[int, list[float]] = field(default_factory=dict)


def seat_entries(entries: int, players: int, number: int) -> tuple[int, ...]:
    """Seats for game `number`: the bot list cycled to fill the table, rotated one seat a game."""
    lineup = [k % entries for k in range(players)]
    return tuple(lineup[(seat + number) % players] for seat in range(players))


def chance_share(entries: int, players: int, entry: int) -> float:
    """The share of games an entry would win if every seat were equally strong: the seats it
    holds at each table over the players."""
    return sum(seat % entries == entry for seat in range(players)) / players


def play_one(spec: GameSpec) -> GameResult:
    """Play one game; each seat's policy sees only its own view."""
    policies = [
        make_policy(spec.bots[entry], f"{spec.seed}:seat{seat}", spec.options)
        for seat, entry in enumerate(spec.seats)
    ]
    result = GameResult(())

    def choose(state: GameState, legal: list[Command], clues: tuple[Clue, ...]) -> Command:
        seat = state.current
        assert seat is not None
        seen = view(state, seat, clues=clues)
        start, cpu = time.perf_counter(), time.process_time()
        command = policies[seat].choose(seen, legal)
        elapsed = (time.perf_counter() - start) * 1000.0
        result.times.setdefault(spec.seats[seat], []).append(elapsed)
        result.cpu.setdefault(spec.seats[seat], []).append((time.process_time() - cpu) * 1000.0)
        return command

    played = play_clued(spec.edition, len(spec.seats), spec.seed, choose)
    result.winners = tuple(sorted({spec.seats[seat] for seat in played.state.game_winners}))
    return result


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (nearest rank) of some values; 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    index = max(0, math.ceil(q / 100 * len(ordered)) - 1)
    return ordered[index]


def labels(bots: Sequence[str]) -> list[str]:
    """A name per entry; a bot listed twice gets #1, #2."""
    return [
        f"{bot}#{bots[: i + 1].count(bot)}" if bots.count(bot) > 1 else bot
        for i, bot in enumerate(bots)
    ]


def summarise(
    args: argparse.Namespace, bots: list[str], results: list[GameResult], seconds: float
) -> dict[str, Any]:
    """The figures of a finished tournament, as plain data."""
    games = len(results)
    rows = []
    for entry, name in enumerate(labels(bots)):
        wins = sum(entry in result.winners for result in results)
        times = [t for result in results for t in result.times.get(entry, [])]
        cpu = [t for result in results for t in result.cpu.get(entry, [])]
        low, high = wilson(wins, games)
        rows.append(
            {
                "bot": name,
                "games": games,
                "wins": wins,
                "win_rate": round(wins / games, 4) if games else 0.0,
                "ci95": [round(low, 4), round(high, 4)],
                "chance": round(chance_share(len(bots), args.players, entry), 4),
                "decisions": len(times),
                "ms_mean": round(sum(times) / len(times), 3) if times else 0.0,
                "ms_p95": round(percentile(times, 95), 3),
                "ms_max": round(max(times), 3) if times else 0.0,
                "cpu_ms_mean": round(sum(cpu) / len(cpu), 3) if cpu else 0.0,
                "cpu_ms_p95": round(percentile(cpu, 95), 3),
            }
        )
    shared = sum(len(result.winners) > 1 for result in results)
    return {
        "edition": args.edition,
        "players": args.players,
        "games": games,
        "seed": args.seed,
        "workers": args.workers,
        "budget_ms": args.budget_ms,
        "iterations": args.iterations,
        "shared_wins": shared,
        "seconds": round(seconds, 1),
        "bots": rows,
    }


def print_table(summary: dict[str, Any]) -> None:
    """The win-rate table, for people."""
    from rich.console import Console
    from rich.table import Table

    table = Table(
        title=(
            f"{summary['games']} games, {summary['edition']}, {summary['players']} players "
            f"({summary['seconds']} s)"
        )
    )
    for heading in (
        "bot",
        "wins",
        "win rate",
        "95% CI",
        "by chance",
        "decisions",
        "ms mean",
        "ms p95",
        "ms max",
        "cpu ms mean",
        "cpu ms p95",
    ):
        table.add_column(heading, justify="left" if heading == "bot" else "right")
    for row in summary["bots"]:
        low, high = row["ci95"]
        table.add_row(
            row["bot"],
            str(row["wins"]),
            f"{row['win_rate']:.1%}",
            f"{low:.1%} to {high:.1%}",
            f"{row['chance']:.1%}",
            str(row["decisions"]),
            f"{row['ms_mean']:.2f}",
            f"{row['ms_p95']:.2f}",
            f"{row['ms_max']:.2f}",
            f"{row['cpu_ms_mean']:.2f}",
            f"{row['cpu_ms_p95']:.2f}",
        )
    console = Console(width=max(Console().width, 110))
    console.print(table)
    shared = summary["shared_wins"]
    console.print(
        f"A shared win counts as a win for each winner ({shared} game{'' if shared == 1 else 's'}"
        f" {'was' if shared == 1 else 'were'} shared), so win rates may add up to more than 100%."
        " Seats rotate one place a game. By chance: the share an entry's seats would win"
        " if every seat were as strong; ms p95: 95% of its decisions took no longer (wall clock);"
        " cpu ms: the process's CPU time a decision, which the machine's load does not swell."
    )


def run(args: argparse.Namespace) -> int:
    """Play the tournament and print its figures."""
    bots = [name.strip() for name in args.bots.split(",") if name.strip()]
    unknown = [name for name in bots if name not in POLICIES]
    edition = EDITIONS[args.edition]
    if unknown or not bots:
        print(f"unknown bots: {', '.join(unknown)} (known: {', '.join(POLICIES)})", file=sys.stderr)
        return 2
    if not edition.min_players <= args.players <= edition.max_players:
        print(
            f"{edition.id} is played by {edition.min_players} to {edition.max_players} players",
            file=sys.stderr,
        )
        return 2
    if args.games < 1 or args.workers < 1:
        print("--games and --workers must be at least 1", file=sys.stderr)
        return 2
    options = Options(args.budget_ms, args.iterations)
    specs = [
        GameSpec(
            number,
            edition.id,
            f"{args.seed}:{number}",
            seat_entries(len(bots), args.players, number),
            tuple(bots),
            options,
        )
        for number in range(args.games)
    ]
    start = time.perf_counter()
    results: list[GameResult] = []
    with (
        progress("games", len(specs)) as advance,
        ProcessPoolExecutor(max_workers=args.workers) as pool,
    ):
        futures = [pool.submit(play_one, spec) for spec in specs]
        for future in as_completed(futures):
            results.append(future.result())
            advance()
    summary = summarise(args, bots, results, time.perf_counter() - start)
    if args.json:
        print(json.dumps(summary))
    else:
        print_table(summary)
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `tournament`."""
    parser = add_command(
        subparsers,
        "tournament",
        summary="bots play each other; win-rate table",
        description="Bots play many games of one edition in parallel processes, seats rotating"
        " one place a game; print each bot's win rate with its 95% Wilson interval, the share its"
        " seats would win by chance, and its time per decision (mean, p95, max; CPU mean and p95).",
        examples=("loveletter tournament --bots heuristic,random --edition 2019 --games 2000",),
    )
    parser.add_argument(
        "--bots",
        default="heuristic,random",
        help=f"comma-separated bots, a bot may repeat ({', '.join(POLICIES)})",
    )
    parser.add_argument("--edition", choices=sorted(EDITIONS), default="2019")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="parallel processes (the CPU count)",
    )
    parser.add_argument("--seed", default="tournament", help="every game's seeds derive from it")
    parser.add_argument(
        "--budget-ms",
        type=float,
        default=None,
        help="search: time per decision in ms (unset: 120)",
    )
    parser.add_argument(
        "--iterations",
        type=int,
        default=None,
        help="search: sampled worlds per decision (reproducible)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)
