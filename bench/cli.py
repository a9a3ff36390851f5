"""`loveletter bench ...` (the performance benchmarks, one sub-command each) and `loveletter
chaos` (games played under injected faults)."""

from __future__ import annotations

import argparse

from service.cli.help import add_command


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `bench` command group and `chaos`."""
    parser = add_command(
        subparsers,
        "bench",
        summary="performance benchmarks",
        description="Measure the engine, the event store, the HTTP API and the bots. Each"
        " prints a table, or one JSON object with --json; `loveletter bench BENCH --help` tells"
        " what each measures. The store, API and bots benchmarks use REDIS_URL (or a Redis of"
        " their own) and delete every key they write.",
        examples=("loveletter bench engine --seconds 3", "loveletter bench api --json"),
    )
    group = parser.add_subparsers(dest="bench", required=True, metavar="BENCH")
    from bench import api, bots, chaos, cluster, engine, inbox, storage, store, waiters

    engine.register(group)
    store.register_bench(group)
    api.register_bench(group)
    bots.register_bench(group)
    storage.register_bench(group)
    cluster.register_bench(group)
    waiters.register_bench(group)
    inbox.register_bench(group)
    chaos.register(subparsers)
