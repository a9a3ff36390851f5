"""`loveletter bench deliveries`: what one API process spends to hand each append to the clients
that follow its game, when another process answered the command.

Two API servers (one gunicorn gevent worker each) share one Redis namespace. `bench api`'s
command load plays its games on the first; every game it plays is followed on the second by both
of its seats: two event streams, or with `--poll` a stream and a long poll. The second process
answers no command: what it spends is the delivery alone (hearing the append from Redis,
decoding it, keeping its head of the game current, rendering each event for each follower and
writing it). Figures: that process's CPU time per append, and the deliveries counted.
"""

from __future__ import annotations

import argparse
import json
import uuid
from dataclasses import asdict
from typing import Any
from urllib.parse import urlsplit

from bench import api as bench_api
from bench import waiters as bench_waiters
from bench.crowd import POLL, STREAM, CrowdProcesses, Waiter
from bench.store import delete_namespace
from events.connection import connect, redis_url
from service.cli.help import add_command

POLL_WAIT_SECONDS = 30.0  # a following long poll's wait (it is answered by each append first)


def register_bench(bench_subparsers: argparse._SubParsersAction) -> None:
    """Add `deliveries` to the `bench` group."""
    parser = add_command(
        bench_subparsers,
        "deliveries",
        summary="an API process's CPU per append delivered to its games' followers",
        description="Play bench api's games on one API process and follow each of them on"
        " another (both seats: two streams, or a stream and a long poll with --poll); print"
        " the following process's CPU time per append.",
        examples=("loveletter bench deliveries", "loveletter bench deliveries --poll --json"),
    )
    parser.add_argument("--games", type=int, default=8, help="concurrent games of the load")
    parser.add_argument("--seconds", type=float, default=8.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=2.0, help="unmeasured seconds first")
    parser.add_argument("--poll", action="store_true", help="the second seat long-polls")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print its figures."""
    result = run_deliveries_bench(
        games=args.games, seconds=args.seconds, warmup=args.warmup, poll=args.poll
    )
    print(json.dumps(result) if args.json else table(result))
    return 0


def run_deliveries_bench(
    *, games: int = 8, seconds: float = 8.0, warmup: float = 2.0, poll: bool = False
) -> dict[str, Any]:
    """Play on one process, follow on the other; the follower process's CPU per append."""
    if games < 1 or seconds <= 0 or warmup < 0:
        raise ValueError("games >= 1, seconds > 0 and warmup >= 0")
    url = redis_url()
    namespace = f"bench-deliveries-{uuid.uuid4().hex[:8]}"
    env = bench_waiters.served_env(url, namespace)
    redis = connect(url)
    bench_waiters.ACKS.clear()
    try:
        with (
            bench_api.gunicorn_app(bench_api.COMMAND_APP, env, 1, 1) as (playing, _),
            bench_waiters.served_app(env, 1) as following,
        ):
            side = bench_api.Side(bench_api.COMMAND_APP, bench_waiters.TIMED_DRIVER, playing, games)
            crowd = followers(side, poll)
            parts = urlsplit(following.base_url)
            assert parts.hostname is not None and parts.port is not None
            crowds = CrowdProcesses(parts.hostname, parts.port, crowd)
            try:
                opening_errors = crowds.open()
                side.drive(warmup, record=False)
                bench_waiters.ACKS.clear()
                (process,) = following.processes()
                cpu_before = bench_waiters.cpu_seconds(process)
                side.drive(seconds)
                cpu = bench_waiters.cpu_seconds(process) - cpu_before
                appends = len(bench_waiters.ACKS)
                report = crowds.stop()
            finally:
                crowds.close()
    finally:
        delete_namespace(redis, namespace)
        redis.close()
    return {
        "benchmark": "deliveries",
        "games": games,
        "seconds": seconds,
        "followers_per_game": {"stream": 1 if poll else 2, "long_poll": 1 if poll else 0},
        "appends": appends,
        "receipts": len(report.receipts),
        "follower_process_cpu_seconds": round(cpu, 3),
        "cpu_ms_per_append": round(cpu * 1000 / max(appends, 1), 3),
        "errors": opening_errors + report.errors,
        "dropped": report.dropped,
        "commands": asdict(side.figures()),
    }


def followers(side: bench_api.Side, poll: bool) -> list[Waiter]:
    """Both seats of every game the drivers will play: seat 0 by stream, seat 1 by stream (or
    by long poll), each from the version the game starts at."""
    crowd: list[Waiter] = []
    for call in side.calls:
        assert isinstance(call, bench_waiters.TimedGameDriver)
        for game_id, tokens, version in call.games():
            stream = f"/games/{game_id}/stream?after={version}"
            crowd.append(Waiter(STREAM, game_id, stream, tokens[0], version))
            if poll:
                feed = f"/games/{game_id}/events"
                crowd.append(Waiter(POLL, game_id, feed, tokens[1], version, POLL_WAIT_SECONDS))
            else:
                crowd.append(Waiter(STREAM, game_id, stream, tokens[1], version))
    return crowd


def table(result: dict[str, Any]) -> str:
    """The figures as a few readable lines."""
    kinds = result["followers_per_game"]
    return "\n".join(
        [
            f"Deliveries benchmark: {result['games']} games played on one API process, each"
            f" followed on another by {kinds['stream']} stream(s) and {kinds['long_poll']}"
            " long poll(s)",
            f"  {result['appends']} appends in {result['seconds']} s,"
            f" {result['receipts']} events received by the followers",
            f"  following process CPU {result['follower_process_cpu_seconds']} s:"
            f" {result['cpu_ms_per_append']} ms per append",
            f"  errors {len(result['errors'])}, dropped {result['dropped']}",
        ]
    )
