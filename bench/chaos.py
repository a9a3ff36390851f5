"""`loveletter chaos`: many games played to their end while faults are injected, then an account.

It starts its own Redis (AOF, fsync on every write) in a temporary folder, two API processes
(gunicorn) and three RQ workers, and opens N games of every edition, each with one or two human
seats that this driver plays over HTTP (a thread per game, as a client would: look, send a
random legal command with If-Match and a fresh Idempotency-Key, and after a timeout, a lost
connection or a 5xx send the very same request again) and bot seats played by the workers.
Meanwhile: every few seconds a random worker is SIGKILLed and replaced, one is paused (SIGSTOP)
for a while and resumed, and Redis is SIGKILLed and restarted on its AOF.

Afterwards every stream is read back and the account printed: games started and finished,
commands acknowledged (a 200 answer), lost (acknowledged but not in the stream), applied twice
(one request's key recorded twice), games stuck (that waited on a lost job longer than the
bound: its bot's job neither in the queue nor running on a live worker), and `verify` failures.
Everything it started is stopped and its folder removed.

A test may also ask for faults the account must count (`bench.faults`: a command lost, a key
applied twice, a game stuck, a deal tampered with); no command-line option does.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import requests
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus

import play
from bench.faults import (
    LOSING_WORKER,
    NO_FAULTS,
    Faults,
    forget_key,
    hold,
    lose_from,
    release,
    tamper_deal,
)
from events.audit import export_lines, verify_lines
from events.connection import connect
from events.redis_server import EmbeddedRedis, free_port
from game.editions import EDITIONS
from game.table import waiting_on
from play.context import Context
from play.follow_up import job_id
from play.settings import Settings
from service.cli.help import add_command
from service.serve import Child, gunicorn_command

STUCK_BOUND_SECONDS = 10.0  # a game waiting on a lost job longer than this counts as stuck
REQUEST_TIMEOUT_SECONDS = 10.0
READY_TIMEOUT_SECONDS = 30.0
WORKERS = 3
WORKER = "workers.worker.Worker"
APIS = 2
BOTS = ("heuristic", "random")


@dataclass
class Account:
    """What happened, counted by the driver and read back from the streams."""

    games_started: int = 0
    games_finished: int = 0
    commands_acknowledged: int = 0
    commands_lost: int = 0
    commands_applied_twice: int = 0
    games_stuck: int = 0
    verify_failures: int = 0
    retries: int = 0
    answers: Counter[str] = field(default_factory=Counter)
    faults: Counter[str] = field(default_factory=Counter)
    longest_wait_on_a_lost_job_seconds: float = 0.0
    seconds: float = 0.0

    def figures(self) -> dict[str, Any]:
        """The fields as plain data (counters as dicts of counts)."""
        values = {item.name: getattr(self, item.name) for item in fields(self)}
        return {name: dict(v) if isinstance(v, Counter) else v for name, v in values.items()}

    @property
    def ok(self) -> bool:
        """The targets: nothing lost, doubled, stuck, or failing verification; every game ends."""
        return (
            self.commands_lost == self.commands_applied_twice == self.games_stuck == 0
            and self.verify_failures == 0
            and self.games_finished == self.games_started
        )


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `loveletter chaos`."""
    parser = add_command(
        subparsers,
        "chaos",
        summary="play many games while killing workers, pausing one and restarting Redis",
        description="Start a Redis (AOF), two API processes and three RQ workers of its own;"
        " play GAMES games to their end (humans scripted over HTTP, bots on the workers) while"
        " a worker is SIGKILLed every 2 s, one is paused for 6 s every 15 s and Redis is"
        " SIGKILLed and restarted every 20 s; then print what was acknowledged, lost, applied"
        " twice, stuck or unverifiable. Exits 1 unless nothing was.",
        examples=("loveletter chaos --games 200 --json",),
    )
    parser.add_argument("--games", type=int, default=200, help="concurrent games")
    parser.add_argument("--seed", type=int, default=1, help="the driver's random seed")
    parser.add_argument("--timeout", type=float, default=1200, help="seconds for all games")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the chaos and print its account; exit 0 when every target is met."""
    account = chaos(args.games, args.seed, args.timeout)
    figures = {**account.figures(), "ok": account.ok}
    if args.json:
        print(json.dumps(figures, sort_keys=True))
    else:
        for name, value in figures.items():
            print(f"{name:32} {value}")
    return 0 if account.ok else 1


def chaos(games: int, seed: int, timeout: float, faults: Faults = NO_FAULTS) -> Account:
    """Play `games` games under faults; the account. `faults`: those a test asks for besides,
    each on games of its own (see bench.faults)."""
    rng = random.Random(seed)
    account = Account()
    started = time.monotonic()
    with (
        tempfile.TemporaryDirectory(prefix="loveletter-chaos-") as folder,
        Stack(Path(folder), LOSING_WORKER if faults.stuck else WORKER) as stack,
    ):
        tables = [open_game(stack.apis[number % APIS], number, rng) for number in range(games)]
        account.games_started = len(tables)
        controls = Controls(stack, tables, faults)
        players = [
            Player(table, stack.apis, random.Random(rng.random()), controls.forgetting(table))
            for table in tables
        ]
        threads = [threading.Thread(target=player.play, daemon=True) for player in players]
        for thread in threads:
            thread.start()
        watcher = Watcher(stack, [table.id for table in tables])
        deadline = time.monotonic() + timeout
        schedule = stack.faults(rng)
        while any(thread.is_alive() for thread in threads) and time.monotonic() < deadline:
            next(schedule)
            watcher.look()
            controls.release_stuck(watcher)
        stack.calm()
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        controls.after_play(players)
        account.faults = stack.injected + controls.injected
        settle(stack, account, tables, players, watcher)
    account.seconds = round(time.monotonic() - started, 1)
    return account


@dataclass
class Table:
    """A game this driver opened: its id, how many seats it has, and the tokens of its human
    seats, by seat."""

    id: str
    seats: int
    tokens: dict[int, str]


def open_game(api: str, number: int, rng: random.Random) -> Table:
    """A game of some edition with one or two human seats (filled at once) and bots."""
    edition = EDITIONS[sorted(EDITIONS)[number % len(EDITIONS)]]
    size = rng.randint(edition.min_players, min(edition.max_players, edition.min_players + 2))
    humans = rng.sample(range(size), rng.choice((1, 2)))
    seats = ["human" if seat in humans else rng.choice(BOTS) for seat in range(size)]
    body = {"edition": edition.id, "seats": seats, "name": "p0"}
    created = post_retrying(f"{api}/games", body, {}).json()
    table = Table(created["game"]["id"], size, {created["seat"]: created["token"]})
    for index in range(1, len(humans)):
        joined = post_retrying(f"{api}/games/{table.id}/seats", {"name": f"p{index}"}, {}).json()
        table.tokens[joined["seat"]] = joined["token"]
    return table


def post_retrying(url: str, body: Any, headers: dict[str, str]) -> requests.Response:
    """POST until a 2xx answer (set-up calls: the faults may start any time)."""
    for _ in range(100):
        try:
            answer = requests.post(url, json=body, headers=headers, timeout=REQUEST_TIMEOUT_SECONDS)
            if answer.ok:
                return answer
        except requests.RequestException:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"{url} never answered 2xx")


class Player:
    """The human seats of one game, played until the game is over."""

    def __init__(
        self,
        table: Table,
        apis: list[str],
        rng: random.Random,
        forget: Callable[[str], None] | None = None,
    ) -> None:
        self.table, self.apis, self.rng = table, apis, rng
        # A control (bench.faults): the store forgets the key of the seats' last acknowledged
        # command, and the next command is sent with it again (once).
        self.forget = forget
        self.acknowledged: dict[str, int] = {}  # idempotency key -> the seat that sent it
        self.retries = 0
        self.answers: Counter[str] = Counter()
        self.finished = False

    def play(self) -> None:
        """Look as each human seat; the one with legal commands sends one; until it is over."""
        while not self.finished:
            moved = False
            for seat, token in self.table.tokens.items():
                view = self.look(token)
                if view is None:
                    break
                if view["game"]["status"] == "over":
                    self.finished = True
                    return
                if view["legal"]:
                    self.send(seat, token, self.rng.choice(view["legal"]), view["game"]["version"])
                    moved = True
            if not moved:
                time.sleep(0.2)

    def look(self, token: str) -> dict[str, Any] | None:
        """The seat's view (None after a failure: look again later)."""
        try:
            answer = requests.get(
                f"{self.api()}/games/{self.table.id}",
                headers={"Authorization": f"Bearer {token}"},
                timeout=REQUEST_TIMEOUT_SECONDS,
            )
        except requests.RequestException:
            time.sleep(0.3)
            return None
        if answer.status_code != 200:
            time.sleep(0.3)
            return None
        found: dict[str, Any] = answer.json()
        return found

    def send(self, seat: int, token: str, command: dict[str, Any], version: int) -> None:
        """Send one command; after a failure, the very same request again until it is answered."""
        key = self.key()
        headers = {"Authorization": f"Bearer {token}", "If-Match": f'"{version}"',
                   "Idempotency-Key": key}  # fmt: skip
        while True:
            try:
                answer = requests.post(
                    f"{self.api()}/games/{self.table.id}/commands",
                    json=command,
                    headers=headers,
                    timeout=REQUEST_TIMEOUT_SECONDS,
                )
            except requests.RequestException:
                self.retries += 1
                self.answers["no answer"] += 1
                time.sleep(0.3)
                continue
            self.answers[str(answer.status_code)] += 1
            if answer.status_code >= 500 or answer.status_code == 429:
                self.retries += 1
                time.sleep(0.3)
                continue
            if answer.status_code == 200:
                self.forget = None if key in self.acknowledged else self.forget
                self.acknowledged[key] = seat
            return  # 412 and the like: look again and decide anew

    def key(self) -> str:
        """A new idempotency key; with the control, the last acknowledged one, forgotten."""
        if self.forget is not None and self.acknowledged:
            last = list(self.acknowledged)[-1]
            try:
                self.forget(last)
                return last
            except Exception:  # Redis is restarting: again with the next command
                pass
        return f"chaos-{uuid.uuid4().hex}"

    def api(self) -> str:
        """An API process, as a load balancer would pick."""
        return self.rng.choice(self.apis)


