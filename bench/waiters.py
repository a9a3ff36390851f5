"""`loveletter bench waiters`: thousands of idle clients wait on games while `bench api`'s command
load runs, against the same gunicorn, and the same load runs without them.

An eighth of the waiters (`--following`) follow games the command drivers will play, two per
game (a seat's event stream with its token in the header, and the other seat's by stream ticket,
or in one game of four by long poll), the followed games spread over all the drivers' games
(with 2,000 waiters, about one played game in four); the others wait on tables where nobody
comes (the creator's stream or long poll, a spectator's; `--quiet stream` or `poll` makes
them all one kind; their long polls' first asks wait from a whole wait down to nearly none, so
that they ask again spread over a wait, as clients that came at different times do, and not in
waves a short load could fall between). Order of the run: the load without
waiters for half its time; every waiter opens (from several processes of the crowd) and is held
for `--hold` seconds, alone for a long poll's wait (what they cost the API processes in CPU by
themselves), then with the load run inside that hold; the waiters close; the load without them
for the other half. Figures:
how long each followed event took from its command's acknowledgement to each waiting client of
its game (0 when it arrived first), the commands with waiters against without, the API
processes' CPU per command on both sides, failures, the API processes' memory and Redis
connections.
"""

from __future__ import annotations

import argparse
import bisect
import json
import os
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench import api as bench_api
from bench.client import JsonClient
from bench.crowd import POLL, STREAM, CrowdProcesses, Report, Waiter, describe
from bench.figures import latency_figures
from bench.games import GameDriver
from bench.store import delete_namespace
from events.connection import RedisClient, connect, redis_url
from service.cli.help import add_command
from service.gunicorn_conf import (
    DEFAULT_WORKER_CLASS,
    default_workers,
    raise_open_files_limit,
)
from service.serve import Child

TIMED_DRIVER = "bench.waiters:make_timed_driver"
THROUGHPUT_TARGET = 0.8
DELIVERY_P99_TARGET_MS = 100.0
FOLLOWING = 0.125  # of the waiters: 250 of 2,000 follow about one game in four that is played
POLLING_FOLLOWERS = 4  # one followed game in 4 has a seat following by long poll, not stream
# How the host and a spectator wait on a quiet table, alternately (--quiet)
QUIET_PAIRS = {
    "both": [(POLL, STREAM), (STREAM, POLL)],
    STREAM: [(STREAM, STREAM), (STREAM, STREAM)],
    POLL: [(POLL, POLL), (POLL, POLL)],
}
QUIET_KINDS = tuple(QUIET_PAIRS)
SETTLE_SECONDS = 2.0  # after every waiter opened, before the load starts
IDLE_SECONDS = 5.0  # the waiters' own CPU is measured this long when no long poll says longer
ROUNDS = 4  # of the load with waiters; half as many before them and after
ACKS: list[tuple[str, int, float]] = []  # (game, version after the command, acknowledged at)


class TimedGameDriver(GameDriver):
    """bench api's game driver, noting when each command was acknowledged."""

    def __call__(self) -> None:
        super().__call__()
        ACKS.append((self.game_id, self.version, time.monotonic()))

    def games(self) -> list[tuple[str, dict[int, str], int]]:
        """(game, tokens, version) of the game being played and those set up, in play order."""
        ready = [(game.game_id, game.tokens, game.version) for game in reversed(self.ready)]
        return [(self.game_id, self.tokens, self.version), *ready]


def make_timed_driver(base_url: str) -> TimedGameDriver:
    """One simulated client whose acknowledgements are noted (its first game begun)."""
    driver = TimedGameDriver(base_url)
    driver.prepare()
    return driver


