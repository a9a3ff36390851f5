"""`loveletter archive`: move finished games from Redis to the archive, once."""

from __future__ import annotations

import argparse
import sys

from play.archive import archive_finished
from play.context import Context
from play.settings import Settings


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `archive` command."""
    parser = subparsers.add_parser(
        "archive", help="move games over for LOVELETTER_ARCHIVE_AFTER_SECONDS to the archive"
    )
    parser.add_argument(
        "--older-than", type=float, metavar="SECONDS",
        help="archive games over for this long (default: LOVELETTER_ARCHIVE_AFTER_SECONDS)",
    )  # fmt: skip
    parser.add_argument("--limit", type=int, default=10_000, help="most games per run (10000)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Archive once and say what was done; exit 1 when no archive is configured."""
    settings = Settings.load()
    if not settings.archive_dir:
        print("loveletter archive: set LOVELETTER_ARCHIVE_DIR to a folder", file=sys.stderr)
        return 1
    report = archive_finished(
        Context.from_settings(settings), older_than=args.older_than, limit=args.limit
    )
    kept = ", ".join(f"{count} {why}" for why, count in sorted(report.kept.items()))
    print(
        f"archived {report.archived} game(s) to {settings.archive_dir} in"
        f" {report.seconds:.2f} s" + (f"; kept {kept}" if kept else "")
    )
    return 0
