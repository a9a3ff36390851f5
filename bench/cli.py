"""`loveletter bench ...`: the performance benchmarks, one sub-command each."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `bench` command group."""
    parser = subparsers.add_parser("bench", help="performance benchmarks")
    group = parser.add_subparsers(dest="bench", required=True, metavar="BENCH")
    from bench import api, bots, engine, store, waiters

    engine.register(group)
    store.register_bench(group)
    api.register_bench(group)
    bots.register_bench(group)
    waiters.register_bench(group)