class Stack:
    """Redis, the API processes and the workers of one chaos run, and the faults it suffers."""

    def __init__(self, folder: Path, worker_class: str = WORKER) -> None:
        self.folder = folder
        self.worker_class = worker_class
        self.namespace = f"chaos-{uuid.uuid4().hex[:8]}"
        self.redis = EmbeddedRedis(folder / "redis", appendfsync="always").start()
        self.url = self.redis.url
        self.env = {
            **os.environ,
            "REDIS_URL": self.url,
            "LOVELETTER_NAMESPACE": self.namespace,
            "LOVELETTER_QUEUE": self.namespace,
            "LOVELETTER_RATE_LIMIT_ADDRESS": "off",
            "LOVELETTER_GUESTS_PER_HOUR": "off",  # every simulated player shares one address
            "LOVELETTER_BOT_TABLES": "off",
            "LOVELETTER_RATE_LIMIT_READS": "off",
            "LOVELETTER_WAITERS_PER_ADDRESS": "off",
            "LOVELETTER_RATE_LIMIT_SEAT": "off",
            "LOVELETTER_BOT_BUDGET_MS": "20",
            "PYTHONPATH": str(Path(play.__file__).resolve().parents[1]),
            "PROMETHEUS_MULTIPROC_DIR": str(folder / "metrics"),
        }
        (folder / "metrics").mkdir()
        self.apis: list[str] = []
        self.api_children: list[Child] = []
        self.workers: list[Child] = []
        self.paused: Child | None = None
        self.injected: Counter[str] = Counter()
        self.started_workers = 0
        self.dead_workers: set[str] = set()  # names of workers killed or gone

    def __enter__(self) -> Stack:
        for _ in range(APIS):
            port = free_port()
            command = gunicorn_command("service.wsgi:app", "127.0.0.1", port, 1, 16)
            self.api_children.append(Child("api", command, self.env, quiet=True))
            self.apis.append(f"http://127.0.0.1:{port}")
        for _ in range(WORKERS):
            self.workers.append(self.worker())
        for api in self.apis:
            wait_healthy(api)
        return self

    def __exit__(self, *exc: object) -> None:
        self.calm()
        for child in [*self.api_children, *self.workers]:
            child.stop()
        self.redis.stop()

    def worker(self) -> Child:
        """A new RQ worker process on this run's queue, named so its jobs can be traced."""
        self.started_workers += 1
        name = f"{self.namespace}-worker-{self.started_workers}"
        command = [
            sys.executable, "-m", "rq.cli", "worker", "--url", self.url,
            "--worker-class", self.worker_class, "--with-scheduler",
            "--logging_level", "ERROR", "--name", name, self.namespace,
        ]  # fmt: skip
        return Child(name, command, self.env, quiet=True)

    def faults(self, rng: random.Random) -> Iterator[None]:
        """One step of the fault schedule per second: a worker SIGKILLed and replaced every 2 s,
        one paused for 6 s every 15 s, Redis SIGKILLed and restarted every 20 s."""
        tick = 0
        while True:
            time.sleep(1)
            tick += 1
            self.workers = [w if w.alive() else self.replace(w) for w in self.workers]
            if tick % 2 == 0:
                victim = rng.randrange(len(self.workers))
                os.killpg(self.workers[victim].process.pid, signal.SIGKILL)
                self.workers[victim] = self.replace(self.workers[victim])
                self.injected["worker killed"] += 1
            if tick % 15 == 5 and self.paused is None:
                self.paused = rng.choice(self.workers)
                os.killpg(self.paused.process.pid, signal.SIGSTOP)
                self.injected["worker paused"] += 1
            if tick % 15 == 11:
                self.resume()
            if tick % 20 == 10:
                self.restart_redis()
                self.injected["redis restarted"] += 1
            yield

    def replace(self, worker: Child) -> Child:
        """Reap a dead (or killed) worker and start another."""
        if worker is self.paused:
            self.paused = None
        worker.stop()
        self.dead_workers.add(worker.name)
        return self.worker()

    def resume(self) -> None:
        """Let the paused worker go on."""
        if self.paused is not None:
            os.killpg(self.paused.process.pid, signal.SIGCONT)
            self.paused = None

    def restart_redis(self) -> None:
        """SIGKILL Redis and start it again on the same port from its AOF."""
        port = self.redis.port
        os.kill(self.redis.pid, signal.SIGKILL)
        self.redis.stop()
        self.redis = EmbeddedRedis(self.folder / "redis", port=port, appendfsync="always").start()

    def calm(self) -> None:
        """No more faults: every worker runs."""
        self.resume()

    def context(self) -> Context:
        """The use cases' context on this run's Redis and namespace (to read games back)."""
        settings = Settings(redis_url=self.url, namespace=self.namespace, queue=self.namespace)
        return Context.on(connect(self.url), settings)


