"""The `loveletter` command: one sub-command per module in this package, plus those other
packages declare under the `loveletter.commands` entry point (the benchmarks, apart from the
product)."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from importlib.metadata import entry_points

# Each module defines `register(subparsers)`, which adds its sub-command(s) and sets `func`.
COMMAND_MODULES = (
    "service.cli.scenarios",
    "service.cli.audit",
    "service.cli.archive",
    "service.cli.tournament",
    "service.cli.serve",
    "service.cli.openapi",
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command registered."""
    parser = argparse.ArgumentParser(prog="loveletter", description=__doc__)
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    for entry in entry_points(group="loveletter.commands"):
        entry.load()(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the process exit status."""
    args = build_parser().parse_args(argv)
    status: int = args.func(args)
    return status


if __name__ == "__main__":
    sys.exit(main())
