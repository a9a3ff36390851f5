"""The archive: where finished games go when they leave Redis, in the export format of
events/audit.py (JSON lines: version, event, meta), one compressed document per game.

`Archive` is all the store needs (put, get, exists, list), so object storage can stand in for
the folder of `DirectoryArchive`. An archived game is read-only there: appending to it again
(a rematch, a webhook) first writes its events back into a stream (events/games.py).
"""

from __future__ import annotations

import gzip
import hashlib
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Protocol

from events.store import GAME_ID

SUFFIX = ".jsonl.gz"


class Archive(Protocol):
    """Games stored out of Redis, each as the lines `loveletter export` writes."""

    def put(self, game_id: str, lines: Iterable[str]) -> None:
        """Store (or replace) the game's lines; once this returns, they are durable."""

    def get(self, game_id: str) -> list[str] | None:
        """The game's lines, or None when it is not archived."""

    def exists(self, game_id: str) -> bool:
        """Whether the game is archived."""

    def list(self) -> Iterator[str]:
        """The ids of every archived game, in no particular order."""


class DirectoryArchive:
    """An archive in a folder: `<folder>/<2 hex digits>/<game id>.jsonl.gz`, gzip-compressed.

    The subfolder is taken from a hash of the id, so no folder grows past 1/256 of the games
    and no id can name a path outside the folder. A file is written beside its final name,
    flushed to disk, then renamed, so a reader never sees half of one.
    """

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)

    def path(self, game_id: str) -> Path:
        """Where the game's file is (or would be)."""
        if not GAME_ID.fullmatch(game_id):
            raise ValueError(f"game id must be 1-200 URL-safe characters: {game_id!r}")
        shard = hashlib.sha256(game_id.encode()).hexdigest()[:2]
        return self.folder / shard / (game_id + SUFFIX)

    def put(self, game_id: str, lines: Iterable[str]) -> None:
        """Write the lines compressed, durably, then make them the game's file at once."""
        target = self.path(game_id)
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".", suffix=".part")
        try:
            with os.fdopen(handle, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb") as packed:
                for line in lines:
                    packed.write(line.encode() + b"\n")
                packed.close()
                raw.flush()
                os.fsync(raw.fileno())
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        _sync_folder(target.parent)

    def get(self, game_id: str) -> list[str] | None:
        """The game's lines, or None."""
        try:
            with gzip.open(self.path(game_id), "rt", encoding="utf-8") as lines:
                return [line.rstrip("\n") for line in lines if line.strip()]
        except FileNotFoundError:
            return None

    def exists(self, game_id: str) -> bool:
        """Whether the game's file is there."""
        return self.path(game_id).is_file()

    def list(self) -> Iterator[str]:
        """Every archived game's id."""
        for path in self.folder.glob(f"??/*{SUFFIX}"):
            yield path.name[: -len(SUFFIX)]


def _sync_folder(folder: Path) -> None:
    """Make a rename in `folder` durable (where the system allows opening folders)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
