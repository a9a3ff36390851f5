"""Games in the store: load a table at any version (snapshot plus tail), append a decided
command's events, keep the derived snapshots and lobby index up to date, and move finished
games to the archive (and back into a stream when one is played again)."""

from __future__ import annotations

import hashlib
import json
import time
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from events.archive import Archive
from events.audit import export_line, stored_from_line
from events.chat import ChatMessage, ChatStore, chat_order, read_lines
from events.connection import RedisClient
from events.index import GameIndex, GameSummary
from events.index import RebuildReport as IndexReport
from events.locks import short_lock
from events.recent import Recent
from events.schemas import schema_for
from events.snapshots import SnapshotStore
from events.store import (
    AppendResult,
    EventStore,
    Idempotency,
    Remembered,
    StoredEvent,
    idempotency_name,
    parse_remembered,
)
from events.vocabulary import VOCABULARY, Vocabulary
from game.state import GameState, Knowledge
from game.table import STATUSES, Table, TableSeat, evolve


def _state_schema() -> str:
    """An id of the snapshot layout: it changes whenever the state's shape changes."""
    shapes = [
        (cls.__name__, sorted((k, str(v)) for k, v in typing.get_type_hints(cls).items()))
        for cls in (Table, TableSeat, GameState, Knowledge)
    ]
    return "table-" + hashlib.sha256(repr(shapes).encode()).hexdigest()[:16]


STATE_SCHEMA = _state_schema()
# When a sweep should step in for a table whose last command was appended at a time (or None).
SweepTime = Callable[[Table, float], float | None]


@dataclass(frozen=True)
class LoadedGame:
    """A table folded from its stream up to `version` (table None: no such game); `stamp` is
    that of the entry at `version` (None when unknown), which tells this history from another
    one a failover may have brought back to the same version."""

    table: Table | None
    version: int
    stamp: str | None = None
    at: int | None = None  # when the entry at `version` was appended (Unix ms; None: unknown)


@dataclass
class RebuildReport:
    """What `rebuild` changed."""

    snapshots_rewritten: int = 0
    snapshots_unchanged: int = 0
    due: int = 0  # games found waiting on a job
    index: IndexReport | None = None


@dataclass(frozen=True)
class Appended:
    """What an append did (the store's result) and, when it appended, the game after it."""

    result: AppendResult
    game: LoadedGame | None = None
    events: list[StoredEvent] = field(default_factory=list)