def register_bench(bench_subparsers: argparse._SubParsersAction) -> None:
    """Add `waiters` to the `bench` group."""
    parser = add_command(
        bench_subparsers,
        "waiters",
        summary="idle waiting clients (streams, long polls) beside the command load",
        description="Open WAITERS waiting clients on loopback (event streams and long polls,"
        " spread over games), hold them, and run the command load of `bench api` with and"
        " without them in the same run; print delivery latency to each waiting client, the"
        " throughput and p99 ratios, the API's CPU per command, errors and drops, the API"
        " processes' memory and Redis connections.",
        examples=(
            "loveletter bench waiters --json",
            "loveletter bench waiters --waiters 500",
            "loveletter bench waiters --waiters 10000 --following 0 --quiet stream",
        ),
    )
    parser.add_argument("--waiters", type=int, default=2000, help="waiting clients")
    parser.add_argument("--hold", type=float, default=60.0, help="seconds the waiters are held")
    parser.add_argument("--following", type=float, default=FOLLOWING,
                        help="share of waiters following the games being played")  # fmt: skip
    parser.add_argument("--quiet", choices=QUIET_KINDS, default="both",
                        help="how the waiters on quiet tables wait: a stream and a long poll"
                        " a table (both), or only streams, or only long polls")  # fmt: skip
    parser.add_argument("--games", type=int, default=16, help="concurrent games of the load")
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="seconds of load with waiters (as many without)")  # fmt: skip
    parser.add_argument("--warmup", type=float, default=2.0, help="unmeasured seconds per side")
    parser.add_argument("--workers", type=int, default=default_workers(), help="gunicorn workers")
    parser.add_argument("--poll-wait", type=float, default=30.0, help="a long poll's wait")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print its figures."""
    result = run_waiters_bench(
        waiters=args.waiters,
        hold=args.hold,
        following=args.following,
        quiet=args.quiet,
        games=args.games,
        seconds=args.seconds,
        warmup=args.warmup,
        workers=args.workers,
        poll_wait=args.poll_wait,
    )
    print(json.dumps(result) if args.json else table(result))
    return 0


@dataclass(frozen=True)
class Served:
    """The API under gunicorn: its base URL and its master process."""

    base_url: str
    child: Child

    def processes(self) -> list[int]:
        """The API processes: gunicorn's workers (the master serves no request)."""
        return _children(self.child.process.pid)