class Controls:
    """The faults a test asked for (bench.faults), each on games of its own: a game with a bot
    seat held on lost jobs until the watcher has seen it stuck; a seat's key forgotten and sent
    again; after the play, a stream's tail from an acknowledged command lost, a deal altered."""

    def __init__(self, stack: Stack, tables: list[Table], faults: Faults) -> None:
        self.stack = stack
        self.injected: Counter[str] = Counter()
        with_bots = [table for table in tables if table.seats > len(table.tokens)]
        self.stuck = with_bots[: faults.stuck]
        others = [table for table in tables if table not in self.stuck]
        wanted = [faults.lose, faults.twice, faults.tamper]
        if len(self.stuck) < faults.stuck or len(others) < sum(wanted):
            raise ValueError(f"{len(tables)} games are too few for {faults}")
        self.lose, self.twice, self.tamper = (
            others[sum(wanted[:n]) : sum(wanted[: n + 1])] for n in range(3)
        )
        self.held = {table.id for table in self.stuck}
        ctx = stack.context()
        for game_id in self.held:
            hold(ctx.queue.connection, stack.namespace, game_id)

    def forgetting(self, table: Table) -> Callable[[str], None] | None:
        """How a seat of this game has the store forget its key (None: it never does)."""
        if table not in self.twice:
            return None
        return lambda key: forget_key(self.stack.context().games.store, table.id, key)

    def release_stuck(self, watcher: Watcher) -> None:
        """Let a held game go on once the watcher has seen it wait past the bound."""
        for game_id in [g for g in self.held if watcher.longest.get(g, 0) > STUCK_BOUND_SECONDS]:
            try:
                ctx = self.stack.context()
                version = ctx.games.load(game_id).version
                release(ctx.queue.connection, ctx.games.store, game_id, version)
            except Exception:  # Redis is restarting: next time
                continue
            self.held.discard(game_id)
            self.injected["control: game held on a lost job"] += 1

    def after_play(self, players: list[Player]) -> None:
        """Lose the last acknowledged command of the games to lose, alter a deal of the
        games to tamper with; count the keys sent twice."""
        store = self.stack.context().games.store
        for player in players:
            if player.table in self.lose:
                keys = player.acknowledged
                stored = store.read(player.table.id)
                last = max(e.version for e in stored if e.meta and e.meta.get("key") in keys)
                lose_from(store, player.table.id, last)
                self.injected["control: acknowledged command lost"] += 1
            if player.table in self.twice and player.forget is None:
                self.injected["control: key applied twice"] += 1
        for table in self.tamper:
            tamper_deal(store, table.id)
            self.injected["control: deal tampered with"] += 1


