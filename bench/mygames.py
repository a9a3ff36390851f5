"""`loveletter bench mygames`: the time of one page of "my games" for a player with a few games
and for one with thousands, read from the player's index, beside the old full load.

Set-up (not timed): two guest players, one with FEW games and one with MANY, each game opened
through the command path with the player seated (the real append and relay, so the index is
what the service writes): half of them tables still open, half games against a bot waiting on
the player. Then, in this process, `--pages` pages of `--limit` games (the same for both
players, so the same work) are timed for each: the first page, the playing games alone, the
last page; and the old full load (the player's 500 latest games loaded and sorted on every call,
as "my games" did before the index).
"""

from __future__ import annotations

import argparse
import json
import time
import uuid
from collections.abc import Callable, Mapping
from typing import Any

from bench.api import percentile
from bench.store import delete_namespace
from events.connection import RedisClient, connect
from game.table import OpenTable, TakeSeat
from play.context import Context
from play.lobby import open_table
from play.players import MyGame, my_games, new_guest
from play.settings import Settings
from service.cli.help import add_command
from service.cli.progress import progress

OLD_LIMIT = 500  # the most recent games the old full load looked at


def register_bench(bench_subparsers: argparse._SubParsersAction) -> None:
    """Add `mygames` to the `bench` group."""
    parser = add_command(
        bench_subparsers,
        "mygames",
        summary="one page of my games with a few games and with thousands, and the old full load",
        description="Make a player with FEW games and one with MANY (through the command path:"
        " open tables and games waiting on the player), then time --pages pages of my games of"
        " each, LIMIT games a page: the first page, the playing games alone, the last page, and"
        " the old full load (the 500 latest games loaded and sorted); print p50 and p95 of each,"
        " and the games each call loaded. Uses REDIS_URL (or a Redis of its own); deletes what"
        " it wrote.",
        examples=("loveletter bench mygames", "loveletter bench mygames --many 1000 --json"),
    )
    parser.add_argument("--few", type=int, default=5, help="games of the first player")
    parser.add_argument("--many", type=int, default=5000, help="games of the second player")
    parser.add_argument("--limit", type=int, default=5,
                        help="games a page (the same for both players)")  # fmt: skip
    parser.add_argument("--pages", type=int, default=200, help="timed calls per case")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print its figures."""
    client = connect()
    try:
        result = run_mygames_bench(client, few=args.few, many=args.many, limit=args.limit,
                                   pages=args.pages)  # fmt: skip
    finally:
        client.close()
    print(json.dumps(result) if args.json else table(result))
    return 0


def run_mygames_bench(
    client: RedisClient, *, few: int = 5, many: int = 5000, limit: int = 5, pages: int = 200
) -> dict[str, Any]:
    """Set up both players in a namespace of its own, time every case, delete the namespace."""
    namespace = f"bench-mygames-{uuid.uuid4().hex[:8]}"
    ctx = Context.on(client, Settings(namespace=namespace, queue=namespace))
    try:
        cases: dict[str, Any] = {}
        for count in (few, many):
            timed = calls(ctx, seated_player(ctx, count), max(0, count - limit), limit)
            cases[str(count)] = {name: measure(call, pages) for name, call in timed.items()}
        return {"few": few, "many": many, "pages": pages, "page_size": limit, "cases": cases}
    finally:
        delete_namespace(client, namespace)


def calls(ctx: Context, player: str, last: int, limit: int) -> dict[str, Callable[[], int]]:
    """The timed cases of one player, each answering the games it loaded."""

    def first_page() -> int:
        return my_games(ctx, player, limit=limit).loaded

    def playing_only() -> int:
        return my_games(ctx, player, "playing", limit=limit).loaded

    def last_page() -> int:
        return my_games(ctx, player, offset=last, limit=limit).loaded

    def old() -> int:
        return len(old_full_load(ctx, player))

    return {"first page": first_page, "playing only": playing_only, "last page": last_page,
            "old full load": old}  # fmt: skip


def seated_player(ctx: Context, games: int) -> str:
    """A guest with `games` games: half open tables, half games waiting on it (against a bot)."""
    player, _ = new_guest(ctx, "ann")
    with progress(f"opening {games} games", games) as advance:
        for number in range(games):
            bots = (None, None) if number % 2 else (None, "heuristic")
            host = TakeSeat(None, "ann", "bench-hash", player.id)
            open_table(ctx, OpenTable("2019", bots, f"seed-{number}", first_player=0, host=host))
            advance()
    return player.id


def old_full_load(ctx: Context, player_id: str) -> list[MyGame]:
    """What "my games" did before the index: load the player's 500 latest games, then sort."""
    found = []
    for game_id in ctx.players.games(player_id, OLD_LIMIT):
        game = ctx.heads.load(game_id)
        if game.table is not None:
            seat = game.table.seat_of_player(player_id)
            found.append(MyGame(game_id, game, seat, False))
    found.sort(key=lambda mine: (not mine.my_turn, -(mine.game.at or 0)))
    return found


def measure(call: Callable[[], int], times: int) -> dict[str, Any]:
    """p50 and p95 of `times` calls (after one unmeasured), and the games the last one loaded."""
    loaded = call()
    seconds = []
    for _ in range(times):
        started = time.perf_counter()
        loaded = call()
        seconds.append(time.perf_counter() - started)
    seconds.sort()
    return {
        "p50_ms": round(percentile(seconds, 50) * 1000, 3),
        "p95_ms": round(percentile(seconds, 95) * 1000, 3),
        "loaded": loaded,
    }


def table(result: Mapping[str, Any]) -> str:
    """The figures as a short readable table."""
    lines = [
        f"my games: pages of {result['page_size']}, {result['pages']} timed calls per case",
        f"  {'games':>6}  {'case':<14} {'p50 ms':>9} {'p95 ms':>9} {'loaded':>7}",
    ]
    for count, cases in result["cases"].items():
        for name, figures in cases.items():
            lines.append(f"  {count:>6}  {name:<14} {figures['p50_ms']:>9} {figures['p95_ms']:>9}"
                         f" {figures['loaded']:>7}")  # fmt: skip
    return "\n".join(lines)
