"""`loveletter bench cluster`: play on a Redis Cluster through two failovers, with and without
the acknowledgement promise, and count what is lost.

Everything runs on loopback and is gone afterwards: a Redis Cluster of 3 masters with a replica
each (a node is taken for failed after 3 s of silence; the cluster keeps serving the slots it
still has), a plain Redis for RQ, two groups of 3 API processes (gunicorn) that differ only in
LOVELETTER_APPEND_REPLICAS (1: an append is answered once a replica has it; 0: as soon as its
master has it), and 3 RQ workers (which append with the promise). Human-vs-bot games are split
between the groups; the driver plays each human seat (it thinks, sends a random legal command,
and looks at the view while the bot moves, after 0.5 s, 1 s, 2 s, then every 4 s, as a client
without push would), spreading its requests over its group's processes.

A third of the way in, a master is failed over by its replica (CLUSTER FAILOVER: coordinated,
nothing lost). Two thirds of the way in, another master's replica is cut off from it for `lag`
seconds (stopped, and its link closed, as a slow replica or a network hiccup would be) and the
master is SIGKILLed: its replica is elected, and the writes it had not received are gone. The
dead node is started again once its replica took over, as a supervisor would, and rejoins as
the new master's replica.

After the play, the bench waits for the bots' last moves, then reads every game: an
acknowledged command (a 2xx answer) whose events are not in the stream is lost; a game still
waiting on its bot is stuck; every stream is verified against the rules.

A test may also ask for faults, in the group whose appends wait for a replica, that these counts
must show (`bench.faults`: games held on lost jobs, a command lost, a deal tampered with, a
game's creation lost); no command-line option does.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import redis
from rq import Queue, Worker

from bench.client import JsonClient
from bench.driver import BOT, EDITION, POLLS, Ack, Call, Driver, Game
from bench.failover import READY_TIMEOUT_SECONDS, Failover, fail_over_twice
from bench.faults import LOSING_WORKER, NO_FAULTS, Faults, hold, lose_from, tamper_deal
from bench.processes import WORKER_CLASS, worker_processes
from bench.store import sample_event, sample_meta
from bench.usage import cpu_seconds, snapshot
from events.audit import export_line, verify_lines
from events.connection import RedisClient, connect
from events.games import GameRepository
from events.redis_cluster import LocalCluster
from events.redis_server import EmbeddedRedis, free_port
from events.store import EventStore, Idempotency, StoredEvent
from game.table import waiting_on
from service.cli.help import add_command
from service.gunicorn_conf import worker_class
from service.serve import Child, gunicorn_command

MODES = {"wait": 1, "no-wait": 0}  # LOVELETTER_APPEND_REPLICAS of each group of API processes
NODE_TIMEOUT_MS = 3000
SETTLE_SECONDS = 2.0  # counted into a failover's window after it is over
GRACE_SECONDS = 20.0  # for the bots' last moves after the play
API_WORKERS, API_THREADS = 1, 8


def register_bench(bench_subparsers: argparse._SubParsersAction) -> None:
    """Add `cluster`: `loveletter bench cluster [--games N] [--seconds S] [--json] ...`."""
    parser = add_command(
        bench_subparsers,
        "cluster",
        summary="games on a Redis Cluster through two failovers, with and without WAIT",
        description="Start a Redis Cluster of 3 masters with a replica each, a plain Redis for"
        " RQ, two groups of API processes (one whose appends wait for a replica, one whose"
        " don't) and RQ workers; play GAMES games for SECONDS while a master is failed over and"
        " another SIGKILLed; print commands/s, latencies, errors, acknowledged commands lost,"
        " games stuck and verify failures of each group. Everything it starts is stopped.",
        examples=("loveletter bench cluster --json",),
    )
    parser.add_argument("--games", type=int, default=500, help="concurrent games")
    parser.add_argument("--seconds", type=float, default=60.0, help="of play")
    parser.add_argument("--think", type=float, default=10.0,
                        help="a human's mean seconds per decision")  # fmt: skip
    parser.add_argument("--lag", type=float, default=1.0,
                        help="seconds the killed master's replica lags behind it")  # fmt: skip
    parser.add_argument("--apis", type=int, default=3, help="API processes per group")
    parser.add_argument("--workers", type=int, default=3, help="RQ workers")
    parser.add_argument("--threads", type=int, default=48, help="driver threads")
    parser.add_argument("--timeout-ms", type=int, default=1000,
                        help="LOVELETTER_APPEND_TIMEOUT_MS of the promise")  # fmt: skip
    parser.add_argument("--seed", type=int, default=1, help="of the driver's choices")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print its figures; 1 if the promise lost a command."""
    result = run_cluster_bench(
        games=args.games,
        seconds=args.seconds,
        think=args.think,
        lag=args.lag,
        apis=args.apis,
        workers=args.workers,
        threads=args.threads,
        timeout_ms=args.timeout_ms,
        seed=args.seed,
    )
    print(json.dumps(result) if args.json else table(result))
    return 1 if result["modes"]["wait"]["acknowledged_lost"] else 0


