"""The metrics' tally writes the same counts and timings as counting each one at once."""

from __future__ import annotations

import os
import time

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest

from service.metrics import FLUSH_SECONDS, LATENCY_BUCKETS, Tally

TIMINGS = [0.0004, 0.001, 0.0011, 0.003, 0.003, 0.07, 2.0, 45.0, 61.0, 0.0]


def exposition(name: str, tally: Tally | None) -> str:
    """Counts and timings of TIMINGS, counted at once or through `tally`, under `name`."""
    registry = CollectorRegistry()
    counter = Counter(f"{name}_requests", "requests", ["route"], registry=registry)
    histogram = Histogram(
        f"{name}_seconds", "time", ["route"], buckets=LATENCY_BUCKETS, registry=registry
    )
    for route in ("/a", "/b"):
        for seconds in TIMINGS:
            if tally is None:
                counter.labels(route).inc()
                histogram.labels(route).observe(seconds)
            else:
                tally.count(counter.labels(route))
                tally.time(histogram.labels(route), seconds)
    if tally is not None:
        tally.write()
    text = generate_latest(registry).decode()
    lines = [line for line in text.splitlines() if "_created" not in line]
    return "\n".join(lines).replace(name, "metric")


def test_a_tally_written_equals_counting_at_once() -> None:
    assert exposition("tallied", Tally()) == exposition("direct", None)


def test_a_tally_is_written_without_being_asked() -> None:
    registry = CollectorRegistry()
    counter = Counter("waiting", "requests", registry=registry)
    tally = Tally()
    tally.count(counter)
    assert registry.get_sample_value("waiting_total") == 0
    deadline = time.monotonic() + 5 * FLUSH_SECONDS
    while registry.get_sample_value("waiting_total") == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert registry.get_sample_value("waiting_total") == 1


def test_a_forked_worker_writes_only_its_own_counts() -> None:
    registry = CollectorRegistry()
    counter = Counter("forked", "requests", registry=registry)
    tally = Tally()
    tally.count(counter)  # the parent's, pending when it forks
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # the worker: one count of its own
        tally.count(counter)
        tally.write()
        os.write(writer, str(registry.get_sample_value("forked_total")).encode())
        os._exit(0)
    os.waitpid(child, 0)
    assert float(os.read(reader, 64)) == 1
    tally.write()
    assert registry.get_sample_value("forked_total") == 1
