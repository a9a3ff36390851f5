"""`loveletter bench ...`: the performance benchmarks, one sub-command each."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `bench` command group."""
    parser = subparsers.add_parser("bench", help="performance benchmarks")
    group = parser.add_subparsers(dest="bench", required=True, metavar="BENCH")
    from service.cli import bench_api, bench_bots, bench_engine, bench_store

    bench_engine.register(group)
    bench_store.register_bench(group)
    bench_api.register_bench(group)
    bench_bots.register_bench(group)
