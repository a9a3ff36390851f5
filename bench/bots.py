"""`loveletter bench bots`: how soon a bot answers a human, beside an empty RQ job's round trip.

N real `rq worker` processes (our worker class) serve a fresh namespace and queue on the
configured Redis. Human-vs-bot games are created and their human seats driven by threads through
the command path itself (`play.send_command`, as the API does, without HTTP). A reply's latency
runs from the `at` of the human's append (its stream meta) to the `at` of the bot's append
(`observed`: to the moment a follower saw it). Empty jobs (`bench.noop.noop`) are timed from
enqueue to their result, once on idle workers and once alongside the games. Keys, queue and
workers are gone afterwards.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import threading
import time
import uuid
from collections.abc import Mapping
from typing import Any

from rq import Queue

from bench.processes import worker_processes
from events.connection import RedisClient, connect, redis_url
from events.games import LoadedGame
from events.store import Idempotency
from game.bots import POLICIES
from game.editions import EDITIONS
from game.legal import legal_commands
from game.table import OpenTable, TakeSeat
from play.context import Context
from play.send_command import send_command
from play.settings import Settings
from service.cli.help import add_command
from service.cli.progress import Advance, no_progress, progress

HUMAN, BOT = 0, 1
WAIT_SECONDS = 60.0  # a bot that has not answered by then counts as an error
NOOP = "bench.noop.noop"


def register_bench(bench_subparsers: argparse._SubParsersAction) -> None:
    """Add `bots` to the `bench` group: `loveletter bench bots [--games N] [--json] ...`."""
    parser = add_command(
        bench_subparsers,
        "bots",
        summary="bot reply latency vs an empty RQ job",
        description="Start real RQ workers and play concurrent human-vs-bot games: the time from"
        " a human's command to the bot's reply, beside the time of an empty job on idle and on"
        " busy workers.",
        examples=("loveletter bench bots --games 100 --workers 2",),
    )
    parser.add_argument("--games", type=int, default=100, help="concurrent human-vs-bot games")
    parser.add_argument("--moves", type=int, default=20, help="bot replies timed per game")
    parser.add_argument("--workers", type=int, default=2, help="rq worker processes")
    parser.add_argument("--bot", default="heuristic", choices=sorted(POLICIES), help="bot policy")
    two_player = sorted(name for name, edition in EDITIONS.items() if edition.min_players <= 2)
    parser.add_argument("--edition", default="2019", choices=two_player, help="of the games")
    parser.add_argument("--jobs", type=int, default=200, help="empty jobs timed on idle workers")
    parser.add_argument("--bot-budget-ms", type=float, help="the search bot's time per decision")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print its figures; 1 when a game failed."""
    with progress("bot replies", args.games * args.moves) as advance:
        result = run_bots_bench(
            games=args.games,
            moves=args.moves,
            workers=args.workers,
            bot=args.bot,
            edition=args.edition,
            jobs=args.jobs,
            bot_budget_ms=args.bot_budget_ms,
            advance=advance,
        )
    print(json.dumps(result) if args.json else table(result))
    return 1 if result["errors"] else 0