def run_waiters_bench(
    *,
    waiters: int = 2000,
    hold: float = 60.0,
    following: float = FOLLOWING,
    quiet: str = "both",
    games: int = 16,
    seconds: float = 10.0,
    warmup: float = 2.0,
    workers: int | None = None,
    poll_wait: float = 30.0,
) -> dict[str, Any]:
    """Measure the command load without waiters, with them, and without again; the figures."""
    if waiters < 0 or games < 1 or seconds <= 0 or not 0 <= following <= 1:
        raise ValueError("waiters >= 0, games >= 1, seconds > 0 and 0 <= following <= 1")
    if quiet not in QUIET_KINDS:
        raise ValueError(f"quiet is one of {', '.join(QUIET_KINDS)}")
    open_files = raise_open_files_limit()
    workers = workers or default_workers()
    url = redis_url()
    namespace = f"bench-waiters-{uuid.uuid4().hex[:8]}"
    env = served_env(url, namespace)
    redis = connect(url)
    ACKS.clear()
    try:
        with served_app(env, workers) as served:
            base = served.base_url
            without = bench_api.Side(bench_api.COMMAND_APP, bench_api.COMMAND_DRIVER, base, games)
            without.drive(warmup, record=False)
            plain_cpu = sum(_api_cpu(served, lambda: drive(without, seconds / 2, ROUNDS // 2)))
            before = _resources(served, redis)
            side = bench_api.Side(bench_api.COMMAND_APP, TIMED_DRIVER, base, games)
            crowd = crowd_of(side, base, waiters, following, poll_wait, quiet)
            idle = idle_seconds(hold, seconds, warmup, poll_wait)
            held = hold_crowd(served, redis, crowd, side, hold=hold, seconds=seconds,
                              warmup=warmup, idle=idle)  # fmt: skip
            held["before_waiters"] = before
            plain_cpu += sum(_api_cpu(served, lambda: drive(without, seconds / 2, ROUNDS // 2)))
    finally:
        delete_namespace(redis, namespace)
        redis.close()
    report: Report = held.pop("report")
    plain, loaded = without.figures(), side.figures()
    ratio = loaded.requests_per_second / max(plain.requests_per_second, 1e-9)
    delivery = deliveries(report, crowd)
    failures = len(report.errors) + report.dropped + plain.errors + loaded.errors
    loaded_cpu = sum(held["while_held_under_load"]["api_cpu_seconds"])
    return {
        "benchmark": "waiters",
        "waiters": waiters,
        "hold_seconds": hold,
        "following_share": following,
        "quiet_tables": quiet,
        "games": games,
        "seconds": seconds,
        "open_files_limit": open_files,
        "gunicorn": {"worker_class": DEFAULT_WORKER_CLASS, "workers": workers},
        "without_waiters": asdict(plain),
        "with_waiters": asdict(loaded),
        "throughput_ratio": round(ratio, 3),
        "p99_ratio": round(loaded.p99_ms / max(plain.p99_ms, 1e-9), 3),
        "delivery": delivery,
        # Steadier than the throughput ratio on a shared machine: what the waiters add to the
        # API's work per command, whatever else took the cores meanwhile.
        "api_cpu_ms_per_command": {
            "without_waiters": round(plain_cpu / max(plain.requests, 1) * 1000, 3),
            "with_waiters": round(loaded_cpu / max(loaded.requests, 1) * 1000, 3),
        },
        "crowd": describe(report),
        "error_samples": report.errors[:5],
        **held,
        "targets": {
            "throughput_ratio": THROUGHPUT_TARGET,
            "delivery_p99_ms": DELIVERY_P99_TARGET_MS,
            "errors": 0,
        },
        "meets_targets": ratio >= THROUGHPUT_TARGET
        and delivery["p99_ms"] <= DELIVERY_P99_TARGET_MS
        and failures == 0
        and report.opened == waiters,
    }


def served_env(url: str, namespace: str) -> dict[str, str]:
    """The API's environment: its Redis and namespace; no limit per address (every client is
    on loopback), the seat limit the service's own."""
    return {
        **os.environ,
        "REDIS_URL": url,
        "LOVELETTER_NAMESPACE": namespace,
        "LOVELETTER_RATE_LIMIT_ADDRESS": bench_api.NO_LIMIT,
        "LOVELETTER_GUESTS_PER_HOUR": "off",  # every simulated player shares one address
        "LOVELETTER_BOT_TABLES": "off",
        "LOVELETTER_RATE_LIMIT_READS": "off",
        "LOVELETTER_WAITERS_PER_ADDRESS": "off",
        "LOVELETTER_RATE_LIMIT_SEAT": bench_api.SEAT_LIMIT,
        "LOVELETTER_SEEDED_GAMES": "1",
    }


def _api_cpu(served: Served, load: Callable[[], None]) -> list[float]:
    """Each API process's CPU seconds while `load` runs."""
    processes = served.processes()
    before = [cpu_seconds(pid) for pid in processes]
    load()
    return [cpu_seconds(pid) - was for pid, was in zip(processes, before, strict=True)]


def idle_seconds(hold: float, seconds: float, warmup: float, poll_wait: float) -> float:
    """How long the waiters' own CPU is measured, before the load: a long poll's whole wait
    (every long poll asks again once), or what the hold leaves besides the load."""
    return max(1.0, min(poll_wait, hold - SETTLE_SECONDS - warmup - seconds))


def drive(side: bench_api.Side, seconds: float, rounds: int) -> None:
    """Run the load for `seconds` in `rounds`, each on new connections: the kernel spreads
    connections over the workers by their addresses, so a single round may load one worker
    more than the other for all of its time."""
    for _ in range(rounds):
        side.drive(seconds / rounds)


def crowd_of(
    side: bench_api.Side,
    base: str,
    count: int,
    following: float,
    poll_wait: float,
    quiet: str = "both",
) -> list[Waiter]:
    """The waiters: two per followed game, for the `following` share (both seats by stream, or
    in one followed game in POLLING_FOLLOWERS the second by long poll), the followed games
    spread evenly over the games the drivers will play; two per table where nobody comes for
    the rest (tables opened here: the host and a spectator, waiting as `quiet` says)."""
    followers = min(int(count * following) // 2 * 2, count)
    played: list[tuple[str, dict[int, str], int]] = []
    per_driver = [call.games() for call in side.calls if isinstance(call, TimedGameDriver)]
    for turn in range(max((len(games) for games in per_driver), default=0)):
        played += [games[turn] for games in per_driver if turn < len(games)]
    step = len(played) / max(followers // 2, 1)  # followed games spread over the play order
    followed = [played[int(number * step)] for number in range(min(followers // 2, len(played)))]
    crowd: list[Waiter] = []
    for number, (game_id, tokens, version) in enumerate(followed):
        stream = f"/games/{game_id}/stream?after={version}"
        crowd.append(Waiter(STREAM, game_id, stream, tokens[0], version))
        if number % POLLING_FOLLOWERS:
            ticket = _ticket_path(base, game_id, tokens[1], version)
            crowd.append(Waiter(STREAM, game_id, ticket, None, version))
        else:
            feed = f"/games/{game_id}/events"
            crowd.append(Waiter(POLL, game_id, feed, tokens[1], version, poll_wait))
    client = JsonClient(base)
    while len(crowd) < count:
        status, created = client.post(
            "/games", {"edition": "2019", "seats": ["human", "human"], "name": "host"}
        )
        if status != 201:
            raise RuntimeError(f"create answered {status}: {created}")
        game_id, token = created["game"]["id"], created["token"]
        version = created["game"]["version"]
        host, spectator = QUIET_PAIRS[quiet][len(crowd) // 2 % 2]
        first_wait = poll_wait * (1 - len(crowd) / count)  # from a whole wait down to nearly none
        crowd.append(_quiet_waiter(host, game_id, token, version, poll_wait, first_wait))
        crowd.append(_quiet_waiter(spectator, game_id, None, version, poll_wait, first_wait))
    client.close()
    return crowd[:count]


def _quiet_waiter(
    kind: str,
    game_id: str,
    token: str | None,
    version: int,
    poll_wait: float,
    first_wait: float | None = None,
) -> Waiter:
    """A waiter on a table where nobody comes: its stream, or its long poll of the feed (its
    first ask waiting `first_wait`, so that the quiet long polls ask again spread over a wait)."""
    if kind == STREAM:
        return Waiter(STREAM, game_id, f"/games/{game_id}/stream?after={version}", token, version)
    feed = f"/games/{game_id}/events"
    return Waiter(POLL, game_id, feed, token, version, poll_wait, first_wait)


def _ticket_path(base: str, game_id: str, token: str, version: int) -> str:
    """The stream's path with a fresh ticket of the seat, resuming after `version`."""
    client = JsonClient(base)
    status, answer = client.post(
        f"/games/{game_id}/stream-tickets", None, {"Authorization": f"Bearer {token}"}
    )
    client.close()
    if status != 201:
        raise RuntimeError(f"stream ticket answered {status}: {answer}")
    return f"{answer['url']}&after={version}"


def hold_crowd(
    served: Served,
    redis: RedisClient,
    crowd: list[Waiter],
    side: bench_api.Side,
    *,
    hold: float,
    seconds: float,
    warmup: float,
    idle: float = IDLE_SECONDS,
) -> dict[str, Any]:
    """Open the crowd in processes of its own, run the load inside the hold, close it; figures
    (with what the waiters alone cost the API processes in CPU, before the load)."""
    parts = urlsplit(served.base_url)
    assert parts.hostname is not None and parts.port is not None
    crowds = CrowdProcesses(parts.hostname, parts.port, crowd)
    try:
        started = time.monotonic()
        errors = crowds.open()
        open_seconds = time.monotonic() - started
        held_from = time.monotonic()
        time.sleep(SETTLE_SECONDS)
        quiet = _resources(served, redis)
        quiet["api_cpu_per_second"] = _cpu_per_second(served, idle)
        quiet["seconds"] = round(idle, 1)
        side.drive(warmup, record=False)
        used = _api_cpu(served, lambda: drive(side, seconds, ROUNDS))
        loaded = _resources(served, redis)
        loaded["api_cpu_seconds"] = [round(seconds, 2) for seconds in used]
        time.sleep(max(0.0, held_from + hold - time.monotonic()))
        report = crowds.stop()
        held_for = time.monotonic() - held_from
    finally:
        crowds.close()
    return {
        "report": report,
        "crowd_processes": crowds.processes,
        "opening_seconds": round(open_seconds, 2),
        "held_seconds": round(held_for, 1),
        "while_held_idle": quiet,
        "while_held_under_load": loaded,
        "opening_errors": len(errors),
    }


def deliveries(report: Report, crowd: list[Waiter]) -> dict[str, Any]:
    """Delivery latency of every followed event to each of its game's waiters: from the
    acknowledgement of the command that appended it to its receipt (0 when it came first)."""
    acks: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for game_id, version, at in ACKS:
        acks[game_id].append((version, at))
    for found in acks.values():
        found.sort()
    latencies: dict[str, list[float]] = {STREAM: [], POLL: []}
    early = 0
    seen: set[tuple[int, int]] = set()
    repeated = 0
    for index, game_id, version, at in report.receipts:
        if (index, version) in seen:
            repeated += 1
            continue
        seen.add((index, version))
        commands = acks.get(game_id)
        if not commands:
            continue
        position = bisect.bisect_left(commands, (version, float("-inf")))
        if position == len(commands):
            continue  # appended by no timed command (e.g. setting the game up)
        latency = at - commands[position][1]
        early += latency < 0
        latencies[crowd[index].kind].append(max(latency, 0.0))
    every = latencies[STREAM] + latencies[POLL]
    expected = _expected(acks, crowd)
    return {
        **latency_figures(every),
        "by_kind": {kind: latency_figures(values) for kind, values in latencies.items()},
        "expected": expected,
        "missing": max(expected - len(every), 0),
        "repeated": repeated,
        "before_their_acknowledgement": early,
    }


def _expected(acks: Mapping[str, list[tuple[int, float]]], crowd: list[Waiter]) -> int:
    """How many deliveries the followers should have received: every event after the version
    each waiter started from, up to its game's last acknowledged command."""
    return sum(
        max(acks[waiter.game_id][-1][0] - waiter.after, 0)
        for waiter in crowd
        if acks.get(waiter.game_id)
    )


def _resources(served: Served, redis: RedisClient) -> dict[str, Any]:
    """The API processes' memory and Redis connections, and Redis's connected clients."""
    port = urlsplit(redis_url()).port or 6379
    processes = served.processes()
    return {
        "api_processes": len(processes),
        "api_rss_mb": [round(_rss(pid) / 2**20, 1) for pid in processes],
        "api_redis_connections": [redis_connections(pid, port) for pid in processes],
        "redis_connected_clients": _connected_clients(redis),
    }


def _connected_clients(client: RedisClient) -> int:
    """Redis's `connected_clients` (every client of the server, other programs' included)."""
    info: Any = client.info("clients")
    return int(info["connected_clients"])


def _cpu_per_second(served: Served, seconds: float) -> list[float]:
    """Each API process's CPU time per second over the next `seconds` (cores busy)."""
    started = time.monotonic()
    used = _api_cpu(served, lambda: time.sleep(seconds))
    took = time.monotonic() - started
    return [round(cpu / took, 3) for cpu in used]


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far, user and system (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss(pid: int) -> int:
    """A process's resident memory in bytes (0 once it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def redis_connections(pid: int, redis_port: int) -> int:
    """How many TCP connections the process has open to the Redis port (Linux /proc)."""
    sockets = set()
    try:
        entries = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return 0
    for entry in entries:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{entry}")
        except OSError:  # closed meanwhile (e.g. the listing's own descriptor)
            continue
        if target.startswith("socket:["):
            sockets.add(target[len("socket:[") : -1])
    found = 0
    for table_name in ("tcp", "tcp6"):
        try:
            rows = Path(f"/proc/{pid}/net/{table_name}").read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            columns = row.split()
            remote_port = int(columns[2].rsplit(":", 1)[1], 16)
            if remote_port == redis_port and columns[9] in sockets and columns[3] == "01":
                found += 1
    return found


def _children(pid: int) -> list[int]:
    """The process's children (Linux /proc)."""
    try:
        tasks = Path(f"/proc/{pid}/task").iterdir()
        return sorted(
            int(child) for task in tasks for child in (task / "children").read_text().split()
        )
    except OSError:
        return []


@contextmanager
def served_app(env: Mapping[str, str], workers: int) -> Iterator[Served]:
    """The real app under gunicorn (our config: gevent workers) on a free port."""
    with bench_api.gunicorn_app(bench_api.COMMAND_APP, env, workers, 1) as (base_url, child):
        yield Served(base_url, child)


def table(result: Mapping[str, Any]) -> str:
    """The figures as a few readable lines."""
    delivery, crowd = result["delivery"], result["crowd"]
    plain, loaded = result["without_waiters"], result["with_waiters"]
    under, idle = result["while_held_under_load"], result["while_held_idle"]
    cpu = result["api_cpu_ms_per_command"]
    return "\n".join(
        [
            f"Waiters benchmark: {result['waiters']} waiting clients held"
            f" {result['held_seconds']} s, {result['games']} games of commands,"
            f" gunicorn {result['gunicorn']['workers']} {result['gunicorn']['worker_class']}"
            " workers",
            f"  commands/s without waiters {plain['requests_per_second']}"
            f" (p99 {plain['p99_ms']} ms), with {loaded['requests_per_second']}"
            f" (p99 {loaded['p99_ms']} ms): ratio {result['throughput_ratio']}"
            f" (target >= {THROUGHPUT_TARGET})",
            f"  delivery p50 {delivery['p50_ms']} ms, p99 {delivery['p99_ms']} ms, max"
            f" {delivery['max_ms']} ms over {delivery['count']} deliveries (missing"
            f" {delivery['missing']}, repeated {delivery['repeated']})",
            f"  waiters opened {crowd['opened']} in {result['opening_seconds']} s from"
            f" {result['crowd_processes']} processes, open at the end {crowd['open_at_end']},"
            f" errors {crowd['errors']}, dropped {crowd['dropped']}",
            f"  API CPU for the waiters alone {idle['api_cpu_per_second']} cores",
            f"  API CPU per command {cpu['without_waiters']} ms without waiters,"
            f" {cpu['with_waiters']} ms with them",
            f"  API RSS {under['api_rss_mb']} MB, Redis connections per API process"
            f" {under['api_redis_connections']}, Redis connected_clients"
            f" {under['redis_connected_clients']}",
            f"  targets {'met' if result['meets_targets'] else 'NOT met'}",
        ]
    )
