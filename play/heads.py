"""The latest state of recently used games, kept per process so loading one reads only news."""

from __future__ import annotations

import threading

from events.games import GameRepository, LoadedGame
from events.recent import Recent

HEADS_KEPT = 4096  # games whose latest state each process keeps


class HeadCache:
    """A derived cache of game heads: streams are append-only, so a cached head is a prefix of
    the truth. The entry at the cached version is read again, so a stream that is gone is noticed.
    """

    def __init__(self, games: GameRepository, size: int = HEADS_KEPT) -> None:
        self.games = games
        self._heads: Recent[str, LoadedGame] = Recent(size)
        self._lock = threading.Lock()

    def peek(self, game_id: str) -> LoadedGame | None:
        """The cached head, read from nothing (it may be behind the stream)."""
        with self._lock:
            return self._heads.get(game_id)

    def load(self, game_id: str) -> LoadedGame:
        """The game at its head: the cached state plus the stream's newer events."""
        cached = self.peek(game_id)
        stored = [] if cached is None else self.games.store.read(game_id, cached.version)
        if cached is None or not stored or stored[0].version != cached.version:
            loaded = self.games.load(game_id)
        else:
            loaded = LoadedGame(self.games.fold(cached.table, stored[1:]), stored[-1].version)
        self.remember(game_id, loaded)
        return loaded

    def remember(self, game_id: str, loaded: LoadedGame) -> None:
        """Keep `loaded` unless a later version is kept already (no table: forget the game)."""
        with self._lock:
            cached = self._heads.pop(game_id)
            if loaded.table is None:
                return
            if cached is not None and cached.version > loaded.version:
                loaded = cached
            self._heads.put(game_id, loaded)