class Watcher:
    """Notes, each time it looks, how long each game has waited on a lost job: it waits on a
    bot, and that bot's job is neither waiting in the queue nor running on a live, unpaused
    worker."""

    def __init__(self, stack: Stack, game_ids: list[str]) -> None:
        self.stack, self.game_ids = stack, game_ids
        self.lost_since: dict[str, float] = {}  # game -> when its job was first seen lost
        self.longest: dict[str, float] = {}

    def look(self) -> None:
        """Read every game and the state of the job it waits on."""
        try:
            ctx = self.stack.context()
            now = time.monotonic()
            for game_id in self.game_ids:
                game = ctx.games.load(game_id)
                waiting = waiting_on(game.table)
                if (
                    waiting is None
                    or waiting.bot is None
                    or self.served(ctx, game_id, game.version)
                ):
                    self.lost_since.pop(game_id, None)
                    continue
                since = self.lost_since.setdefault(game_id, now)
                self.longest[game_id] = max(self.longest.get(game_id, 0.0), now - since)
        except Exception:  # Redis is restarting: look again next time
            return

    def served(self, ctx: Context, game_id: str, version: int) -> bool:
        """Whether the bot's job at this version waits in the queue or runs on a live worker."""
        try:
            job = Job.fetch(job_id(ctx, "bot", game_id, version), connection=ctx.queue.connection)
        except NoSuchJobError:
            return False
        status = job.get_status()
        if status == JobStatus.QUEUED:
            return True
        held = self.stack.dead_workers | ({self.stack.paused.name} if self.stack.paused else set())
        return status == JobStatus.STARTED and job.worker_name not in held


