"""Following a game: its events after a version, read from the stream once and then heard from
this process's append hub, so a client that waits holds no Redis connection while it waits."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from events.hub import Append, Watch
from events.players import InboxEntry
from events.store import EventStore, StoredEvent
from play.context import Context


class Follower:
    """The events of one game after `after`, batch by batch; `after` moves past each batch."""

    def __init__(
        self, store: EventStore, watch: Watch, after: int, limit: int | None, chat: bool = False
    ) -> None:
        self.store = store
        self.watch = watch
        self.after = after
        self.limit = limit  # the most events one batch holds (None: no limit)
        self.chat = chat  # news of the chat ends a wait too (the caller reads the chat)
        self._read = True  # the stream must be read: what came before the watch began

    def caught_up(self) -> None:
        """Nothing follows `after` in the stream as read since the watch began: the first batch
        needs no read of its own."""
        self._read = False

    @property
    def closed(self) -> bool:
        """The hub is closing (the process stops): stop following."""
        return self.watch.closed

    def next(self, timeout: float) -> list[StoredEvent]:
        """The next events after `after`, waiting up to timeout seconds for some ([]: none)."""
        deadline = time.monotonic() + timeout
        while True:
            heard, missed = self.watch.take()
            events = self._news(heard, read=missed or self._read)
            if events or self.closed or (self.chat and self.watch.chatted):
                return events
            left = deadline - time.monotonic()
            if left <= 0:
                return []
            self.watch.wait(left)

    def _news(self, heard: list[Append], *, read: bool) -> list[StoredEvent]:
        """What follows `after`: from the appends heard, or read from the stream when some
        may be missing (a gap in the versions, or appends gone unheard)."""
        news: list[StoredEvent] = []
        if not read:
            for event in (event for append in heard for event in append):
                wanted = self.after + len(news) + 1
                if event.version == wanted:
                    news.append(event)
                elif event.version > wanted:  # a gap: something went unheard
                    read = True
                    break
        if read:
            last = None if self.limit is None else self.after + self.limit
            news = self.store.read(self.watch.game_id, self.after + 1, last)
        # A full batch may have more behind it: the next one reads the stream.
        self._read = self.limit is not None and len(news) >= self.limit
        news = news[: self.limit]
        if news:
            self.after = news[-1].version
        return news


@contextmanager
def follow(
    ctx: Context, game_id: str, after: int, limit: int | None = None, chat: bool = False
) -> Iterator[Follower]:
    """Follow a game's events after version `after` for as long as the block runs (with
    `chat`, a wait also ends when the game's chat has news)."""
    with ctx.hub.watch(game_id) as watch:
        yield Follower(ctx.games.store, watch, after, limit, chat)


def entry_order(entry_id: str) -> tuple[int, int]:
    """An inbox entry id (`<ms>-<n>`) as a sortable pair."""
    ms, _, n = entry_id.partition("-")
    return int(ms), int(n or 0)


class InboxFollower:
    """A player's inbox entries after the entry id `after`, read once, then heard."""

    def __init__(self, ctx: Context, watch: Watch, player_id: str, after: str) -> None:
        self.ctx = ctx
        self.watch = watch
        self.player_id = player_id
        self.after = after
        self._read = True

    @property
    def closed(self) -> bool:
        """The hub is closing (the process stops)."""
        return self.watch.closed

    def next(self, timeout: float) -> list[InboxEntry]:
        """The next entries after `after`, waiting up to timeout seconds for some ([]: none)."""
        deadline = time.monotonic() + timeout
        while True:
            heard, missed = self.watch.take()
            if missed or self._read:
                entries = self.ctx.players.inbox(self.player_id, self.after, BATCH)
                self._read = len(entries) >= BATCH
            else:
                last = entry_order(self.after)
                heard_entries: list[Any] = [entry for batch in heard for entry in batch]
                entries = [entry for entry in heard_entries if entry_order(entry.id) > last]
            if entries:
                self.after = entries[-1].id
                return entries
            if self.closed:
                return []
            left = deadline - time.monotonic()
            if left <= 0:
                return []
            self.watch.wait(left)


BATCH = 100  # the most inbox entries read at once


@contextmanager
def follow_inbox(ctx: Context, player_id: str, after: str) -> Iterator[InboxFollower]:
    """Follow a player's inbox after the entry id `after` for as long as the block runs."""
    with ctx.hub.watch_inbox(player_id) as watch:
        yield InboxFollower(ctx, watch, player_id, after)
