"""`loveletter bench api`: commands/s and p50/p99 through gunicorn, beside a bare XADD endpoint.

Both apps run under the same gunicorn settings as `loveletter serve`, against the configured
Redis (REDIS_URL or the embedded one), in a fresh key namespace deleted afterwards. N client
threads (one simulated game each, one keep-alive connection each) call a driver in a loop, the
two sides taking turns over several rounds so that machine noise hits both alike. A driver
factory `make(base_url) -> callable` is set up once per client (untimed); each call of the
callable is one timed request. A driver may also have `prepare() -> int`, called untimed before
each call (e.g. to start a new game), returning how many requests it sent; those are counted
apart, and their time stays inside the measured window (requests/s is over wall-clock time).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import socket
import statistics
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from typing import Any

from bench.store import delete_namespace
from events.connection import connect, redis_url
from events.redis_server import free_port
from service.cli.help import add_command
from service.cli.progress import Advance, no_progress, progress
from service.gunicorn_conf import DEFAULT_THREADS, default_workers, worker_class
from service.serve import Child, gunicorn_command

DriverFactory = Callable[[str], Callable[[], object]]

BARE_APP = "bench.bare:app"
BARE_DRIVER = "bench.bare:make_driver"
COMMAND_APP = "service.wsgi:app"
COMMAND_DRIVER = "bench.games:make_game_driver"  # real commands of 2-player games
THROUGHPUT_TARGET = 0.6  # commands/s against the bare endpoint's
P99_TARGET = 3.0
# Limits stay on, so their cost is measured. Every client shares one address, whose limit is
# lifted; the seat limit is the service's own, which a seat of a 2-player game never reaches.
NO_LIMIT = "1000000000/1s"
SEAT_LIMIT = "120/minute"
READY_TIMEOUT_SECONDS = 30.0
FIRST_ERRORS = 5  # failed calls described in the figures


@dataclass(frozen=True)
class Measurement:
    """One side's figures over the measured window."""

    app: str
    driver: str
    requests: int
    errors: int
    requests_per_second: float
    p50_ms: float
    p99_ms: float
    untimed_requests: int = 0  # sent by the drivers' prepare() (e.g. starting new games)
    first_errors: tuple[str, ...] = ()  # what the first few failed calls raised


