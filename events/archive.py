"""The archive: where finished games go when they leave Redis, in the export format of
events/audit.py (JSON lines: version, event, meta), one compressed document per game.

`Archive` is all the store needs (put, get, exists, list, the game's idempotency keys and its
chat, kept apart from its events: events/chat.py), so
object storage can stand in for the folder of `DirectoryArchive`. An archived game is read-only
there: appending to it again (a rematch, a webhook) first writes its events and keys back into
Redis (events/games.py).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Protocol

from events.recent import Recent
from events.store import GAME_ID

SUFFIX = ".jsonl.gz"
KEYS_SUFFIX = ".keys.json"
CHAT_SUFFIX = "@chat.jsonl.gz"  # no game id has an @
GAMES_CACHED = 64  # archived games whose lines each process keeps (a read decompresses once)

# An idempotency key as archived: its key within the game (`idem:<scope>:<key>`), what Redis
# held (`first:last:fingerprint`) and when it expires (Unix time).
ArchivedKeys = Mapping[str, tuple[str, float]]


class Archive(Protocol):
    """Games stored out of Redis, each as the lines `loveletter export` writes."""

    def put(self, game_id: str, lines: Iterable[str]) -> None:
        """Store (or replace) the game's lines; once this returns, they are durable."""

    def get(self, game_id: str) -> list[str] | None:
        """The game's lines, or None when it is not archived."""

    def put_keys(self, game_id: str, keys: ArchivedKeys) -> None:
        """Store (or replace) the game's idempotency keys; durable once this returns."""

    def get_keys(self, game_id: str) -> ArchivedKeys:
        """The game's archived idempotency keys (none: empty)."""

    def put_chat(self, game_id: str, lines: Iterable[str]) -> None:
        """Store (or replace) the game's chat (export lines of events/chat.py); durable once
        this returns."""

    def get_chat(self, game_id: str) -> list[str]:
        """The game's archived chat lines (none: empty)."""

    def exists(self, game_id: str) -> bool:
        """Whether the game is archived."""

    def list(self) -> Iterator[str]:
        """The ids of every archived game, in no particular order."""


class DirectoryArchive:
    """An archive in a folder: `<folder>/<2 hex digits>/<game id>.jsonl.gz`, gzip-compressed.

    The subfolder is taken from a hash of the id, so no folder grows past 1/256 of the games
    and no id can name a path outside the folder. A file is written beside its final name,
    flushed to disk, then renamed, and every folder it lies in that was made for it is synced
    in its parent, so a reader never sees half of one and a crash loses none. The lines of the
    games read last are kept (GAMES_CACHED), known by the file's size and time of change.
    """

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self._read: Recent[str, tuple[tuple[int, int, int], list[str]]] = Recent(GAMES_CACHED)
        self._lock = threading.Lock()

    def path(self, game_id: str) -> Path:
        """Where the game's file is (or would be)."""
        if not GAME_ID.fullmatch(game_id):
            raise ValueError(f"game id must be 1-200 URL-safe characters: {game_id!r}")
        shard = hashlib.sha256(game_id.encode()).hexdigest()[:2]
        return self.folder / shard / (game_id + SUFFIX)

    def put(self, game_id: str, lines: Iterable[str]) -> None:
        """Write the lines compressed, durably, then make them the game's file at once."""

        def write(raw: IO[bytes]) -> None:
            with gzip.GzipFile(fileobj=raw, mode="wb") as packed:
                for line in lines:
                    packed.write(line.encode() + b"\n")

        _write_durably(self.path(game_id), write)

    def get(self, game_id: str) -> list[str] | None:
        """The game's lines, or None (from the cache while the file is unchanged)."""
        path = self.path(game_id)
        try:
            found = path.stat()
        except FileNotFoundError:
            return None
        signature = (found.st_ino, found.st_size, found.st_mtime_ns)
        with self._lock:
            cached = self._read.get(game_id)
        if cached is not None and cached[0] == signature:
            return cached[1]
        try:
            with gzip.open(path, "rt", encoding="utf-8") as lines:
                read = [line.rstrip("\n") for line in lines if line.strip()]
        except FileNotFoundError:
            return None
        with self._lock:
            self._read.put(game_id, (signature, read))
        return read

    def put_keys(self, game_id: str, keys: ArchivedKeys) -> None:
        """Write the game's idempotency keys beside its lines, durably."""
        document = json.dumps({name: list(value) for name, value in keys.items()}).encode()
        _write_durably(self._keys_path(game_id), lambda raw: raw.write(document))

    def get_keys(self, game_id: str) -> ArchivedKeys:
        """The game's archived idempotency keys."""
        try:
            document = json.loads(self._keys_path(game_id).read_bytes())
        except FileNotFoundError:
            return {}
        return {name: (str(value), float(expires)) for name, (value, expires) in document.items()}

    def put_chat(self, game_id: str, lines: Iterable[str]) -> None:
        """Write the game's chat beside its lines, compressed, durably."""

        def write(raw: IO[bytes]) -> None:
            with gzip.GzipFile(fileobj=raw, mode="wb") as packed:
                for line in lines:
                    packed.write(line.encode() + b"\n")

        _write_durably(self.path(game_id).with_name(game_id + CHAT_SUFFIX), write)

    def get_chat(self, game_id: str) -> list[str]:
        """The game's archived chat lines."""
        try:
            with gzip.open(self.path(game_id).with_name(game_id + CHAT_SUFFIX), "rt",
                           encoding="utf-8") as lines:  # fmt: skip
                return [line.rstrip("\n") for line in lines if line.strip()]
        except FileNotFoundError:
            return []

    def _keys_path(self, game_id: str) -> Path:
        path = self.path(game_id)
        return path.with_name(game_id + KEYS_SUFFIX)

    def exists(self, game_id: str) -> bool:
        """Whether the game's file is there."""
        return self.path(game_id).is_file()

    def list(self) -> Iterator[str]:
        """Every archived game's id."""
        for path in self.folder.glob(f"??/*{SUFFIX}"):
            if not path.name.endswith(CHAT_SUFFIX):
                yield path.name[: -len(SUFFIX)]


def _write_durably(target: Path, write: Callable[[IO[bytes]], object]) -> None:
    """Write a file beside `target`, sync it, rename it to `target`, and sync its folder and
    every folder made for it (each in its parent), so that all of it survives a crash."""
    _make_folders(target.parent)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".", suffix=".part")
    try:
        with os.fdopen(handle, "wb") as raw:
            write(raw)
            raw.flush()
            os.fsync(raw.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    _sync_folder(target.parent)


def _make_folders(folder: Path) -> None:
    """Make `folder` and its missing parents, each synced in its parent once made."""
    if folder.is_dir():
        return
    _make_folders(folder.parent)
    try:
        folder.mkdir()
    except FileExistsError:  # another process made it meanwhile: it syncs it
        return
    _sync_folder(folder.parent)


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