class GameRepository:
    """Loads and changes games; snapshots and the lobby index are kept up to date after appends."""

    def __init__(
        self,
        store: EventStore,
        snapshots: SnapshotStore,
        index: GameIndex | None = None,
        *,
        vocabulary: Vocabulary = VOCABULARY,
        snapshot_every: int = 50,
        archive: Archive | None = None,
    ) -> None:
        self.store = store
        self.snapshots = snapshots
        self.index = index
        self.archive = archive
        self.vocabulary = vocabulary
        self.snapshot_every = snapshot_every
        self.chat = ChatStore(store.redis, namespace=store.namespace)
        self._state = schema_for(Table)()
        self._listed = ListedLines()

    @classmethod
    def on(cls, client: RedisClient, namespace: str = "ll", **options: Any) -> GameRepository:
        """A repository with its store, snapshots and index on one Redis (default key TTLs)."""
        return cls(
            EventStore(client, namespace=namespace),
            SnapshotStore(client, namespace=namespace),
            GameIndex(client, namespace=namespace, statuses=STATUSES),
            **options,
        )

    def load(self, game_id: str, version: int | None = None) -> LoadedGame:
        """The game at its head, or as it was after `version` events (time travel); from the
        archive when it has left Redis."""
        snapshot = self.snapshots.load(game_id)
        usable = snapshot is not None and snapshot.schema == STATE_SCHEMA
        if snapshot is not None and usable and (version is None or snapshot.version <= version):
            stored = self.store.read(game_id, snapshot.version, version)  # its entry: its stamp
            if stored and stored[0].version == snapshot.version:
                table = self._state.load(json.loads(snapshot.payload))
                return self._folded(table, stored[0], stored[1:])
        stored = self.store.read(game_id, 1, version)
        if not stored:
            stored = self._archived(game_id, 1, version)
        return self._folded(None, None, stored)

    def _folded(
        self, table: Table | None, base: StoredEvent | None, stored: list[StoredEvent]
    ) -> LoadedGame:
        """`table` (at `base`) with `stored` applied."""
        last = stored[-1] if stored else base
        if last is None:
            return LoadedGame(self.fold(table, stored), 0)
        return LoadedGame(self.fold(table, stored), last.version, last.stamp, last.at)

    def read(self, game_id: str, start: int = 1, end: int | None = None) -> list[StoredEvent]:
        """Events with start <= version <= end (end None: to the last one), from the stream or,
        when the game has left Redis, from the archive."""
        stored = self.store.read(game_id, start, end)
        if stored or self.archive is None or not self.archive.exists(game_id):
            return stored
        return [] if self.store.exists(game_id) else self._archived(game_id, start, end)

    def recall(self, game_id: str, idempotency: Idempotency) -> Remembered | None:
        """What an append with this idempotency key wrote, while it is remembered: by Redis,
        or by the archive once the game left Redis with its keys."""
        seen = self.store.recall(game_id, idempotency)
        if seen is not None or self.archive is None or self.store.exists(game_id):
            return seen
        kept = self.archive.get_keys(game_id).get(idempotency_name(idempotency))
        if kept is None or kept[1] <= time.time():
            return None
        return parse_remembered(kept[0])

    def chat_messages(
        self, game_id: str, after: str = "0-0", count: int = 100
    ) -> list[ChatMessage]:
        """The game's chat messages after the id `after`, from Redis or, once the game left
        it, from the archive."""
        if self.archive is None or self.store.exists(game_id):
            return self.chat.read(game_id, after, count)
        messages, _ = read_lines(self.archive.get_chat(game_id))
        return [message for message in messages if chat_order(message.id) > chat_order(after)][
            :count
        ]

    def chat_lines(self, game_id: str) -> list[str]:
        """The game's chat as export lines (events/chat.py), from Redis or the archive."""
        if self.archive is None or self.store.exists(game_id):
            return self.chat.export(game_id)[0]
        return self.archive.get_chat(game_id)

    def chat_mutes(self, game_id: str) -> dict[str, frozenset[str]]:
        """What each reader muted at this game (from the archive once the game left Redis)."""
        if self.archive is None or self.store.exists(game_id):
            return self.chat.mutes(game_id)
        return read_lines(self.archive.get_chat(game_id))[1]

    def version(self, game_id: str) -> int:
        """The game's version (0: no such game)."""
        version = self.store.version(game_id)
        if version or self.archive is None:
            return version
        archived = self._archived(game_id)
        return archived[-1].version if archived else 0

    def exists(self, game_id: str) -> bool:
        """Whether the game has events, in Redis or in the archive."""
        return self.store.exists(game_id) or (
            self.archive is not None and self.archive.exists(game_id)
        )

    def _archived(self, game_id: str, start: int = 1, end: int | None = None) -> list[StoredEvent]:
        """The archived game's events from start to end ([] when it is not archived)."""
        lines = None if self.archive is None else self.archive.get(game_id)
        stored = [stored_from_line(line) for line in lines or ()]
        return [
            item
            for item in stored
            if start <= item.version and (end is None or item.version <= end)
        ]

    def fold(self, table: Table | None, stored: list[StoredEvent]) -> Table | None:
        """Apply stored events to a table."""
        for item in stored:
            table = evolve(table, self.vocabulary.decoded(item))
        return table

    def append(
        self,
        game_id: str,
        before: LoadedGame,
        events: list[Any],
        after: Table,
        *,
        record: Mapping[str, Any],
        idempotency: Idempotency | None = None,
        due_at: float | None = None,
        relay_at: float | None = None,
    ) -> Appended:
        """Append a command's events (decided on `before`, giving `after`) atomically; on
        success refresh the snapshot and the lobby line. An archived game is written back
        into its stream first. `relay_at`: the players must be told (see play/inbox.py)."""
        encoded = [self.vocabulary.encode(event) for event in events]
        now = float(record.get("at", 0.0)) or None
        at = None if now is None else int(now * 1000)

        def append() -> AppendResult:
            return self.store.append(
                game_id,
                before.version,
                encoded,
                idempotency=idempotency,
                due_at=due_at,
                meta=record,
                expected_stamp=before.stamp,
                at=now,
                relay_at=relay_at,
            )

        result = append()
        if result.status == "conflict" and result.current_version == 0 < before.version:
            archived = self._archived(game_id)
            if archived and self.store.restore(game_id, archived):
                assert self.archive is not None
                self.store.restore_keys(game_id, self.archive.get_keys(game_id))
                self.chat.restore(game_id, self.archive.get_chat(game_id))
                result = append()
        if not result.ok:
            return Appended(result)
        first, last = result.first_version, result.last_version
        stored = [
            StoredEvent(
                version,
                data,
                dict(record) if version == first else None,
                result.stamp if version == last else None,
                at=at,
            )
            for version, data in enumerate(encoded, start=first)
        ]
        game = LoadedGame(after, last, result.stamp, at)
        self._after_append(game_id, before.version, game, float(record.get("at", 0.0)))
        return Appended(result, game, stored)

    def archive_game(self, game_id: str, ended_before: float) -> str:
        """Move a game over since before `ended_before` (Unix time) from Redis to the archive,
        lobby line included: "archived", or why not ("not-over", "recent", "changed": played
        meanwhile, "no-stream")."""
        if self.archive is None:
            raise ValueError("no archive is configured")
        stored = self.store.read(game_id)
        if not stored:
            if self.index is not None:
                self.index.remove(game_id)
            return "no-stream"
        table = self.fold(None, stored)
        if table is None or table.status != "over":
            return "not-over"
        if last_recorded_at(stored) >= ended_before:
            return "recent"
        self.archive.put_keys(game_id, self.store.idempotency_keys(game_id))
        chat, chat_head = self.chat.export(game_id)
        if chat:
            self.archive.put_chat(game_id, chat)
        self.archive.put(game_id, (export_line(item) for item in stored))
        if not self.store.drop(game_id, stored[-1].version, chat_head):
            return "changed"
        if self.index is not None:
            self.index.remove(game_id)
        return "archived"

    def save_snapshot(self, game_id: str, game: LoadedGame) -> None:
        """Store the game's state as its snapshot."""
        self.snapshots.save(game_id, game.version, STATE_SCHEMA, self._payload(game.table))

    def _payload(self, table: Table | None) -> str:
        return json.dumps(self._state.dump(table), separators=(",", ":"))

    def rebuild(
        self,
        sweep_time: SweepTime | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> RebuildReport:
        """Fold every stream from its start; rewrite differing snapshots; rebuild the index
        and, given `sweep_time`, each game's due entry. `progress(done, total)` after each game."""
        report = RebuildReport()
        summaries = []
        game_ids = list(self.store.game_ids())
        for done, game_id in enumerate(game_ids, start=1):
            if progress is not None:
                progress(done, len(game_ids))
            stored = self.store.read(game_id)
            table = self.fold(None, stored)
            if table is None:
                continue
            fresh = (len(stored), STATE_SCHEMA, self._payload(table))
            snapshot = self.snapshots.load(game_id)
            if snapshot is None or (snapshot.version, snapshot.schema, snapshot.payload) != fresh:
                self.snapshots.save(game_id, *fresh)
                report.snapshots_rewritten += 1
            else:
                report.snapshots_unchanged += 1
            last_at = last_recorded_at(stored)
            summaries.append((game_id, summary(table, last_at)))
            due_at = None if sweep_time is None else sweep_time(table, last_at)
            if due_at is not None:
                self.store.due.put(game_id, len(stored), due_at)
                report.due += 1
        if self.index is not None:
            report.index = self.index.rebuild(summaries)
        return report

    def _after_append(self, game_id: str, before: int, after: LoadedGame, now: float) -> None:
        if after.version // self.snapshot_every > before // self.snapshot_every:
            self.save_snapshot(game_id, after)
        if self.index is not None and after.table is not None:
            line = summary(after.table, now)
            if self._listed.needs(game_id, line):
                self.index.put(game_id, line)


class ListedLines:
    """The lobby lines this process wrote last: a game's line is written again only when it
    changes, or when its `updated_at` is LIST_EVERY seconds old (so the lobby's activity order
    lags by at most that much)."""

    def __init__(self, size: int = 4096) -> None:
        self._lines: Recent[str, GameSummary] = Recent(size)
        self._lock = short_lock()

    def needs(self, game_id: str, line: GameSummary) -> bool:
        """Whether the index needs `line` written; if so, it is remembered as written."""
        with self._lock:
            last = self._lines.get(game_id)
            fresh = last is not None and _listing(last) == _listing(line)
            if fresh and last is not None and line.updated_at - last.updated_at < LIST_EVERY:
                self._lines.put(game_id, last)
                return False
            self._lines.put(game_id, line)
            return True


LIST_EVERY = 30.0


def _listing(line: GameSummary) -> tuple[str, str, int, int, bool]:
    """What a lobby line says but its time."""
    return (line.status, line.edition, line.open_seats, line.players, line.listed)


def summary(table: Table, updated_at: float) -> GameSummary:
    """The lobby's line for a game (a tutorial's is kept unlisted)."""
    return GameSummary(
        table.status,
        table.edition,
        table.open_seats,
        len(table.seats),
        updated_at,
        listed=table.tutorial is None,
    )


def last_recorded_at(stored: list[StoredEvent]) -> float:
    """When the last command among these events was appended (0 if none)."""
    for item in reversed(stored):
        if item.meta is not None:
            return float(item.meta.get("at", 0.0))
    return 0.0
