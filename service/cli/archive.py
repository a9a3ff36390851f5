"""`loveletter archive`: move finished games from Redis to the archive, once."""

from __future__ import annotations

import argparse
import sys

from play.archive import archive_finished
from play.context import Context
from play.settings import Settings
from service.cli.help import add_command


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `archive` command."""
    parser = add_command(
        subparsers,
        "archive",
        summary="move games over for LOVELETTER_ARCHIVE_AFTER_SECONDS to the archive",
        description="Move every finished game older than LOVELETTER_ARCHIVE_AFTER_SECONDS (or"
        " --older-than) from Redis to the archive in LOVELETTER_ARCHIVE_DIR, once (under"
        " `loveletter serve` a worker does it every LOVELETTER_ARCHIVE_EVERY_SECONDS). Views,"
        " feeds, replays, export and verify of an archived game still work.",
        examples=("LOVELETTER_ARCHIVE_DIR=archive loveletter archive --older-than 0",),
    )
    parser.add_argument(
        "--older-than", type=float, metavar="SECONDS",
        help="archive games over for this long (default: LOVELETTER_ARCHIVE_AFTER_SECONDS)",
    )  # fmt: skip
    parser.add_argument("--limit", type=int, default=10_000, help="most games per run")
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
