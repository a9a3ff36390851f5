"""`loveletter bench ...`: the performance benchmarks, one sub-command each."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `bench` command group."""
    parser = subparsers.add_parser("bench", help="performance benchmarks")
    group = parser.add_subparsers(dest="bench", required=True, metavar="BENCH")
    from bench import api, bots, cluster, engine, storage, store

    engine.register(group)
    store.register_bench(group)
    api.register_bench(group)
    bots.register_bench(group)
    storage.register_bench(group)
    cluster.register_bench(group)
