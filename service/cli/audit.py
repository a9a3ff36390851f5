"""`loveletter export|verify|rebuild`: audit games and recompute everything derived.

Commands that read games use REDIS_URL, or the Redis a running `loveletter serve` keeps for the
data folder; they never start an empty one (they would only find no game). They say on stderr
which Redis they read.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from events.audit import export_lines, verify_lines
from events.connection import existing_redis_url
from events.games import GameRepository
from play import mygames, records
from play.context import Context
from play.follow_up import sweep_time
from play.settings import Settings
from service.cli.help import add_command
from service.cli.progress import progress

WHERE = (
    "Games are read from REDIS_URL or, when it is unset, from the Redis that a running"
    " `loveletter serve` keeps in LOVELETTER_DATA_DIR (default ./.loveletter)."
)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `export`, `verify` and `rebuild`."""
    export = add_command(
        subparsers,
        "export",
        summary="write a game's stream as JSON lines",
        description="Write a game's events, with the commands that made them, as JSON lines"
        f" (one per version), for `loveletter verify` or an archive. {WHERE}",
        examples=(
            "loveletter export GAME > game.jsonl",
            "loveletter export --chat GAME > game.chat.jsonl",
            "loveletter export --all games/",
        ),
    )
    which = export.add_mutually_exclusive_group(required=True)
    which.add_argument("game", nargs="?", help="the game's id")
    which.add_argument("--all", type=Path, metavar="DIR", help="every game, each to DIR/<id>.jsonl")
    export.add_argument("-o", "--out", type=Path, help="file to write (default: stdout)")
    export.add_argument(
        "--chat",
        action="store_true",
        help="the game's chat instead (JSON lines: each message, then each reader's mutes);"
        " --all writes it beside each game's events as DIR/<id>@chat.jsonl",
    )
    export.set_defaults(func=run_export)
    verify = add_command(
        subparsers,
        "verify",
        summary="replay an exported game with the rules",
        description="Replay a file written by `loveletter export`: every event must be exactly"
        " what the rules produce from the recorded commands, and every deal must open the"
        " commitment published when it was dealt. A game not over yet is verified as far as it"
        " went (its current deal opens only when its round ends). Exit status 0 when all is"
        " right, 1 at the first divergence. Needs no Redis.",
        examples=("loveletter verify game.jsonl",),
    )
    verify.add_argument("file", type=Path, help="a file written by `loveletter export`")
    verify.set_defaults(func=run_verify)
    rebuild = add_command(
        subparsers,
        "rebuild",
        summary="recompute snapshots, the lobby index, what games wait on, ratings, devices,"
        " players' games",
        description="Fold every game's stream from its start, rewrite the snapshots that"
        " differ, rebuild the lobby index and each game's due entry (what a sweep re-enqueues)."
        " Then recompute every rating, leaderboard, rating history and player's statistics from"
        " the streams and the archive (docs/ratings.md): the same numbers the service keeps."
        " Then list among its player's devices every player token that is not (tokens made"
        " before devices were listed). Then write every player's games again from each game's"
        " last table (my games: games listed before the index existed appear there)."
        f" Safe while the service runs. {WHERE}",
        examples=("REDIS_URL=redis://127.0.0.1:6379/0 loveletter rebuild",),
    )
    rebuild.set_defaults(func=run_rebuild)


def repository() -> GameRepository:
    """The games on the Redis that holds them (see WHERE), said on stderr."""
    return existing_context().games


def existing_context() -> Context:
    """The context on the Redis that holds the games (see WHERE), said on stderr."""
    url, source = existing_redis_url()
    print(f"reading games from {url} ({source})", file=sys.stderr)
    return Context.from_settings(Settings.load({"REDIS_URL": url}))


def run_export(args: argparse.Namespace) -> int:
    """Write the stream (from Redis or the archive), or every game's; exit 1 when there is no
    such game."""
    games = repository()
    if args.all is not None:
        return export_all(games, args.all)
    if not games.exists(args.game):
        print(f"no game {args.game!r}", file=sys.stderr)
        return 1
    exported = games.chat_lines(args.game) if args.chat else export_lines(games, args.game)
    lines = "".join(line + "\n" for line in exported)
    if args.out:
        args.out.write_text(lines, encoding="utf-8")
    else:
        sys.stdout.write(lines)
    return 0


def export_all(games: GameRepository, folder: Path) -> int:
    """Write every game in Redis to folder/<id>.jsonl; say how many."""
    folder.mkdir(parents=True, exist_ok=True)
    game_ids = sorted(games.store.game_ids())
    with progress("exporting games", len(game_ids)) as advance:
        for game_id in game_ids:
            lines = "".join(line + "\n" for line in export_lines(games, game_id))
            (folder / f"{game_id}.jsonl").write_text(lines, encoding="utf-8")
            chat = games.chat_lines(game_id)
            if chat:  # a name no game's can be: ids have no @
                chat_file = folder / f"{game_id}@chat.jsonl"
                chat_file.write_text("".join(line + "\n" for line in chat), encoding="utf-8")
            advance()
    print(f"exported {len(game_ids)} game(s) to {folder}")
    return 0


def run_verify(args: argparse.Namespace) -> int:
    """Print what was verified or the first divergence; exit 0 only when all is right."""
    with args.file.open(encoding="utf-8") as lines:
        report = verify_lines(lines)
    if report.ok and report.status != "over":
        print(
            f"verified so far: the game is not over ({report.status or 'no events'});"
            f" {report.events} events from {report.commands} commands are exactly what the rules"
            f" produce; {report.deals_opened} deals open their commitments, and"
            f" {report.deals_open} deal(s) will open when their rounds end"
        )
        return 0
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
    ctx = existing_context()
    with progress("rebuilding games", None) as advance:
        report = ctx.games.rebuild(sweep_time, lambda done, total: advance(total=total))
    index = report.index
    assert index is not None
    print(
        f"snapshots: {report.snapshots_rewritten} rewritten, "
        f"{report.snapshots_unchanged} unchanged; index: {index.added} added, "
        f"{index.changed} changed, {index.removed} removed, {index.unchanged} unchanged; "
        f"{report.due} game(s) waiting on a job"
    )
    with progress("rebuilding ratings", None) as advance:
        rated = records.rebuild(ctx, lambda done: advance())
    editions = ", ".join(
        f"{edition} {count} ({rated.rated.get(edition, 0)} rated)"
        for edition, count in sorted(rated.games.items())
    )
    print(f"ratings: {rated.tables} table(s) read; finished games: {editions or 'none'}")
    devices = ctx.devices
    listed = sum(devices.index_token(digest) for digest in devices.token_digests())
    print(f"devices: {listed} player token(s) listed that were not")
    with progress("rebuilding my games", None) as advance:
        mine = mygames.rebuild(ctx, lambda done: advance())
    print(f"my games: {mine.games} game(s) of {mine.players} player(s) listed, "
          f"{mine.removed} stray line(s) removed")  # fmt: skip
    return 0
