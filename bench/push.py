"""`loveletter bench push`: away players' turns pushed to their browsers through a push service,
beside `bench api`'s command load.

Set-up (not timed): twice PLAYERS guest players, each with one game of `2019` against the
`heuristic` bot (the player moves first); the first half subscribe one browser each (keys of
their own) to a push service that runs in a process of its own and notes when each push
arrives; the second half subscribe nothing. No player is present at its game (moves are made
with the seat's token, which marks no presence), so every one of them is away.
Then, in one run, the command load twice for `--seconds`: beside moves in the unsubscribed
players' games (no push), then beside as many moves per second in the subscribed players'
games, each of which makes the bot's reply on the RQ workers start the player's turn, and so a
push (one per game: one away spell). The push jobs run on workers of the webhook queue.
Figures: the time from the append that starts the turn (its inbox entry's `appended_at_ms`) to
the push service receiving the push, p50 and p99; commands per second with the pushes over
without them.
"""

from __future__ import annotations

import argparse
import base64
import json
import multiprocessing
import os
import threading
import time
import uuid
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from rq import Queue

from bench import api as bench_api
from bench.client import JsonClient, guest_token
from bench.figures import latency_figures
from bench.processes import worker_processes
from bench.store import delete_namespace
from bench.waiters import ROUNDS, drive, served_app
from events.connection import connect, redis_url
from events.players import PlayerStore
from play.push import topic_of
from play.settings import webhook_queue
from service.cli.help import add_command
from service.gunicorn_conf import DEFAULT_WORKER_CLASS, default_workers, raise_open_files_limit

THROUGHPUT_TARGET = 0.9
P99_TARGET_MS = 1000.0
SETUP_THREADS = 16
TURN_REQUESTS = 4  # commands sent for one turn before it counts as an error
TURN_GOES_ON = ("chancellor",)  # commands that finish a turn begun with a card
FIRST_ERRORS = 5  # failed turns described in the result
RECEIVED = "bench-push-received"  # the list the push service notes arrivals in


