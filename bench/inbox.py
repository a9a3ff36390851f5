"""`loveletter bench inbox`: players with several asynchronous games each against bots (played
on real RQ workers), every player's inbox stream open, beside `bench api`'s command load.

Set-up (not timed): PLAYERS guest players, each creating GAMES games of `2019` against the
`heuristic` bot with its player token (the player moves first). Then, in one run: the command
load without the inboxes open (half its time), every inbox opened and held for `--hold`
seconds with the load run inside the hold, and the load without them again. All along, a mover
looks at `--moves` of the players' games per second and moves when it is the player's turn
(each move makes a bot reply on the workers, and so a "your turn" entry), so the two sides
differ only by the open inboxes.
Figures: inbox delivery from the append to the client (the entry's `appended_at_ms` to its
receipt, one clock), the throughput ratio of commands with and without the open inboxes,
Redis memory per player (its own keys, and with its games), failures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import threading
import time
import uuid
from collections import Counter
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from typing import Any

from rq import Queue

from bench import api as bench_api
from bench.client import JsonClient, guest_token
from bench.crowd import INBOX, Report, Waiter, describe
from bench.figures import latency_figures
from bench.processes import worker_processes
from bench.store import delete_namespace
from bench.waiters import ROUNDS, drive, hold_crowd, served_app
from events.connection import RedisClient, connect, redis_url
from service.cli.help import add_command
from service.gunicorn_conf import DEFAULT_WORKER_CLASS, default_workers, raise_open_files_limit

THROUGHPUT_TARGET = 0.8
SETUP_THREADS = 16


def register_bench(bench_subparsers: argparse._SubParsersAction) -> None:
    """Add `inbox` to the `bench` group."""
    parser = add_command(
        bench_subparsers,
        "inbox",
        summary="players' inbox streams open beside the command load, bots on RQ workers",
        description="Make PLAYERS guest players with GAMES asynchronous games each against the"
        " heuristic bot (played on real RQ workers), open every player's inbox stream, and run"
        " the command load of `bench api` with and without the open inboxes in the same run,"
        " while --moves of the players' games per second are looked at and played when it is their"
        " turn; print the inbox delivery"
        " latency from the append to the client, the throughput ratio, Redis memory per player.",
        examples=("loveletter bench inbox --json", "loveletter bench inbox --players 500"),
    )
    parser.add_argument("--players", type=int, default=5000, help="guest players")
    parser.add_argument("--games", type=int, default=4, help="games per player")
    parser.add_argument("--hold", type=float, default=60.0, help="seconds the inboxes are open")
    parser.add_argument("--moves", type=float, default=20.0,
                        help="players' looks per second, each with a move when it is their"
                        " turn (a move makes a bot reply)")  # fmt: skip
    parser.add_argument("--load-games", type=int, default=16,
                        help="concurrent games of the command load")  # fmt: skip
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="seconds of load with the inboxes open (as many without)")  # fmt: skip
    parser.add_argument("--warmup", type=float, default=2.0, help="unmeasured seconds per side")
    parser.add_argument("--workers", type=int, default=default_workers(), help="gunicorn workers")
    parser.add_argument("--rq-workers", type=int, default=2, help="RQ worker processes (bots)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print its figures."""
    result = run_inbox_bench(
        players=args.players,
        games=args.games,
        hold=args.hold,
        moves=args.moves,
        load_games=args.load_games,
        seconds=args.seconds,
        warmup=args.warmup,
        workers=args.workers,
        rq_workers=args.rq_workers,
    )
    print(json.dumps(result) if args.json else table(result))
    return 0


class Mover(threading.Thread):
    """Plays the players' turns, `rate` moves per second, round the games; counts its work."""

    def __init__(self, base: str, games: list[tuple[str, str]], rate: float) -> None:
        super().__init__(daemon=True)
        self.base, self.games, self.rate = base, games, rate
        self.stopping = threading.Event()
        self.moves = self.looks = self.errors = 0
        self.refused: Counter[int] = Counter()  # failed answers by status

    def run(self) -> None:
        client = JsonClient(self.base)
        order = list(self.games)
        random.Random(7).shuffle(order)
        position = 0
        next_at = time.monotonic()
        while not self.stopping.is_set() and order:
            game_id, token = order[position % len(order)]
            position += 1
            self._play(client, game_id, token)
            next_at += 1 / self.rate  # one look (and a move, if it is the player's turn) each
            self.stopping.wait(max(0.0, next_at - time.monotonic()))
        client.close()

    def _play(self, client: JsonClient, game_id: str, token: str) -> None:
        """Look at one game as its player; move if it is the player's turn."""
        auth = {"Authorization": f"Bearer {token}"}
        status, view = client.get(f"/games/{game_id}", auth)
        self.looks += 1
        if status != 200:
            self.errors += 1
            self.refused[status] += 1
            return
        if not view["legal"]:
            return
        headers = {**auth, "If-Match": f'"{view["game"]["version"]}"',
                   "Idempotency-Key": uuid.uuid4().hex}  # fmt: skip
        status, _ = client.post(f"/games/{game_id}/commands", view["legal"][0], headers)
        if status == 200:
            self.moves += 1
        elif status != 412:  # a bot's reply landed first: another game, another time
            self.errors += 1
            self.refused[status] += 1