def run_cluster_bench(
    *,
    games: int = 500,
    seconds: float = 60.0,
    think: float = 10.0,
    lag: float = 1.0,
    apis: int = 3,
    workers: int = 3,
    threads: int = 48,
    timeout_ms: int = 1000,
    seed: int = 1,
    faults: Faults = NO_FAULTS,
) -> dict[str, Any]:
    """Start everything, play, fail over twice, check; the figures as one dict. `faults`: those
    a test asks for besides, in the "wait" group (see bench.faults)."""
    if games < len(MODES) or seconds <= 0 or min(apis, workers, threads) < 1:
        raise ValueError("games >= 2, seconds > 0, apis, workers and threads >= 1")
    began = time.monotonic()
    namespace = f"bench-cluster-{uuid.uuid4().hex[:8]}"
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="loveletter-")))
        cluster = LocalCluster(
            folder / "cluster",
            replicas=1,
            node_timeout_ms=NODE_TIMEOUT_MS,
            extra_args=["--cluster-require-full-coverage", "no"],
        )
        stack.callback(cluster.stop)
        cluster.start()
        queue_server = stack.enter_context(EmbeddedRedis(folder / "queue"))
        queue_client = redis.Redis.from_url(queue_server.url)
        stack.callback(queue_client.close)
        store_client = connect(cluster.url)
        stack.callback(store_client.close)
        env = {
            "REDIS_URL": cluster.url,
            "LOVELETTER_QUEUE_URL": queue_server.url,
            "LOVELETTER_NAMESPACE": namespace,
            "LOVELETTER_QUEUE": namespace,
            "LOVELETTER_APPEND_TIMEOUT_MS": str(timeout_ms),
            "LOVELETTER_RATE_LIMIT_ADDRESS": "off",  # every simulated player shares one address
            "LOVELETTER_GUESTS_PER_HOUR": "off",  # every simulated player shares one address
            "LOVELETTER_BOT_TABLES": "off",
            "LOVELETTER_RATE_LIMIT_READS": "off",
            "LOVELETTER_WAITERS_PER_ADDRESS": "off",
        }
        bases: dict[str, list[str]] = {}
        api_pids: dict[str, list[int]] = {}
        for mode, replicas in MODES.items():
            settings = {**env, "LOVELETTER_APPEND_REPLICAS": str(replicas)}
            bases[mode], api_pids[mode] = stack.enter_context(_apis(folder, mode, settings, apis))
        queue = Queue(namespace, connection=queue_client)
        bot_env = {**env, **BOT_SETTINGS}
        rq_class = LOSING_WORKER if faults.stuck else WORKER_CLASS
        stack.enter_context(worker_processes(queue_server.url, queue, workers, bot_env, rq_class))
        worker_pids = [int(worker.pid) for worker in Worker.all(queue=queue) if worker.pid]
        setup_seconds = time.monotonic() - began
        appends = _append_costs(store_client, namespace, timeout_ms)

        masters = [port for port, role in cluster.roles().items() if role == "master"]
        pids = {
            **{f"api {mode}": api_pids[mode] for mode in MODES},
            "rq workers": worker_pids,
            "redis masters": [node.pid for node in cluster.nodes if node.port in masters],
            "redis queue": [queue_server.pid],
        }
        driver = Driver(bases, think, seed)
        rng = random.Random(seed)
        players = [Game(mode) for mode in MODES for _ in range(games // len(MODES))]
        for player in players:
            driver.add(player, rng.uniform(0, think))
        before = snapshot(pids, masters, queue_server.port)
        driver.t0, driver.wall0 = time.monotonic(), time.time()
        running = driver.play(threads)
        held = _hold_first_games(driver, queue_client, namespace, faults.stuck)
        failovers, window = fail_over_twice(
            cluster, driver, seconds, lag, masters, queue_server.port
        )
        window_snapshot = window.pop("snapshot")
        after = snapshot(pids, masters, queue_server.port, with_ops=False)
        driver.stop(running)
        played = driver.now()
        repository = GameRepository.on(store_client, namespace)
        stuck = _wait_for_bots(repository, driver, GRACE_SECONDS)
        injected = _inject(repository, driver, faults, held)
        checked = _check(repository, driver)
        costs = _api_costs(bases, api_pids, random.Random(seed))
    cpu = {name: after["cpu"][name] - before["cpu"][name] for name in pids}
    bot_moves = [at for at in checked["bot_moves"] if 0 <= at <= played]
    return {
        "benchmark": "cluster",
        "setup": {
            "redis_cluster": "3 masters with 1 replica each; cluster-node-timeout"
            f" {NODE_TIMEOUT_MS} ms; cluster-require-full-coverage no",
            "queue": "a plain Redis for RQ",
            "api_processes_per_group": apis,
            "gunicorn": f"{API_WORKERS} {worker_class} worker per process"
            + (f" x {API_THREADS} threads" if worker_class == "gthread" else ""),
            "rq_workers": workers,
            "groups": {mode: {"LOVELETTER_APPEND_REPLICAS": r} for mode, r in MODES.items()},
            "workers_append_replicas": 1,
            "append_timeout_ms": timeout_ms,
            "games": len(players),
            "game": f"{EDITION}: a human (the driver) against a {BOT} bot (the workers)",
            "think_seconds": f"uniform {0.5 * think:g} to {1.5 * think:g}",
            "look_again_seconds": list(POLLS),
            "driver_threads": threads,
            "lag_seconds": lag,
            "setup_seconds": round(setup_seconds, 1),
        },
        "seconds": round(played, 1),
        "appends": appends,
        "failovers": [_failover_json(item) for item in failovers],
        "modes": {
            mode: _mode_figures(mode, driver, failovers, played, checked, stuck, cpu)
            for mode in MODES
        },
        "bots": {
            "moves": len(bot_moves),
            "moves_per_second": round(len(bot_moves) / played, 1),
            "worker_cpu_seconds": round(cpu["rq workers"], 1),
            "moves_per_worker_cpu_second": round(len(bot_moves) / max(cpu["rq workers"], 1e-9), 1),
            "reply_ms": _percentiles(checked["bot_replies"]),
        },
        "moves_per_game_per_minute": round(
            60
            * (len(bot_moves) + sum(ack.command is not None for ack in driver.acks))
            / played
            / len(players),
            2,
        ),
        "api_cpu_ms": costs,
        "redis": _ops_figures(before, window_snapshot, window["seconds"], driver, checked),
        "cpu_seconds": {name: round(value, 1) for name, value in cpu.items()},
        "wall_seconds": round(time.monotonic() - began, 1),
        **({"faults_injected": injected} if faults else {}),
    }


BOT_SETTINGS = {"LOVELETTER_APPEND_REPLICAS": "1"}  # the workers keep the promise


APPENDS = 2000  # per side, in alternating rounds, before the play
APPEND_ROUNDS = 4
APPEND_GAMES = 60  # spread over the masters


def _append_costs(client: RedisClient, namespace: str, timeout_ms: int) -> dict[str, Any]:
    """One event appended at a time on one connection, with and without WAIT 1, in
    alternating rounds (as `loveletter bench store` does without replicas)."""
    sides = {
        "wait": EventStore(client, namespace=namespace, replicas=1, replica_timeout_ms=timeout_ms),
        "no-wait": EventStore(client, namespace=namespace),
    }
    versions: Counter[str] = Counter()
    seconds: dict[str, list[float]] = {side: [] for side in sides}
    not_replicated = 0
    for _ in range(APPEND_ROUNDS):
        for side, store in sides.items():
            for number in range(APPENDS // APPEND_ROUNDS):
                game_id = f"appends-{side}-{number % APPEND_GAMES}"
                version = versions[game_id]
                event, meta = sample_event(version), sample_meta(version)
                key = Idempotency("bench", f"k{version}")
                started = time.perf_counter()
                result = store.append(game_id, version, [event], idempotency=key, meta=meta)
                seconds[side].append(time.perf_counter() - started)
                not_replicated += not result.replicated
                versions[game_id] = result.current_version
    figures = {
        side: {
            "appends": len(times),
            "appends_per_second": round(len(times) / sum(times), 1),
            **{f"{k}_ms": v for k, v in _percentiles(times).items() if k != "count"},
        }
        for side, times in seconds.items()
    }
    ratio = figures["wait"]["appends_per_second"] / figures["no-wait"]["appends_per_second"]
    return {**figures, "wait_over_no_wait": round(ratio, 3), "not_replicated": not_replicated}


@contextmanager
def _apis(
    folder: Path, mode: str, env: Mapping[str, str], count: int
) -> Iterator[tuple[list[str], list[int]]]:
    """`count` API processes (gunicorn) with these settings; their base URLs and pids."""
    children: list[Child] = []
    bases: list[str] = []
    try:
        for number in range(count):
            port = free_port()
            metrics = folder / f"metrics-{mode}-{number}"
            settings = {**os.environ, **env, "PROMETHEUS_MULTIPROC_DIR": str(metrics)}
            command = gunicorn_command(
                "service.wsgi:app", "127.0.0.1", port, API_WORKERS, API_THREADS
            )
            children.append(Child(f"api {mode} {number}", command, settings, quiet=True))
            bases.append(f"http://127.0.0.1:{port}")
        for base, child in zip(bases, children, strict=True):
            _wait_healthy(base, child)
        yield bases, [child.process.pid for child in children]
    finally:
        for child in children:
            child.stop()


COSTED_CALLS = 150  # of each kind, on one API process of each group, after the play


def _api_costs(
    bases: Mapping[str, list[str]], pids: Mapping[str, list[int]], rng: random.Random
) -> dict[str, Any]:
    """CPU milliseconds one API process spends per call of each kind, measured apart after
    the play: commands (human-vs-human games; the other calls go to another process), views
    (200) and looks that find nothing new (304)."""
    costs: dict[str, Any] = {}
    for mode in MODES:
        target, other = JsonClient(bases[mode][0]), JsonClient(bases[mode][-1])
        pid = pids[mode][0]
        games = [_two_humans(other)]
        started, sent = cpu_seconds([pid]), 0
        while sent < COSTED_CALLS:
            game_id, tokens, version, seat, legal = games[-1]
            if not legal:
                games.append(_two_humans(other))
                continue
            headers = {
                "Authorization": f"Bearer {tokens[seat]}",
                "If-Match": f'"{version}"',
                "Idempotency-Key": uuid.uuid4().hex,
            }
            status, answer = target.post(f"/games/{game_id}/commands", rng.choice(legal), headers)
            sent += 1
            if status != 200:
                raise RuntimeError(f"a command answered {status}: {answer}")
            games[-1] = _next_turn(other, game_id, tokens, answer, seat)
        costs[f"command ({mode})"] = round(1000 * (cpu_seconds([pid]) - started) / sent, 2)
        game_id, tokens, version, seat, _ = games[-1]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        for name, headers in (
            ("view", auth),
            ("not modified", {**auth, "If-None-Match": f'"{version}"'}),
        ):
            started = cpu_seconds([pid])
            for _ in range(COSTED_CALLS):
                target.get(f"/games/{game_id}", headers)
            costs.setdefault(name, []).append(
                round(1000 * (cpu_seconds([pid]) - started) / COSTED_CALLS, 2)
            )
        target.close()
        other.close()
    for name in ("view", "not modified"):
        costs[name] = round(statistics.fmean(costs[name]), 2)
    return costs


Turn = tuple[str, dict[int, str], int, int, list[dict[str, Any]]]


def _two_humans(client: JsonClient) -> Turn:
    """A new human-vs-human game, both seats taken: who acts, with what."""
    status, created = client.post("/games", {"edition": EDITION, "seats": ["human", "human"]})
    if status != 201:
        raise RuntimeError(f"create answered {status}: {created}")
    game_id = created["game"]["id"]
    tokens = {}
    for name in ("p0", "p1"):
        status, joined = client.post(f"/games/{game_id}/seats", {"name": name})
        if status != 201:
            raise RuntimeError(f"join answered {status}: {joined}")
        tokens[joined["seat"]] = joined["token"]
    status, seen = client.get(f"/games/{game_id}", {"Authorization": f"Bearer {tokens[0]}"})
    return _next_turn(client, game_id, tokens, seen, 0)


def _next_turn(
    client: JsonClient, game_id: str, tokens: dict[int, str], answer: Any, seat: int
) -> Turn:
    """Who acts after `answer` (a view of `seat`), and with what (nothing: the game is over)."""
    version = answer["game"]["version"]
    if answer["game"]["status"] != "playing":
        return game_id, tokens, version, seat, []
    if answer["legal"]:
        return game_id, tokens, version, seat, answer["legal"]
    other = 1 - seat
    status, seen = client.get(f"/games/{game_id}", {"Authorization": f"Bearer {tokens[other]}"})
    if status != 200 or not seen["legal"]:
        raise RuntimeError(f"neither seat of {game_id} may act: {status}")
    return game_id, tokens, seen["game"]["version"], other, seen["legal"]


def _wait_healthy(base: str, child: Child) -> None:
    """Return once the API answers /healthz with 200."""
    deadline = time.monotonic() + READY_TIMEOUT_SECONDS
    client = JsonClient(base, timeout=2.0)
    while time.monotonic() < deadline and child.alive():
        try:
            if client.get("/healthz")[0] == 200:
                return
        except (OSError, ValueError):
            client.close()
        time.sleep(0.1)
    raise RuntimeError(f"{child.name} did not answer at {base}")


def _wait_for_bots(repository: GameRepository, driver: Driver, grace: float) -> Counter[str]:
    """Wait until no game waits on its bot (at most `grace` s); the games still waiting."""
    modes = {game_id: mode for mode, ids in driver.game_ids.items() for game_id in ids}
    waiting = set(modes)
    deadline = time.monotonic() + grace
    while waiting:
        waiting = {game_id for game_id in waiting if _waits_on_bot(repository, game_id)}
        if not waiting or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    return Counter(modes[game_id] for game_id in waiting)


def _hold_first_games(
    driver: Driver, queue_client: redis.Redis, namespace: str, count: int
) -> list[str]:
    """Hold the first `count` games the "wait" group creates (bench.faults): their bot jobs
    are lost from now on."""
    held: list[str] = []
    deadline = time.monotonic() + READY_TIMEOUT_SECONDS
    while len(held) < count:
        if time.monotonic() > deadline:
            raise RuntimeError(f"the driver created {len(held)} games to hold, not {count}")
        for game_id in _created(driver)[len(held) : count]:
            hold(queue_client, namespace, game_id)
            held.append(game_id)
        time.sleep(0.01)
    return held


def _created(driver: Driver) -> list[str]:
    """The games of the "wait" group, in the order they were created."""
    return [ack.game_id for ack in list(driver.acks) if ack.mode == "wait" and ack.command is None]


def _inject(
    repository: GameRepository, driver: Driver, faults: Faults, held: list[str]
) -> dict[str, Any]:
    """After the play, in games of the "wait" group that are not held: lose the last
    acknowledged command of `faults.lose` games, alter a deal of `faults.tamper`, erase the
    stream of `faults.erase` (their creations and every command acknowledged in them lost).
    What was done."""
    store = repository.store
    moves: dict[str, list[int]] = {}  # game -> the versions its acknowledged commands reached
    for ack in driver.acks:
        if ack.mode == "wait" and ack.command is not None:
            moves.setdefault(ack.game_id, []).append(ack.version)
    free = [game_id for game_id in _created(driver) if game_id not in held]
    lose = [game_id for game_id in free if game_id in moves][: faults.lose]
    rest = [game_id for game_id in free if game_id not in lose]
    tamper, erase = rest[: faults.tamper], rest[faults.tamper : faults.tamper + faults.erase]
    if len(lose) < faults.lose or len(erase) < faults.erase:
        raise RuntimeError(f"the play left too few games for {faults}")
    for game_id in lose:
        last = max(moves[game_id])
        stored = store.read(game_id, 1, last)
        lose_from(store, game_id, max(item.version for item in stored if item.meta is not None))
    for game_id in tamper:
        tamper_deal(store, game_id)
    for game_id in erase:
        store.redis.delete(store.stream_key(game_id))
    return {
        "held": held,
        "lost": lose,
        "tampered": tamper,
        "erased": {game_id: len(moves.get(game_id, [])) for game_id in erase},
    }


def _waits_on_bot(repository: GameRepository, game_id: str) -> bool:
    waiting = waiting_on(repository.load(game_id).table)
    return waiting is not None and waiting.bot is not None


def _check(repository: GameRepository, driver: Driver) -> dict[str, Any]:
    """Read every game: acknowledged commands not in their stream, streams the rules refuse,
    and when the bots moved (seconds into the play)."""
    lost: Counter[str] = Counter()
    lost_creations: Counter[str] = Counter()
    failures: Counter[str] = Counter()
    batches: dict[str, dict[int, dict[str, Any]]] = {}
    bot_moves: list[float] = []
    replies: list[float] = []
    for mode, ids in driver.game_ids.items():
        for game_id in ids:
            stored = repository.store.read(game_id)
            batches[game_id] = _batches(stored)
            if stored and not verify_lines(export_line(item) for item in stored).ok:
                failures[mode] += 1
            asked = None  # when the human's move the bot answers was appended
            for _, meta in sorted(batches[game_id].items()):
                if meta.get("by") == "bot":
                    bot_moves.append(float(meta["at"]) - driver.wall0)
                    if asked is not None:
                        replies.append(float(meta["at"]) - asked)
                    asked = None
                elif meta.get("by") == "seat":
                    asked = float(meta["at"])
    for ack in driver.acks:
        found = batches.get(ack.game_id, {}).get(ack.version)
        if ack.command is None:
            lost_creations[ack.mode] += found is None or found.get("by") != "creator"
        else:
            lost[ack.mode] += found is None or found.get("command") != ack.command
    return {
        "lost": lost,
        "lost_creations": lost_creations,
        "verify_failures": failures,
        "bot_moves": bot_moves,
        "bot_replies": replies,
    }


def _batches(stored: list[StoredEvent]) -> dict[int, dict[str, Any]]:
    """Each command's meta, by the version of its last event."""
    found: dict[int, dict[str, Any]] = {}
    meta: dict[str, Any] | None = None
    for item in stored:
        if item.meta is not None:
            if meta is not None:
                found[item.version - 1] = meta
            meta = item.meta
    if meta is not None and stored:
        found[stored[-1].version] = meta
    return found


def _mode_figures(
    mode: str,
    driver: Driver,
    failovers: list[Failover],
    played: float,
    checked: Mapping[str, Any],
    stuck: Counter[str],
    cpu: Mapping[str, float],
) -> dict[str, Any]:
    """One group's figures: throughput, latencies (overall and in each failover), errors,
    losses, and its API processes' CPU."""
    calls = [call for call in driver.calls if call.mode == mode]
    acks = [ack for ack in driver.acks if ack.mode == mode and ack.command is not None]
    api_cpu = cpu[f"api {mode}"]
    calm = failovers[0].began if failovers else played  # nothing failed yet
    figures: dict[str, Any] = {
        "append_replicas": MODES[mode],
        "commands_acknowledged": len(acks),
        "commands_per_second": round(len(acks) / played, 1),
        **_latencies(calls, acks, 0.0, played),
        "before_failovers": {
            "to_s": round(calm, 1),
            "commands_per_second": round(sum(ack.at < calm for ack in acks) / calm, 1),
            **_latencies(calls, acks, 0.0, calm),
        },
        "during_failovers": [
            {
                "kind": item.kind,
                "from_s": round(item.began, 1),
                "to_s": round(item.ended + SETTLE_SECONDS, 1),
                **_latencies(calls, acks, item.began, item.ended + SETTLE_SECONDS),
            }
            for item in failovers
        ],
        "acknowledged_lost": checked["lost"][mode],
        "acknowledged_creations_lost": checked["lost_creations"][mode],
        "games_played": len(driver.game_ids[mode]),
        "games_finished": driver.games_finished[mode],
        "games_stuck": stuck[mode],
        "verify_failures": checked["verify_failures"][mode],
        "api_cpu_seconds": round(api_cpu, 1),
        "api_cpu_ms_per_call": round(1000 * api_cpu / max(len(calls), 1), 2),
        "calls_per_command": round(len(calls) / max(len(acks), 1), 2),
    }
    return figures


def _latencies(calls: list[Call], acks: list[Ack], start: float, end: float) -> dict[str, Any]:
    """Figures of the calls begun, and the commands acknowledged, between start and end."""
    inside = [call for call in calls if start <= call.started < end]
    answered = [call.seconds for call in inside if call.kind == "command" and call.status == 200]
    reads = [call.seconds for call in inside if call.kind == "read" and call.status in (200, 304)]
    done = [ack.completion for ack in acks if start <= ack.at < end]
    errors = Counter(
        "no answer" if call.status == 0 else str(call.status)
        for call in inside
        if call.status not in (200, 201, 304)
    )
    return {
        "command_calls": sum(call.kind == "command" for call in inside),
        "command_ms": _percentiles(answered),
        "command_completion_ms": _percentiles(done),
        "read_ms": _percentiles(reads),
        "errors_by_status": dict(sorted(errors.items())),
    }


def _percentiles(seconds: list[float]) -> dict[str, float]:
    if not seconds:
        return {"count": 0, "p50": 0.0, "p99": 0.0}
    ordered = sorted(seconds)
    cuts = statistics.quantiles(ordered, n=100, method="inclusive") if len(ordered) > 1 else None
    return {
        "count": len(ordered),
        "p50": round(statistics.median(ordered) * 1000, 1),
        "p99": round((cuts[98] if cuts else ordered[0]) * 1000, 1),
    }


def _ops_figures(
    before: Mapping[str, Any],
    window: Mapping[str, Any],
    seconds: float,
    driver: Driver,
    checked: Mapping[str, Any],
) -> dict[str, Any]:
    """Redis operations and CPU per move while nothing failed (the play's first third)."""
    human = sum(1 for ack in driver.acks if ack.command is not None and ack.at <= seconds)
    bots = sum(1 for at in checked["bot_moves"] if 0 <= at <= seconds)
    reads = sum(1 for call in driver.calls if call.kind == "read" and call.started <= seconds)
    moves = max(human + bots, 1)
    by_master = {port: window["store"][port] - before["store"][port] for port in before["store"]}
    store: Counter[str] = sum(by_master.values(), Counter())
    queue = window["queue"] - before["queue"]
    cpu = window["cpu"]["redis masters"] - before["cpu"]["redis masters"]
    return {
        "window_seconds": round(seconds, 1),
        "moves": human + bots,
        "human_moves": human,
        "bot_moves": bots,
        "reads": reads,
        "store_operations_per_move": round(sum(store.values()) / moves, 1),
        "store_operations_per_second": round(sum(store.values()) / seconds, 1),
        "store_top_operations_per_move": {
            name: round(count / moves, 2) for name, count in store.most_common(10)
        },
        "store_operations_per_second_by_master": sorted(
            (round(sum(calls.values()) / seconds, 1) for calls in by_master.values()),
            reverse=True,
        ),
        "queue_operations_per_bot_move": round(sum(queue.values()) / max(bots, 1), 1),
        "masters_cpu_seconds": round(cpu, 2),
        "masters_cpu_us_per_move": round(1e6 * cpu / moves, 1),
    }


def _failover_json(item: Failover) -> dict[str, Any]:
    return {
        "kind": item.kind,
        "master_port": item.master,
        "replica_port": item.replica,
        "at_s": round(item.began, 1),
        "lasted_s": round(item.ended - item.began, 1),
        **{name: round(value, 1) for name, value in item.phases.items()},
        **({"error": item.error} if item.error else {}),
    }


def table(result: Mapping[str, Any]) -> str:
    """The figures as a short readable table."""
    setup = result["setup"]
    lines = [
        f"Cluster benchmark: {setup['games']} games for {result['seconds']} s"
        f" ({setup['redis_cluster']}; {setup['api_processes_per_group']} API processes per"
        f" group, {setup['rq_workers']} RQ workers)",
    ]
    appends = result["appends"]
    lines.append(
        f"  one append at a time: {appends['wait']['appends_per_second']}/s with WAIT 1,"
        f" {appends['no-wait']['appends_per_second']}/s without"
        f" (p99 {appends['wait']['p99_ms']} vs {appends['no-wait']['p99_ms']} ms)"
    )
    for item in result["failovers"]:
        lines.append(
            f"  {item['kind']} of the master on port {item['master_port']} at {item['at_s']} s,"
            f" lasting {item['lasted_s']} s" + (f" ({item['error']})" if "error" in item else "")
        )
    lines.append(
        f"  {'group':<9}{'cmd/s':>7}{'p50':>8}{'p99':>8}{'done p99':>10}{'lost':>6}"
        f"{'stuck':>7}{'verify':>8}  errors"
    )
    for mode, row in result["modes"].items():
        lines.append(
            f"  {mode:<9}{row['commands_per_second']:>7}{row['command_ms']['p50']:>8}"
            f"{row['command_ms']['p99']:>8}{row['command_completion_ms']['p99']:>10}"
            f"{row['acknowledged_lost']:>6}{row['games_stuck']:>7}{row['verify_failures']:>8}"
            f"  {row['errors_by_status']}"
        )
        for window in row["during_failovers"]:
            lines.append(
                f"    during {window['kind']:<17} p50 {window['command_ms']['p50']} ms,"
                f" p99 {window['command_ms']['p99']} ms, done p99"
                f" {window['command_completion_ms']['p99']} ms, {window['errors_by_status']}"
            )
    bots, ops = result["bots"], result["redis"]
    lines.append(
        f"  bots {bots['moves_per_second']} moves/s, {bots['moves_per_worker_cpu_second']}"
        f" per worker CPU second, reply p50 {bots['reply_ms']['p50']} ms;"
        f" Redis {ops['store_operations_per_move']} operations per move"
    )
    return "\n".join(lines)