def register_bench(bench_subparsers: argparse._SubParsersAction) -> None:
    """Add `push` to the `bench` group."""
    parser = add_command(
        bench_subparsers,
        "push",
        summary="away players' turns pushed to a push service, beside the command load",
        description="Make PLAYERS away players with a browser subscribed each (and as many"
        " without), play their games against bots on RQ workers beside the command load of"
        " `bench api`, and print the time from the append that starts a turn to the push"
        " service receiving its push (p50, p99), and commands per second with the pushes over"
        " without them.",
        examples=("loveletter bench push --json", "loveletter bench push --players 1000"),
    )
    parser.add_argument("--players", type=int, default=5000, help="away players subscribed")
    parser.add_argument("--seconds", type=float, default=25.0,
                        help="seconds of load beside the pushes (as many without)")  # fmt: skip
    parser.add_argument("--load-games", type=int, default=16,
                        help="concurrent games of the command load")  # fmt: skip
    parser.add_argument("--workers", type=int, default=default_workers(), help="gunicorn workers")
    parser.add_argument("--rq-workers", type=int, default=2, help="RQ workers of the bots")
    parser.add_argument("--push-workers", type=int, default=2, help="RQ workers of the pushes")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print its figures."""
    result = run_push_bench(
        players=args.players,
        seconds=args.seconds,
        load_games=args.load_games,
        workers=args.workers,
        rq_workers=args.rq_workers,
        push_workers=args.push_workers,
    )
    print(json.dumps(result) if args.json else table(result))
    return 0


def _receive(url: str, namespace: str, ready: Any) -> None:
    """The push service (a process of its own): answer 201 to every push and note its Topic
    and when it arrived, written to Redis twice a second (it shares the machine with what it
    measures: one write per push would be its own cost counted against the pushes')."""
    redis = connect(url)
    key = f"{namespace}:{RECEIVED}"
    arrivals: list[str] = []
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # connections kept open, as push services keep them

        def do_POST(self) -> None:
            at = time.time()
            self.rfile.read(int(self.headers.get("content-length") or 0))
            self.send_response(201)
            self.send_header("content-length", "0")
            self.end_headers()
            with lock:
                arrivals.append(f"{self.headers.get('topic')} {at}")

        def log_message(self, *args: Any) -> None:
            pass

    def note() -> None:
        while True:
            time.sleep(0.5)
            with lock:
                noted = arrivals[:]
                del arrivals[:]
            if noted:
                redis.rpush(key, *noted)

    threading.Thread(target=note, daemon=True).start()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.request_queue_size = 1024
    ready.send(server.server_address[1])
    server.serve_forever()


def browser_keys() -> dict[str, str]:
    """A browser's subscription keys (RFC 8291): a P-256 public key and an auth secret."""
    point = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    encode = base64.urlsafe_b64encode
    return {"p256dh": encode(point).rstrip(b"=").decode(),
            "auth": encode(os.urandom(16)).rstrip(b"=").decode()}  # fmt: skip


class Mover:
    """Plays the player's first turn of each game, `rate` a second on `threads` threads, with
    the seat's token (which marks no presence), until the games run out or it is stopped."""

    def __init__(self, base: str, games: list[tuple[str, str]], rate: float, threads: int = 32):
        self.base, self.rate = base, rate
        self.games = iter(games)
        self.stopping = threading.Event()
        self.moves = self.errors = 0
        self.first_errors: list[str] = []  # why the first few turns were not played
        self._lock = threading.Lock()
        self._next_at = time.monotonic()
        self._threads = [threading.Thread(target=self._run, daemon=True) for _ in range(threads)]
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        """Stop taking games, and wait for the turns under way."""
        self.stopping.set()
        for thread in self._threads:
            thread.join(30)

    def _take(self) -> tuple[str, str] | None:
        """The next game, at its time (None: none left, or stopped)."""
        with self._lock:
            game = next(self.games, None)
            at, self._next_at = self._next_at, max(self._next_at, time.monotonic()) + 1 / self.rate
        if game is None or self.stopping.wait(max(0.0, at - time.monotonic())):
            return None
        return game

    def _run(self) -> None:
        client = JsonClient(self.base)
        while (game := self._take()) is not None:
            game_id, seat_token = game
            try:
                why = self._turn(client, game_id, {"Authorization": f"Bearer {seat_token}"})
            except OSError as error:
                why = f"{type(error).__name__}: {error}"
            with self._lock:
                self.moves += why is None
                self.errors += why is not None
                if why is not None and len(self.first_errors) < FIRST_ERRORS:
                    self.first_errors.append(why[:300])
        client.close()

    def _turn(self, client: JsonClient, game_id: str, auth: dict[str, str]) -> str | None:
        """Play the player's turn: a card, and what it asks next (the Chancellor's cards to
        keep); None once played, else why not. The turns after it (the bot may have answered
        already, or a round won at once starts another) are not this one's."""
        status, view = client.get(f"/games/{game_id}", auth)
        if status != 200 or not view["legal"]:
            return f"answered {status}, with nothing to play: {view}"
        for _ in range(TURN_REQUESTS):
            headers = {**auth, "If-Match": f'"{view["game"]["version"]}"',
                       "Idempotency-Key": uuid.uuid4().hex}  # fmt: skip
            status, view = client.post(f"/games/{game_id}/commands", view["legal"][0], headers)
            if status != 200:
                return f"answered {status}: {view}"
            if not any(command["type"] in TURN_GOES_ON for command in view["legal"]):
                return None
        return f"still asked to go on after {TURN_REQUESTS} commands"


def set_up(
    base: str, players: int, endpoint: str | None
) -> list[tuple[str, str, str]]:  # fmt: skip
    """Each player's (player id, game id, seat token): a game against the bot, and a browser
    subscribed at `endpoint` (None: none)."""

    def player(number: int) -> tuple[str, str, str]:
        client = JsonClient(base)
        token = guest_token(client, "p")
        auth = {"Authorization": f"Bearer {token}"}
        body = {"edition": "2019", "seats": ["human", "heuristic"], "first_player": 0}
        status, created = client.post("/games", body, auth)
        if status != 201:
            raise RuntimeError(f"createGame answered {status}: {created}")
        status, me = client.get("/players/me", auth)
        if endpoint is not None:
            subscription = {"endpoint": f"{endpoint}/{number}", "keys": browser_keys()}
            status, made = client.post("/players/me/push-subscriptions", subscription, auth)
            if status != 201:
                raise RuntimeError(f"subscribePush answered {status}: {made}")
        client.close()
        return str(me["id"]), str(created["game"]["id"]), str(created["token"])

    with ThreadPoolExecutor(SETUP_THREADS) as pool:
        return list(pool.map(player, range(players)))


def run_push_bench(
    *,
    players: int = 5000,
    seconds: float = 25.0,
    load_games: int = 16,
    workers: int | None = None,
    rq_workers: int = 2,
    push_workers: int = 2,
) -> dict[str, Any]:
    """Set the players up; run the load beside moves without pushes, then with them."""
    if players < 1 or seconds <= 0 or rq_workers < 1 or push_workers < 1:
        raise ValueError("players, rq workers, push workers >= 1; seconds > 0")
    open_files = raise_open_files_limit()
    workers = workers or default_workers()
    url = redis_url()
    namespace = f"bench-push-{uuid.uuid4().hex[:8]}"
    here, there = multiprocessing.Pipe()
    receiver = multiprocessing.Process(target=_receive, args=(url, namespace, there), daemon=True)
    receiver.start()
    origin = f"http://127.0.0.1:{here.recv()}"
    env = {
        **os.environ,
        "REDIS_URL": url,
        "LOVELETTER_NAMESPACE": namespace,
        "LOVELETTER_QUEUE": namespace,
        "LOVELETTER_RATE_LIMIT_ADDRESS": bench_api.NO_LIMIT,
        "LOVELETTER_GUESTS_PER_HOUR": "off",  # every simulated player shares one address
        "LOVELETTER_BOT_TABLES": "off",
        "LOVELETTER_RATE_LIMIT_SEAT": bench_api.SEAT_LIMIT,
        "LOVELETTER_RATE_LIMIT_READS": bench_api.NO_LIMIT,
        "LOVELETTER_SEEDED_GAMES": "1",  # the command load plays seeded games
        "LOVELETTER_PUSH_INSECURE_ORIGINS": origin,
    }
    redis = connect(url)
    queue = Queue(namespace, connection=redis)  # type: ignore[arg-type]
    pushes = Queue(webhook_queue(namespace), connection=redis)  # type: ignore[arg-type]
    rate = players / seconds
    try:
        with (
            worker_processes(url, queue, rq_workers, env),
            worker_processes(url, pushes, push_workers, env),
            served_app(env, workers) as served,
        ):
            base = served.base_url
            started = time.monotonic()
            away = set_up(base, players, f"{origin}/push")
            unsubscribed = set_up(base, players, None)
            setup_seconds = time.monotonic() - started
            without = bench_api.Side(
                bench_api.COMMAND_APP, bench_api.COMMAND_DRIVER, base, load_games
            )
            without.drive(2.0, record=False)
            unheard = [(game, seat) for _, game, seat in unsubscribed]
            half = len(unheard) // 2
            movers = [_beside(without, Mover(base, unheard[:half], rate), seconds / 2)]
            side = bench_api.Side(bench_api.COMMAND_APP, bench_api.COMMAND_DRIVER, base, load_games)
            heard = [(game, seat) for _, game, seat in away]
            mover = _beside(side, Mover(base, heard, rate), seconds)
            movers += [mover, _beside(without, Mover(base, unheard[half:], rate), seconds / 2)]
            received = _wait_received(redis, namespace, mover.moves, 30.0)
            latencies = _latencies(redis, namespace, away, received)
    finally:
        receiver.kill()
        for drained in (queue, pushes):
            drained.delete(delete_jobs=True)
        delete_namespace(redis, namespace)
        for key in redis.scan_iter(match=f"rq:*{namespace}*", count=1000):
            redis.delete(key)
        redis.close()
    plain, loaded = without.figures(), side.figures()
    ratio = loaded.requests_per_second / max(plain.requests_per_second, 1e-9)
    delivery = latency_figures(latencies)
    failures = plain.errors + loaded.errors + sum(moved.errors for moved in movers)
    first_errors = [*plain.first_errors, *loaded.first_errors]
    first_errors += [why for moved in movers for why in moved.first_errors]
    return {
        "benchmark": "push",
        "away_players": players,
        "unsubscribed_players": players,
        "moves_per_second": round(rate, 1),
        "setup_seconds": round(setup_seconds, 1),
        "open_files_limit": open_files,
        "gunicorn": {"worker_class": DEFAULT_WORKER_CLASS, "workers": workers},
        "rq_workers": rq_workers,
        "push_workers": push_workers,
        "without_push": asdict(plain),
        "with_push": asdict(loaded),
        "throughput_ratio": round(ratio, 3),
        "push": {
            **delivery,
            "moves": mover.moves,
            "received": len(received),
            "missing": mover.moves - len(latencies),
        },
        "errors": failures,
        "first_errors": first_errors[:FIRST_ERRORS],
        "targets": {"p99_ms": P99_TARGET_MS, "throughput_ratio": THROUGHPUT_TARGET, "errors": 0},
        "meets_targets": delivery["p99_ms"] <= P99_TARGET_MS
        and ratio >= THROUGHPUT_TARGET
        and failures == 0
        and len(latencies) == mover.moves,
    }


def _beside(side: bench_api.Side, mover: Mover, seconds: float) -> Mover:
    """Run the command load for `seconds` beside the mover's turns, then stop the mover."""
    try:
        drive(side, seconds, ROUNDS // 2)
    finally:
        mover.stop()
    return mover


def _wait_received(redis: Any, namespace: str, expected: int, seconds: float) -> list[str]:
    """The arrivals the push service noted, once `expected` came (or `seconds` passed)."""
    key = f"{namespace}:{RECEIVED}"
    deadline = time.monotonic() + seconds
    while int(redis.llen(key)) < expected and time.monotonic() < deadline:
        time.sleep(0.2)
    return [item.decode() if isinstance(item, bytes) else item for item in redis.lrange(key, 0, -1)]


def _latencies(
    redis: Any, namespace: str, away: list[tuple[str, str, str]], received: list[str]
) -> list[float]:
    """Per push received: from the append that started the player's turn (the newest
    `your_turn` entry of that game in the player's inbox before the push arrived) to then."""
    players = PlayerStore(redis, namespace=namespace)
    by_topic = {topic_of("your_turn", game): (player, game) for player, game, _ in away}
    found = []
    for line in received:
        topic, _, at = line.partition(" ")
        if topic not in by_topic:
            continue
        player, game = by_topic[topic]
        arrived_ms = float(at) * 1000
        appended = [
            int(entry.data["appended_at_ms"])
            for entry in players.inbox(player, count=200)
            if entry.data.get("type") == "your_turn" and entry.data.get("game") == game
            and int(entry.data["appended_at_ms"]) <= arrived_ms
        ]  # fmt: skip
        if appended:
            found.append(max(arrived_ms - max(appended), 0.0) / 1000)
    return found


def table(result: Mapping[str, Any]) -> str:
    """The figures as a few readable lines."""
    push, plain, loaded = result["push"], result["without_push"], result["with_push"]
    return "\n".join(
        [
            f"Push benchmark: {result['away_players']} away players subscribed (and as many"
            f" not), {result['moves_per_second']} moves/s, {result['rq_workers']} bot and"
            f" {result['push_workers']} push RQ workers",
            f"  append to push received: p50 {push['p50_ms']} ms, p99 {push['p99_ms']} ms, max"
            f" {push['max_ms']} ms over {push['count']} pushes (moves {push['moves']}, missing"
            f" {push['missing']}; target p99 <= {P99_TARGET_MS:g} ms)",
            f"  commands/s without pushes {plain['requests_per_second']}, with"
            f" {loaded['requests_per_second']}: ratio {result['throughput_ratio']}"
            f" (target >= {THROUGHPUT_TARGET})",
            f"  errors {result['errors']};"
            f" targets {'met' if result['meets_targets'] else 'NOT met'}",
        ]
    )
