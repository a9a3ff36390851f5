"""`loveletter export|verify|rebuild`: audit games and recompute everything derived."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from events.audit import export_lines, verify_lines
from events.games import GameRepository
from play.context import Context
from play.follow_up import sweep_time
from play.settings import Settings


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `export`, `verify` and `rebuild`."""
    export = subparsers.add_parser("export", help="write a game's stream as JSON lines")
    export.add_argument("game", help="the game's id")
    export.add_argument("-o", "--out", type=Path, help="file to write (default: stdout)")
    export.set_defaults(func=run_export)
    verify = subparsers.add_parser("verify", help="replay an exported game with the rules")
    verify.add_argument("file", type=Path, help="a file written by `loveletter export`")
    verify.set_defaults(func=run_verify)
    rebuild = subparsers.add_parser(
        "rebuild", help="recompute snapshots, the lobby index and what games wait on"
    )
    rebuild.set_defaults(func=run_rebuild)


def repository() -> GameRepository:
    """The games on the configured Redis and namespace."""
    return Context.from_settings(Settings.load()).games


def run_export(args: argparse.Namespace) -> int:
    """Write the stream (from Redis or the archive); exit 1 when there is no such game."""
    games = repository()
    if not games.exists(args.game):
        print(f"no game {args.game!r}", file=sys.stderr)
        return 1
    lines = "".join(line + "\n" for line in export_lines(games, args.game))
    if args.out:
        args.out.write_text(lines, encoding="utf-8")
    else:
        sys.stdout.write(lines)
    return 0


def run_verify(args: argparse.Namespace) -> int:
    """Print what was verified or the first divergence; exit 0 only when all is right."""
    with args.file.open(encoding="utf-8") as lines:
        report = verify_lines(lines)
    if report.ok:
        print(
            f"verified: {report.events} events from {report.commands} commands are exactly what "
            f"the rules produce; {report.deals_opened} deals open their commitments"
        )
        return 0
    divergence = report.divergence
    assert divergence is not None
    print(f"divergence at version {divergence.version}: {divergence.reason}")
    if divergence.expected is not None:
        print(f"  expected: {json.dumps(divergence.expected, sort_keys=True)}")
    if divergence.stored is not None:
        print(f"  stored:   {json.dumps(divergence.stored, sort_keys=True)}")
    return 1


def run_rebuild(args: argparse.Namespace) -> int:
    """Recompute every snapshot, the lobby index and the due sets from the streams; print
    what changed."""
    report = repository().rebuild(sweep_time)
    index = report.index
    assert index is not None
    print(
        f"snapshots: {report.snapshots_rewritten} rewritten, "
        f"{report.snapshots_unchanged} unchanged; index: {index.added} added, "
        f"{index.changed} changed, {index.removed} removed, {index.unchanged} unchanged; "
        f"{report.due} game(s) waiting on a job"
    )
    return 0