def settle(
    stack: Stack, account: Account, tables: list[Table], players: list[Player], watcher: Watcher
) -> None:
    """Read every stream back and count what was lost, doubled, stuck or unverifiable."""
    ctx = stack.context()
    for table, player in zip(tables, players, strict=True):
        stored = ctx.games.store.read(table.id)
        keys = Counter(item.meta.get("key") for item in stored if item.meta)
        game = ctx.games.load(table.id)
        if game.table is not None and game.table.status == "over":
            account.games_finished += 1
        account.commands_acknowledged += len(player.acknowledged)
        account.commands_lost += sum(1 for key in player.acknowledged if keys[key] == 0)
        account.commands_applied_twice += sum(1 for key, n in keys.items() if key and n > 1)
        account.retries += player.retries
        account.answers.update(player.answers)
        if not verify_lines(export_lines(ctx.games.store, table.id)).ok:
            account.verify_failures += 1
    waits = watcher.longest.values()
    account.longest_wait_on_a_lost_job_seconds = round(max(waits, default=0.0), 1)
    account.games_stuck = sum(1 for waited in waits if waited > STUCK_BOUND_SECONDS)


def wait_healthy(api: str) -> None:
    """Until the API answers /healthz."""
    deadline = time.monotonic() + READY_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        try:
            if requests.get(f"{api}/healthz", timeout=1).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{api} did not answer")