def run_bots_bench(
    *,
    games: int = 100,
    moves: int = 20,
    workers: int = 2,
    bot: str = "heuristic",
    edition: str = "2019",
    jobs: int = 200,
    bot_budget_ms: float | None = None,
    advance: Advance = no_progress,
) -> dict[str, Any]:
    """Start the workers, time empty jobs, play the games; the figures as one dict.
    `advance(n)` as the bots' replies come (games times moves of them)."""
    if games < 1 or moves < 1 or workers < 1 or jobs < 1 or bot not in POLICIES:
        raise ValueError("games, moves, workers and jobs must be >= 1, and bot a known policy")
    url = redis_url()
    namespace = f"bench-bots-{uuid.uuid4().hex[:10]}"
    client = connect(url)
    pool = getattr(client, "connection_pool", None)
    if pool is not None:  # each player blocks on a connection of its own while it follows
        pool.max_connections = max(pool.max_connections, games + 32)
    ctx = Context.on(client, Settings(namespace=namespace, queue=namespace))
    env = {"REDIS_URL": url, "LOVELETTER_NAMESPACE": namespace, "LOVELETTER_QUEUE": namespace}
    if bot_budget_ms is not None:
        env["LOVELETTER_BOT_BUDGET_MS"] = str(bot_budget_ms)
    try:
        with worker_processes(url, ctx.queue, workers, env):
            idle = time_noops(ctx.queue, jobs)
            players = [Player(ctx, f"g{n}", edition, bot, moves, seed=n) for n in range(games)]
            loaded, errors = _play(ctx.queue, players, advance)
    finally:
        _clean(client, ctx.queue, namespace)
        client.close()
    replies = [latency for player in players for latency in player.replies]
    observed = [latency for player in players for latency in player.observed]
    return {
        "benchmark": "bots",
        "games": games,
        "moves": moves,
        "workers": workers,
        "worker_class": "workers.worker.Worker",
        "bot": bot,
        "edition": edition,
        "namespace": namespace,
        "games_started": sum(player.games_started for player in players),
        "errors": errors,
        "reply": figures(replies),
        "reply_observed": figures(observed),
        "noop_idle": figures(idle),
        "noop_loaded": figures(loaded),
    }


class Player:
    """The human seat of one game at a time: plays a random legal command when it must act."""

    def __init__(
        self, ctx: Context, name: str, edition: str, bot: str, moves: int, seed: int
    ) -> None:
        self.ctx, self.name, self.edition, self.bot, self.moves = ctx, name, edition, bot, moves
        self.rng = random.Random(seed)
        self.replies: list[float] = []  # seconds, human append `at` to bot append `at`
        self.observed: list[float] = []  # seconds, human append `at` to the reply being seen
        self.games_started = 0
        self.game_id = ""
        self.game = self._new_game()

    def play(self) -> None:
        """Play until `moves` bot replies were timed (starting new games as they end)."""
        while len(self.replies) < self.moves:
            table = self.game.table
            assert table is not None and table.game is not None
            if table.status == "over":
                self.game = self._new_game()
            elif table.game.current == HUMAN:
                self._move()
            else:
                self._wait_for_human(None)

    def _move(self) -> None:
        """One human command; when the bot must answer it, time the answer."""
        assert self.game.table is not None
        command = self.rng.choice(legal_commands(self.game.table.game))
        outcome = send_command(
            self.ctx,
            self.game_id,
            command,
            game=self.game,
            expected_version=self.game.version,
            idempotency=Idempotency(f"seat{HUMAN}", f"human-{self.game.version}"),
            meta={"by": "seat", "seat": HUMAN},
        )
        if outcome.repeated:
            raise RuntimeError(f"{self.game_id}: the human's command was a repeat")
        self.game = outcome.game
        table = self.game.table
        assert table is not None and table.game is not None and outcome.events[0].meta
        if table.status == "playing" and table.game.current == BOT:
            self._wait_for_human(float(outcome.events[0].meta["at"]))

    def _wait_for_human(self, human_at: float | None) -> None:
        """Follow the stream until the human must act or the game is over; time the first reply."""
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            table = self.game.table
            assert table is not None and table.game is not None
            if table.status == "over" or table.game.current == HUMAN:
                return
            left = deadline - time.monotonic()
            stored = self.ctx.games.store.follow(self.game_id, self.game.version, max(left, 0.001))
            seen = time.time()
            if not stored:
                raise RuntimeError(f"{self.game_id}: no bot move in {WAIT_SECONDS} s")
            meta = stored[0].meta or {}
            if human_at is not None:
                if meta.get("by") != "bot":
                    raise RuntimeError(f"{self.game_id}: expected a bot's reply, got {meta}")
                self.replies.append(float(meta["at"]) - human_at)
                self.observed.append(seen - human_at)
                human_at = None
            folded = self.ctx.games.fold(table, stored)
            self.game = LoadedGame(folded, stored[-1].version)

    def _new_game(self) -> LoadedGame:
        """Open a table: the human at seat 0 (seated at once), the bot at seat 1."""
        self.games_started += 1
        self.game_id = f"{self.name}-{self.games_started}"
        seed = f"bench-bots-{self.rng.getrandbits(64):016x}"
        host = TakeSeat(HUMAN, "human", "-")
        command = OpenTable(self.edition, (None, self.bot), seed, host=host)
        return send_command(
            self.ctx, self.game_id, command, game=LoadedGame(None, 0), expected_version=0
        ).game


