"""The `loveletter` command: one sub-command per module in this package, plus those other
packages declare under the `loveletter.commands` entry point (the benchmarks, apart from the
product)."""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, entry_points, version

from events.connection import NoRedis
from play import logs
from service.cli.help import HelpFormatter, example

# Each module defines `register(subparsers)`, which adds its sub-command(s) and sets `func`.
COMMAND_MODULES = (
    "service.cli.serve",
    "service.cli.audit",
    "service.cli.archive",
    "service.cli.scenarios",
    "service.cli.tournament",
    "service.cli.openapi",
)
DESCRIPTION = """\
An event-sourced Love Letter game service: run it (serve), audit its games (export, verify,
rebuild), check the rules (scenarios), pit bots against each other (tournament), measure it
(bench). `loveletter COMMAND --help` tells more of each."""


def package_version() -> str:
    """The installed package's version."""
    try:
        return version("loveletter")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command registered."""
    parser = argparse.ArgumentParser(
        prog="loveletter",
        description=DESCRIPTION,
        epilog=example("loveletter serve --port 9000", "loveletter export GAME > game.jsonl"),
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    for entry in entry_points(group="loveletter.commands"):
        entry.load()(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the process exit status."""
    args = build_parser().parse_args(argv)
    if not logging.getLogger().handlers:  # unless the calling process set logging up itself
        logs.configure()
    try:
        status: int = args.func(args)
    except NoRedis as error:
        print(f"loveletter {args.command}: {error}", file=sys.stderr)
        return 2
    return status


if __name__ == "__main__":
    sys.exit(main())
