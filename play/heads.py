"""The latest state of recently used games, kept per process so loading one reads only news."""

from __future__ import annotations

from typing import Protocol

from events.games import GameRepository, LoadedGame
from events.hub import AppendHub, Mark
from events.locks import short_lock
from events.recent import Recent
from events.store import StoredEvent

HEADS_KEPT = 16_384  # games whose latest state each process keeps


class Listener(Protocol):
    """What hears every append in this process (events.hub.AppendHub)."""

    def mark(self) -> Mark | None:
        """Where it stands now (None: not listening)."""

    def unchanged(self, game_id: str, mark: Mark | None) -> bool:
        """Whether nothing of the game was appended since `mark`."""


class HeadCache:
    """A derived cache of game heads: streams are append-only, so a cached head is a prefix of
    the truth, unless a failover lost the writes it was folded from. The entry at the cached
    version is read again and its stamp compared, so a stream that is gone, or that came back
    to that version with other events, is noticed.

    Followed by the process's append hub (`follow`), a kept head also takes each append the hub
    hears that follows it (same version, same stamp as checked by that append's script), so it
    is current without a read when another process appended.
    """

    def __init__(self, games: GameRepository, size: int = HEADS_KEPT) -> None:
        self.games = games
        self._heads: Recent[str, LoadedGame] = Recent(size)
        self._checked: Recent[str, Mark] = Recent(size)  # the listener's mark at the last read
        self._lock = short_lock()

    def follow(self, hub: AppendHub) -> None:
        """Keep heads current from the appends `hub` hears while it listens (for its waiters: a
        process that has none pays for no subscription)."""
        hub.keep_heads(self)

    def peek(self, game_id: str) -> LoadedGame | None:
        """The cached head, read from nothing (it may be behind the stream)."""
        with self._lock:
            return self._heads.get(game_id)

    def kept_version(self, game_id: str) -> int | None:
        """The version of the game's kept head (the hub asks before it decodes an append)."""
        with self._lock:
            cached = self._heads.get(game_id)
        return None if cached is None else cached.version

    def hear(self, game_id: str, append: list[StoredEvent], stamp_before: str, mark: Mark) -> None:
        """Fold an append the hub heard into the kept head when it follows it: its first version
        is next, and its script found the head's stamp there. As of `mark` the hub has heard
        nothing newer of the game, as if the head had been read then."""
        with self._lock:
            cached = self._heads.get(game_id)
        if cached is None or not append or not stamp_before:
            return
        if (append[0].version - 1, stamp_before) != (cached.version, cached.stamp):
            return
        if any(item.decoded is None for item in append):  # not ours to fold (a newer release's)
            self.forget(game_id)
            return
        last, table = append[-1], self.games.fold(cached.table, append)
        loaded = LoadedGame(table, last.version, last.stamp, last.at)
        with self._lock:
            if self._heads.get(game_id) is cached:  # not replaced while folding
                self._heads.put(game_id, loaded)
                self._checked.put(game_id, mark)

    def load(self, game_id: str, listener: Listener | None = None) -> LoadedGame:
        """The game at its head: the cached state plus the stream's newer events. With the
        process's `listener`, a head read since which it heard nothing of the game is taken as
        it is, without reading Redis: only for a caller watching the game already (a long poll),
        which hears any append the listener has not handled yet."""
        if listener is None:
            return self._read(game_id)
        with self._lock:
            cached, checked = self._heads.get(game_id), self._checked.get(game_id)
        if cached is not None and listener.unchanged(game_id, checked):
            return cached
        mark = listener.mark()  # before the read: what is heard after it is news
        loaded = self._read(game_id)
        with self._lock:
            if mark is not None and self._heads.get(game_id) is loaded:
                self._checked.put(game_id, mark)
        return loaded

    def _read(self, game_id: str) -> LoadedGame:
        """The cached state plus the stream's newer events (the cache keeps the result)."""
        cached = self.peek(game_id)
        stored = [] if cached is None else self.games.read(game_id, cached.version)
        if cached is not None and stored and _same(stored[0], cached):
            last = stored[-1]
            loaded = LoadedGame(
                self.games.fold(cached.table, stored[1:]), last.version, last.stamp, last.at
            )
            self.remember(game_id, loaded)
            return loaded
        loaded = self.games.load(game_id)
        with self._lock:  # what the stream says now, even when it is behind what was kept
            self._heads.pop(game_id)
            if loaded.table is not None:
                self._heads.put(game_id, loaded)
        return loaded

    def forget(self, game_id: str) -> None:
        """Drop the game's head (e.g. it left Redis for the archive)."""
        with self._lock:
            self._heads.pop(game_id)
            self._checked.pop(game_id)

    def remember(self, game_id: str, loaded: LoadedGame) -> None:
        """Keep `loaded` unless a later version is kept already (no table: forget the game)."""
        with self._lock:
            cached = self._heads.pop(game_id)
            self._checked.pop(game_id)
            if loaded.table is None:
                return
            if cached is not None and cached.version > loaded.version:
                loaded = cached
            self._heads.put(game_id, loaded)


def _same(entry: StoredEvent, head: LoadedGame) -> bool:
    """Whether `entry` is the one `head` was folded up to."""
    return entry.version == head.version and entry.stamp == head.stamp