def _play(
    queue: Queue, players: list[Player], advance: Advance = no_progress
) -> tuple[list[float], int]:
    """Every player on its own thread, empty jobs timed beside them; (those times, errors)."""
    errors: list[BaseException] = []

    def play(player: Player) -> None:
        try:
            player.play()
        except Exception as error:  # counted, reported, and the others go on
            errors.append(error)
            print(f"bench bots: {error}", file=sys.stderr)

    threads = [threading.Thread(target=play, args=(p,), daemon=True) for p in players]
    for thread in threads:
        thread.start()
    loaded: list[float] = []
    replies = 0
    while any(thread.is_alive() for thread in threads):
        loaded.extend(time_noops(queue, 1))
        now = sum(len(player.replies) for player in players)
        advance(now - replies)
        replies = now
    for thread in threads:
        thread.join()
    return loaded, len(errors)


def time_noops(queue: Queue, count: int) -> list[float]:
    """Seconds from enqueueing an empty job to its result, `count` times one after another."""
    times = []
    for _ in range(count):
        started = time.perf_counter()
        job = queue.enqueue(NOOP, job_id=f"noop-{queue.name}-{uuid.uuid4().hex}", result_ttl=60)
        result = job.latest_result(timeout=int(WAIT_SECONDS))
        if result is None or result.type != result.Type.SUCCESSFUL:
            raise RuntimeError(f"the empty job {job.id} did not succeed: {result}")
        times.append(time.perf_counter() - started)
    return times


def figures(seconds: list[float]) -> dict[str, Any]:
    """Count, p50, p95, mean and max in milliseconds."""
    if not seconds:
        return {"count": 0, "p50_ms": 0.0, "p95_ms": 0.0, "mean_ms": 0.0, "max_ms": 0.0}
    cuts = statistics.quantiles(seconds, n=100, method="inclusive") if len(seconds) > 1 else None
    return {
        "count": len(seconds),
        "p50_ms": round(statistics.median(seconds) * 1000, 3),
        "p95_ms": round((cuts[94] if cuts else seconds[0]) * 1000, 3),
        "mean_ms": round(statistics.fmean(seconds) * 1000, 3),
        "max_ms": round(max(seconds) * 1000, 3),
    }


def table(result: Mapping[str, Any]) -> str:
    """The figures as a short readable table."""
    rows = (
        ("bot reply (append at -> append at)", "reply"),
        ("bot reply (append at -> seen)", "reply_observed"),
        ("empty RQ job, idle workers", "noop_idle"),
        ("empty RQ job, beside the games", "noop_loaded"),
    )
    lines = [
        f"Bot benchmark: {result['games']} concurrent human-vs-{result['bot']} games"
        f" ({result['edition']}), {result['moves']} replies timed per game,"
        f" {result['workers']} rq workers ({result['worker_class']})",
        f"  {'':<36}{'count':>7}{'p50 ms':>10}{'p95 ms':>10}{'mean ms':>10}{'max ms':>10}",
    ]
    for label, key in rows:
        row = result[key]
        lines.append(
            f"  {label:<36}{row['count']:>7}{row['p50_ms']:>10}{row['p95_ms']:>10}"
            f"{row['mean_ms']:>10}{row['max_ms']:>10}"
        )
    lines.append(
        f"  games started {result['games_started']}, errors {result['errors']}"
        f" (namespace and queue {result['namespace']}, deleted)"
    )
    return "\n".join(lines)


def _clean(client: RedisClient, queue: Queue, namespace: str) -> None:
    """Delete the namespace's keys and RQ's keys of its queue and jobs (never FLUSH)."""
    queue.delete(delete_jobs=True)  # its jobs, and its name from RQ's set of queues
    pipe = client.pipeline(transaction=False)
    for pattern in (f"{namespace}:*", f"rq:*{namespace}*"):
        for key in client.scan_iter(match=pattern, count=1000):
            pipe.delete(key)
    pipe.execute()
