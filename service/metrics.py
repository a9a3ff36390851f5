"""Prometheus metrics: HTTP requests and latencies, commands, conflicts, waiting clients, games
by status.

Under gunicorn, `loveletter serve` sets PROMETHEUS_MULTIPROC_DIR (before any import of
prometheus_client) and every worker writes its samples there; /metrics then merges them. Without
it, the process's own default registry is exposed. Games by status are read from the lobby
index at scrape time.
"""

from __future__ import annotations

import bisect
import functools
import os
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from flask import Flask, Response, g
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily, Metric

from events.background import Background
from events.connection import RedisClient, as_text
from events.index import GameIndex
from events.locks import short_lock
from service.requestlog import current_request

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)

REQUESTS = Counter(
    "loveletter_http_requests_total",
    "HTTP requests answered, by route template, method and status",
    ["endpoint", "method", "status"],
)
LATENCY = Histogram(
    "loveletter_http_request_duration_seconds",
    "Time to answer an HTTP request, by route template and method",
    ["endpoint", "method"],
    buckets=LATENCY_BUCKETS,
)
COMMANDS = Counter("loveletter_commands_total", "Game commands handled, by result", ["result"])
CONFLICTS = Counter(
    "loveletter_conflicts_total", "Appends refused because the game had moved on (409)"
)
MY_GAMES_LOADS = Counter(
    "loveletter_my_games_loads_total", "Games loaded to answer pages of my games"
)
WAITERS = Gauge(
    "loveletter_waiters",
    "Long polls and event streams waiting for news now",
    multiprocess_mode="livesum",
)


FLUSH_SECONDS = 1.0


class Tally:
    """Counts and timings added up in plain numbers, written to their metrics at most every
    FLUSH_SECONDS (by a thread of this process) and before this process answers /metrics.

    A metric's write takes a lock and, under gunicorn, updates the worker's mapped file: about
    5 µs per count and 11 per timing on this machine, three of them per command. Other workers'
    counts reach /metrics at most FLUSH_SECONDS late. Gauges read from the process (`gauge`)
    are set at each write too."""

    def __init__(self) -> None:
        self._counts: dict[Any, int] = {}  # counter child -> count not written yet
        self._timings: dict[Any, list[float]] = {}  # histogram child -> [sum, per bucket...]
        self._gauges: dict[Any, Callable[[], float]] = {}  # gauge -> what reads its value
        self._lock = short_lock()
        self._writer = Background("metrics-tally", self._write_every, on_fork=self._forget)

    def count(self, child: Any) -> None:
        """One more for a counter's child."""
        self._writer.ensure()
        with self._lock:
            self._counts[child] = self._counts.get(child, 0) + 1

    def time(self, child: Any, seconds: float) -> None:
        """One observation of a histogram's child."""
        self._writer.ensure()
        bounds = child._upper_bounds
        with self._lock:
            pending = self._timings.get(child)
            if pending is None:
                pending = self._timings[child] = [0.0] * (len(bounds) + 1)
            pending[0] += seconds
            pending[1 + bisect.bisect_left(bounds, seconds)] += 1

    def gauge(self, gauge: Any, read: Callable[[], float]) -> None:
        """Set `gauge` to what `read` says at every write (the last `read` given)."""
        self._gauges[gauge] = read

    def write(self) -> None:
        """Write what was added up to the metrics."""
        for gauge, read in list(self._gauges.items()):
            gauge.set(read())
        with self._lock:
            counts, self._counts = self._counts, {}
            timings, self._timings = self._timings, {}
        for child, count in counts.items():
            child.inc(count)
        for child, (total, *buckets) in timings.items():
            # What Histogram.observe does for each observation, once per bucket.
            child._sum.inc(total)
            for value, observed in zip(child._buckets, buckets, strict=False):
                if observed:
                    value.inc(observed)

    def _forget(self) -> None:
        """In a forked worker: what is pending is its parent's to write."""
        self._counts, self._timings = {}, {}
        self._lock = short_lock()

    def _write_every(self) -> None:
        while True:
            time.sleep(FLUSH_SECONDS)
            self.write()


TALLY = Tally()


def record_command(result: str) -> None:
    """Count one game command by its result (e.g. "ok", "illegal", "conflict", "duplicate")."""
    TALLY.count(_commands(result))


def record_conflict() -> None:
    """Count one stale-version conflict."""
    CONFLICTS.inc()


def record_my_games_loads(count: int) -> None:
    """Count the games one page of my games loaded."""
    MY_GAMES_LOADS.inc(count)


def install_request_metrics(app: Flask) -> None:
    """Time every request and count it by route template, method and status."""

    @app.before_request
    def _start_timer() -> None:
        g.loveletter_started = time.perf_counter()

    @app.after_request
    def _observe(response: Response) -> Response:
        seen = current_request()  # one lookup of the proxy, not three
        started = g.pop("loveletter_started", None)
        rule = seen.url_rule
        endpoint = rule.rule if rule is not None else "<unmatched>"
        method = seen.method
        TALLY.count(_requests(endpoint, method, response.status_code))
        if started is not None:
            TALLY.time(_latency(endpoint, method), time.perf_counter() - started)
        return response


# A labelled child is looked up once per label values (labels() validates and locks each time).
@functools.lru_cache(maxsize=1024)
def _requests(endpoint: str, method: str, status: int) -> Any:
    return REQUESTS.labels(endpoint, method, str(status))


@functools.lru_cache(maxsize=64)
def _commands(result: str) -> Any:
    return COMMANDS.labels(result=result)


@functools.lru_cache(maxsize=1024)
def _latency(endpoint: str, method: str) -> Any:
    return LATENCY.labels(endpoint, method)


def games_by_status(redis_client: RedisClient, index: GameIndex) -> dict[str, int]:
    """Number of games per status, from the lobby index's per-status sorted sets."""
    statuses = sorted(as_text(name) for name in redis_client.smembers(index.prefix + "statuses"))
    pipe = redis_client.pipeline(transaction=False)
    for status in statuses:
        pipe.zcard(f"{index.prefix}status:{status}")
    return dict(zip(statuses, (int(count) for count in pipe.execute()), strict=True))


def exposition(games: Mapping[str, int] | None) -> Response:
    """The Prometheus text exposition of every metric (all gunicorn workers merged)."""
    TALLY.write()  # this process's counts up to now
    path = os.environ.get(MULTIPROC_ENV)
    if path:
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=path)
        body = generate_latest(registry)
    else:
        body = generate_latest(REGISTRY)
    if games is not None:
        gauge = GaugeMetricFamily("loveletter_games", "Games in the lobby index, by status",
                                  labels=["status"])  # fmt: skip
        for status, count in sorted(games.items()):
            gauge.add_metric([status], count)
        body += generate_latest(_Static(gauge))
    return Response(body, mimetype=None, content_type=CONTENT_TYPE_LATEST)


class _Static(CollectorRegistry):
    """A registry exposing one ready-made metric family."""

    def __init__(self, family: GaugeMetricFamily) -> None:
        super().__init__(auto_describe=False)
        self._family = family

    def collect(self) -> Iterator[Metric]:
        """Yield the one family."""
        yield self._family