def run_inbox_bench(
    *,
    players: int = 5000,
    games: int = 4,
    hold: float = 60.0,
    moves: float = 20.0,
    load_games: int = 16,
    seconds: float = 20.0,
    warmup: float = 2.0,
    workers: int | None = None,
    rq_workers: int = 2,
) -> dict[str, Any]:
    """Set the players up, run the load without, with and without their open inboxes."""
    if players < 1 or games < 1 or seconds <= 0 or moves <= 0 or rq_workers < 1:
        raise ValueError("players, games, rq workers >= 1; seconds and moves > 0")
    open_files = raise_open_files_limit()
    workers = workers or default_workers()
    url = redis_url()
    namespace = f"bench-inbox-{uuid.uuid4().hex[:8]}"
    env = {
        **os.environ,
        "REDIS_URL": url,
        "LOVELETTER_NAMESPACE": namespace,
        "LOVELETTER_QUEUE": namespace,
        "LOVELETTER_RATE_LIMIT_ADDRESS": bench_api.NO_LIMIT,
        "LOVELETTER_GUESTS_PER_HOUR": "off",  # every simulated player shares one address
        "LOVELETTER_BOT_TABLES": "off",
        "LOVELETTER_WAITERS_PER_ADDRESS": "off",  # every inbox stream is 127.0.0.1's
        "LOVELETTER_RATE_LIMIT_SEAT": bench_api.SEAT_LIMIT,
        "LOVELETTER_RATE_LIMIT_READS": bench_api.NO_LIMIT,  # every client here is 127.0.0.1
        "LOVELETTER_SEEDED_GAMES": "1",
    }
    redis = connect(url)
    queue = Queue(namespace, connection=redis)  # type: ignore[arg-type]
    try:
        with worker_processes(url, queue, rq_workers, env), served_app(env, workers) as served:
            base = served.base_url
            memory_before = _used_memory(redis)
            started = time.monotonic()
            tokens, played = set_up(base, players, games)
            setup_seconds = time.monotonic() - started
            memory = {
                "per_player_with_games_bytes": round(
                    (_used_memory(redis) - memory_before) / players
                ),
                "per_player_own_keys_bytes": own_keys(redis, namespace, base, tokens[:50]),
            }
            mover = Mover(base, played, moves)
            mover.start()
            without = bench_api.Side(
                bench_api.COMMAND_APP, bench_api.COMMAND_DRIVER, base, load_games
            )
            without.drive(warmup, record=False)
            drive(without, seconds / 2, ROUNDS // 2)
            side = bench_api.Side(bench_api.COMMAND_APP, bench_api.COMMAND_DRIVER, base, load_games)
            crowd = [Waiter(INBOX, "", "/players/me/stream", token) for token in tokens]
            held = hold_crowd(served, redis, crowd, side, hold=hold, seconds=seconds, warmup=warmup)
            drive(without, seconds / 2, ROUNDS // 2)
            mover.stopping.set()
            mover.join(10)
    finally:
        queue.delete(delete_jobs=True)
        delete_namespace(redis, namespace)
        for key in redis.scan_iter(match=f"rq:*{namespace}*", count=1000):
            redis.delete(key)
        redis.close()
    report: Report = held.pop("report")
    plain, loaded = without.figures(), side.figures()
    ratio = loaded.requests_per_second / max(plain.requests_per_second, 1e-9)
    delivery = inbox_deliveries(report)
    failures = len(report.errors) + report.dropped + plain.errors + loaded.errors
    return {
        "benchmark": "inbox",
        "players": players,
        "games_per_player": games,
        "games": players * games,
        "hold_seconds": hold,
        "looks_per_second": moves,
        "setup_seconds": round(setup_seconds, 1),
        "open_files_limit": open_files,
        "gunicorn": {"worker_class": DEFAULT_WORKER_CLASS, "workers": workers},
        "rq_workers": rq_workers,
        "without_inboxes": asdict(plain),
        "with_inboxes": asdict(loaded),
        "throughput_ratio": round(ratio, 3),
        "delivery": delivery,
        "players_moves": {
            "moves": mover.moves,
            "looks": mover.looks,
            "errors": mover.errors,
            "errors_by_status": dict(mover.refused),
        },
        "redis_memory": memory,
        "crowd": describe(report),
        "error_samples": report.errors[:5],
        **held,
        "targets": {"throughput_ratio": THROUGHPUT_TARGET, "errors": 0},
        "meets_targets": ratio >= THROUGHPUT_TARGET and failures == 0 and report.opened == players,
    }


def set_up(base: str, players: int, games: int) -> tuple[list[str], list[tuple[str, str]]]:
    """The players' tokens, and every (game, token) of theirs."""

    def player(_: int) -> tuple[str, list[tuple[str, str]]]:
        client = JsonClient(base)
        token = guest_token(client, "p")
        auth = {"Authorization": f"Bearer {token}"}
        body = {"edition": "2019", "seats": ["human", "heuristic"], "first_player": 0}
        mine = []
        for _ in range(games):
            status, created = client.post("/games", body, auth)
            if status != 201:
                raise RuntimeError(f"createGame answered {status}: {created}")
            mine.append((created["game"]["id"], token))
        client.close()
        return token, mine

    with ThreadPoolExecutor(SETUP_THREADS) as pool:
        made = list(pool.map(player, range(players)))
    return [token for token, _ in made], [game for _, mine in made for game in mine]


def own_keys(redis: RedisClient, namespace: str, base: str, tokens: list[str]) -> int:
    """The mean bytes of a player's own keys (record, games, inbox, relayed versions, token)
    over a sample of players, by MEMORY USAGE."""
    client = JsonClient(base)
    sizes = []
    for token in tokens:
        status, me = client.get("/players/me", {"Authorization": f"Bearer {token}"})
        if status != 200:
            continue
        keys = list(redis.scan_iter(match=f"{namespace}:{{p:{me['id']}}}:*", count=1000))
        total = sum(int(redis.memory_usage(key) or 0) for key in keys)
        sizes.append(total + 150)  # the token's key (a hash to the id), about
    client.close()
    return round(sum(sizes) / max(len(sizes), 1))


def inbox_deliveries(report: Report) -> dict[str, Any]:
    """Inbox delivery latency: from each entry's append to its receipt."""
    latencies = [max(received - appended, 0.0) for *_, appended, received in report.inbox]
    by_type: dict[str, list[float]] = {}
    for _, _, _, kind, appended, received in report.inbox:
        by_type.setdefault(kind, []).append(max(received - appended, 0.0))
    seen = {(index, game, version, kind) for index, game, version, kind, _, _ in report.inbox}
    return {
        **latency_figures(latencies),
        "by_type": {kind: latency_figures(values) for kind, values in sorted(by_type.items())},
        "repeated": len(report.inbox) - len(seen),
    }


def _used_memory(redis: RedisClient) -> int:
    info: Any = redis.info("memory")
    return int(info["used_memory"])


def table(result: Mapping[str, Any]) -> str:
    """The figures as a few readable lines."""
    delivery, crowd = result["delivery"], result["crowd"]
    plain, loaded = result["without_inboxes"], result["with_inboxes"]
    memory = result["redis_memory"]
    return "\n".join(
        [
            f"Inbox benchmark: {result['players']} players x {result['games_per_player']} games"
            f" against bots ({result['rq_workers']} RQ workers), inboxes open"
            f" {result['held_seconds']} s, players' moves {result['players_moves']['moves']}",
            f"  commands/s without open inboxes {plain['requests_per_second']}, with"
            f" {loaded['requests_per_second']}: ratio {result['throughput_ratio']}"
            f" (target >= {THROUGHPUT_TARGET})",
            f"  inbox delivery p50 {delivery['p50_ms']} ms, p99 {delivery['p99_ms']} ms, max"
            f" {delivery['max_ms']} ms over {delivery['count']} entries"
            f" (repeated {delivery['repeated']})",
            f"  inboxes opened {crowd['opened']}, errors {crowd['errors']}, dropped"
            f" {crowd['dropped']}",
            f"  Redis memory per player: own keys {memory['per_player_own_keys_bytes']} B,"
            f" with its games {memory['per_player_with_games_bytes']} B",
            f"  targets {'met' if result['meets_targets'] else 'NOT met'}",
        ]
    )