def register_bench(bench_subparsers: argparse._SubParsersAction) -> None:
    """Add `api` to the `bench` group: `loveletter bench api [--games N] [--seconds S] [--json]`."""
    parser = add_command(
        bench_subparsers,
        "api",
        summary="HTTP commands/s and latency vs bare XADD",
        description="Start two gunicorn servers, one with the real API and one whose endpoint"
        " only appends to Redis, and drive both alike with concurrent 2-player games in"
        " alternating rounds: requests per second, latencies, and their ratios.",
        examples=("loveletter bench api --games 16 --seconds 10",),
    )
    parser.add_argument("--games", type=int, default=16, help="concurrent games (client threads)")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per side")
    parser.add_argument("--warmup", type=float, default=2.0, help="unmeasured seconds per side")
    parser.add_argument("--rounds", type=int, default=4, help="alternations of the two sides")
    parser.add_argument("--workers", type=int, default=default_workers(), help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=DEFAULT_THREADS, help="threads per worker")
    parser.add_argument("--app", default=COMMAND_APP, help="WSGI app of the commands side")
    parser.add_argument("--driver", default=COMMAND_DRIVER, help="module:factory of commands")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print its figures."""
    with progress("warm-ups and rounds", 2 + 2 * args.rounds) as advance:
        result = run_api_bench(
            games=args.games,
            seconds=args.seconds,
            warmup=args.warmup,
            rounds=args.rounds,
            workers=args.workers,
            threads=args.threads,
            command_app=args.app,
            command_driver=args.driver,
            advance=advance,
        )
    print(json.dumps(result) if args.json else table(result))
    return 0


def run_api_bench(
    *,
    games: int = 16,
    seconds: float = 10.0,
    warmup: float = 2.0,
    rounds: int = 4,
    workers: int | None = None,
    threads: int = DEFAULT_THREADS,
    command_app: str = COMMAND_APP,
    command_driver: str = COMMAND_DRIVER,
    advance: Advance = no_progress,
) -> dict[str, Any]:
    """Measure both sides in alternating rounds (machine noise hits both); figures and ratios.
    `advance()` after each side's warm-up and each side's round."""
    if games < 1 or seconds <= 0 or rounds < 1:
        raise ValueError("games and rounds must be >= 1 and seconds > 0")
    workers = workers or default_workers()
    url = redis_url()
    namespace = f"bench-api-{uuid.uuid4().hex[:8]}"
    env = {
        **os.environ,
        "REDIS_URL": url,
        "LOVELETTER_NAMESPACE": namespace,
        "LOVELETTER_BENCH_NAMESPACE": namespace,
        "LOVELETTER_RATE_LIMIT_ADDRESS": NO_LIMIT,
        "LOVELETTER_GUESTS_PER_HOUR": "off",  # every simulated player shares one address
        "LOVELETTER_BOT_TABLES": "off",
        "LOVELETTER_RATE_LIMIT_READS": "off",
        "LOVELETTER_WAITERS_PER_ADDRESS": "off",
        "LOVELETTER_RATE_LIMIT_SEAT": SEAT_LIMIT,
        "LOVELETTER_SEEDED_GAMES": "1",  # the driver scripts each game from a seed it chose
    }
    try:
        with (
            gunicorn_app(BARE_APP, env, workers, threads) as (bare_url, _),
            gunicorn_app(command_app, env, workers, threads) as (command_url, _),
        ):
            bare = Side(BARE_APP, BARE_DRIVER, bare_url, games)
            commands = Side(command_app, command_driver, command_url, games)
            for side in (bare, commands):
                side.drive(warmup, record=False)
                advance()
            for _ in range(rounds):
                for side in (bare, commands):
                    side.drive(seconds / rounds)
                    advance()
    finally:
        _delete_namespace(url, namespace)
    bare_figures, command_figures = bare.figures(), commands.figures()
    throughput_ratio = command_figures.requests_per_second / max(
        bare_figures.requests_per_second, 1e-9
    )
    p99_ratio = command_figures.p99_ms / max(bare_figures.p99_ms, 1e-9)
    return {
        "benchmark": "api",
        "games": games,
        "seconds": seconds,
        "rounds": rounds,
        "gunicorn": {"worker_class": worker_class, "workers": workers, "threads": threads},
        "bare": asdict(bare_figures),
        "commands": asdict(command_figures),
        "throughput_ratio": round(throughput_ratio, 3),
        "p99_ratio": round(p99_ratio, 3),
        "throughput_ratio_target": THROUGHPUT_TARGET,
        "p99_ratio_target": P99_TARGET,
        "meets_targets": throughput_ratio >= THROUGHPUT_TARGET and p99_ratio < P99_TARGET,
    }


class Side:
    """One app under load: a driver per simulated game, and the latencies recorded so far."""

    def __init__(self, app: str, driver: str, base_url: str, clients: int) -> None:
        self.app = app
        self.driver = driver
        factory = load_factory(driver)
        with ThreadPoolExecutor(max_workers=clients) as pool:  # set-up, not timed
            self.calls = list(pool.map(lambda _: factory(base_url), range(clients)))
        self.latencies: list[float] = []
        self.errors = 0
        self.first_errors: list[str] = []
        self.untimed_requests = 0
        self.seconds = 0.0
        self._lock = threading.Lock()

    def drive(self, seconds: float, *, record: bool = True) -> None:
        """Every client calls its driver in a loop for `seconds`; record the latencies."""
        end = time.perf_counter() + seconds

        def client(call: Callable[[], object]) -> None:
            mine: list[float] = []
            failed = untimed = 0
            raised: list[str] = []
            prepare: Callable[[], int] | None = getattr(call, "prepare", None)
            reconnect: Callable[[], None] | None = getattr(call, "reconnect", None)
            if reconnect is not None:
                reconnect()
            while time.perf_counter() < end:
                try:
                    if prepare is not None:
                        untimed += prepare()
                    started = time.perf_counter()
                    if started >= end:
                        break
                    call()
                except Exception as error:
                    failed += 1
                    raised.append(f"{type(error).__name__}: {error}"[:300])
                    continue
                mine.append(time.perf_counter() - started)
            if record:
                with self._lock:
                    self.latencies.extend(mine)
                    self.errors += failed
                    self.first_errors.extend(raised[: FIRST_ERRORS - len(self.first_errors)])
                    self.untimed_requests += untimed

        threads = [
            threading.Thread(target=client, args=(call,), daemon=True) for call in self.calls
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if record:
            self.seconds += seconds

    def figures(self) -> Measurement:
        """Requests, errors, requests/s, p50 and p99 over every recorded round."""
        return Measurement(
            app=self.app,
            driver=self.driver,
            requests=len(self.latencies),
            errors=self.errors,
            requests_per_second=round(len(self.latencies) / max(self.seconds, 1e-9), 1),
            p50_ms=round(percentile(self.latencies, 50) * 1000, 3),
            p99_ms=round(percentile(self.latencies, 99) * 1000, 3),
            untimed_requests=self.untimed_requests,
            first_errors=tuple(self.first_errors),
        )


def load_factory(path: str) -> DriverFactory:
    """The driver factory named `module:function`."""
    module, _, name = path.partition(":")
    factory: DriverFactory = getattr(importlib.import_module(module), name)
    return factory


def table(result: Mapping[str, Any]) -> str:
    """The figures as a short readable table."""
    gunicorn = result["gunicorn"]
    lines = [
        f"API benchmark: {result['games']} concurrent games, {result['seconds']} s per side"
        f" in {result['rounds']} alternating rounds,"
        f" gunicorn {gunicorn['workers']} {gunicorn['worker_class']} workers"
        + (f" x {gunicorn['threads']} threads" if gunicorn["worker_class"] == "gthread" else ""),
        f"  {'side':<10}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'errors':>8}{'untimed':>9}"
        "  app / driver",
    ]
    for side in ("bare", "commands"):
        row = result[side]
        lines.append(
            f"  {side:<10}{row['requests_per_second']:>10}{row['p50_ms']:>10}{row['p99_ms']:>10}"
            f"{row['errors']:>8}{row.get('untimed_requests', 0):>9}  {row['app']} / {row['driver']}"
        )
    lines.append(
        f"  throughput ratio {result['throughput_ratio']} (target >= {THROUGHPUT_TARGET}),"
        f" p99 ratio {result['p99_ratio']} (target < {P99_TARGET}):"
        f" {'met' if result['meets_targets'] else 'NOT met'}"
    )
    return "\n".join(lines)


@contextmanager
def gunicorn_app(
    app: str, env: Mapping[str, str], workers: int, threads: int
) -> Iterator[tuple[str, Child]]:
    """Run gunicorn (our config) with app on a free port; yield its base URL and its master
    process; stop it."""
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="loveletter-bench-metrics-") as metrics_dir:
        child_env = {**env, "PROMETHEUS_MULTIPROC_DIR": metrics_dir}
        command = gunicorn_command(app, "127.0.0.1", port, workers, threads)
        child = Child(app, command, child_env, quiet=True)
        try:
            _wait_port(port, child)
            yield f"http://127.0.0.1:{port}", child
        finally:
            child.stop()


def _wait_port(port: int, child: Child) -> None:
    """Return once the port accepts connections (requests queue until the workers boot)."""
    deadline = time.monotonic() + READY_TIMEOUT_SECONDS
    while time.monotonic() < deadline and child.alive():
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"gunicorn ({child.name}) did not listen on port {port}")


def percentile(values: list[float], percent: int) -> float:
    """The `percent`th percentile of values (0 when there are none)."""
    if not values:
        return 0.0
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[percent - 1]


def _delete_namespace(url: str, namespace: str) -> None:
    """Delete every key the benchmark wrote (never FLUSH)."""
    client = connect(url)
    try:
        delete_namespace(client, namespace)
    finally:
        client.close()
