"""`loveletter bench ...` (the performance benchmarks, one sub-command each) and `loveletter
chaos` (games played under injected faults).

The benchmarks drive the service with tools of the dev set (requests, among others). With the
service's lock alone, `bench` and `chaos` are still listed, and say in one line what to install.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from service.cli.help import add_command

DEV_SET = "pip install -r requirements-dev.txt"
OUR_PACKAGES = ("bench", "game", "events", "play", "service", "workers", "scenarios")
BENCH_DESCRIPTION = (
    "Measure the engine, the event store, the HTTP API and the bots. Each prints a table, or one"
    " JSON object with --json; `loveletter bench BENCH --help` tells what each measures. The"
    " store, API and bots benchmarks use REDIS_URL (or a Redis of their own) and delete every"
    " key they write."
)
BENCH_EXAMPLES = ("loveletter bench engine --seconds 3", "loveletter bench api --json")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `bench` command group and `chaos`, or stand-ins that say what is missing."""
    try:
        from bench import (
            api,
            bots,
            chaos,
            cluster,
            deliveries,
            engine,
            inbox,
            mygames,
            push,
            queue,
            storage,
            store,
            waiters,
        )
    except ModuleNotFoundError as missing:
        if (missing.name or "").split(".")[0] in OUR_PACKAGES:
            raise  # a bug of ours, not a missing dependency
        register_unavailable(subparsers, missing.name or "a dev dependency")
        return
    parser = add_command(
        subparsers, "bench", summary="performance benchmarks", description=BENCH_DESCRIPTION,
        examples=BENCH_EXAMPLES,
    )  # fmt: skip
    group = parser.add_subparsers(dest="bench", required=True, metavar="BENCH")

    engine.register(group)
    store.register_bench(group)
    api.register_bench(group)
    bots.register_bench(group)
    storage.register_bench(group)
    cluster.register_bench(group)
    waiters.register_bench(group)
    deliveries.register_bench(group)
    inbox.register_bench(group)
    push.register_bench(group)
    queue.register_bench(group)
    mygames.register_bench(group)
    chaos.register(subparsers)


def register_unavailable(subparsers: argparse._SubParsersAction, missing: str) -> None:
    """`bench` and `chaos` that take any arguments and say, in one line, what to install."""
    for name, summary in (
        ("bench", "performance benchmarks (needs the dev set)"),
        ("chaos", "games played under injected faults (needs the dev set)"),
    ):
        parser = add_command(
            subparsers, name, summary=summary,
            description=f"{BENCH_DESCRIPTION} It needs the dev set: {DEV_SET}",
            examples=BENCH_EXAMPLES,
        )  # fmt: skip
        parser.add_argument("arguments", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
        parser.set_defaults(func=_needs_dev_set(name, missing))


def _needs_dev_set(name: str, missing: str) -> Callable[[argparse.Namespace], int]:
    """The stand-in command: one line on standard error, exit status 2."""

    def run(args: argparse.Namespace) -> int:
        print(
            f"loveletter {name} needs the development set (missing: {missing});"
            f" install it with `{DEV_SET}`",
            file=sys.stderr,
        )
        return 2

    return run
