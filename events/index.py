"""The lobby index: a derived, rebuildable summary of every game, queryable across games.

Keys (cross-slot, updated by the caller after appends, never inside the append script):
`{ns}:index:game:<id>` the summary as JSON; `{ns}:index:updated` all games by updated_at;
`{ns}:index:status:<status>` the games of one status; `{ns}:index:statuses` the status names.
Only per-key commands and non-transactional pipelines are used, so it runs on Redis Cluster.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from events.connection import RedisClient, as_text
from events.store import GAME_ID

PAGE_SIZE = 200
PIPELINE_SIZE = 1000


@dataclass(frozen=True)
class GameSummary:
    """What the lobby shows of one game."""

    status: str
    edition: str
    open_seats: int
    players: int
    updated_at: float
    listed: bool = True  # False: kept for the archive's sweep, never shown (a tutorial)


@dataclass(frozen=True)
class RebuildReport:
    """How a rebuild changed the index compared to what was there."""

    added: int
    changed: int
    removed: int
    unchanged: int


class GameIndex:
    """Lobby queries over game summaries; everything in it can be rebuilt from the streams."""

    def __init__(
        self, redis_client: RedisClient, *, namespace: str = "ll", statuses: Iterable[str] = ()
    ) -> None:
        self.redis = redis_client
        self.namespace = namespace
        self.prefix = f"{namespace}:index:"
        # Statuses seen (they only grow): a game leaves every other status's set on put.
        self._known_statuses: set[str] = set(statuses)

    def put(self, game_id: str, summary: GameSummary) -> None:
        """Insert or replace the game's summary (one round trip once the statuses are known)."""
        if not self._known_statuses:
            self._known_statuses |= self._statuses()
        statuses = self._known_statuses | {summary.status}
        self._known_statuses = statuses
        pipe = self.redis.pipeline(transaction=False)
        self._queue_put(pipe, game_id, summary, statuses)
        pipe.execute()

    def get(self, game_id: str) -> GameSummary | None:
        """The game's summary, or None."""
        return _decode(self.redis.get(self._game_key(game_id)))

    def remove(self, game_id: str) -> None:
        """Drop the game from the index."""
        pipe = self.redis.pipeline(transaction=False)
        self._queue_remove(pipe, game_id, self._statuses())
        pipe.execute()

    def query(
        self,
        status: str | None = None,
        edition: str | None = None,
        has_open_seats: bool | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[tuple[str, GameSummary]]:
        """Matching games, most recently updated first."""
        if limit <= 0 or offset < 0:
            return []
        source = self._updated_key if status is None else self._status_key(status)
        found: list[tuple[str, GameSummary]] = []
        position = 0
        while len(found) < offset + limit:
            page: Any = self.redis.zrange(source, position, position + PAGE_SIZE - 1, desc=True)
            if not page:
                break
            position += len(page)
            ids = [as_text(member) for member in page]
            for game_id, summary in zip(ids, self._get_many(ids), strict=True):
                if summary is not None and _matches(summary, status, edition, has_open_seats):
                    found.append((game_id, summary))
        return found[offset : offset + limit]

    def updated_before(self, status: str, before: float, count: int, offset: int = 0) -> list[str]:
        """Games of `status` whose line was last written before `before` (Unix time), oldest
        first: `count` of them after the first `offset`."""
        found: Any = self.redis.zrangebyscore(
            self._status_key(status), "-inf", f"({before}", start=offset, num=count
        )
        return [as_text(member) for member in found]

    def clear(self) -> None:
        """Delete every key of the index."""
        keys = list(self.redis.scan_iter(match=self.prefix + "*", count=1000))
        pipe = self.redis.pipeline(transaction=False)
        for key in keys:
            pipe.delete(key)
            _flush_if_long(pipe)
        pipe.execute()

    def rebuild(self, summaries: Iterable[tuple[str, GameSummary]]) -> RebuildReport:
        """Make the index hold exactly these summaries; report what differed."""
        wanted = dict(summaries)
        existing = dict(self._entries())
        statuses = self._statuses() | {summary.status for summary in wanted.values()}
        added = changed = unchanged = 0
        pipe = self.redis.pipeline(transaction=False)
        for game_id, summary in wanted.items():
            old = existing.get(game_id)
            if old is None:
                added += 1
            elif old != summary:
                changed += 1
            else:
                unchanged += 1
            self._queue_put(pipe, game_id, summary, statuses)
            _flush_if_long(pipe)
        removed = [game_id for game_id in existing if game_id not in wanted]
        for game_id in removed:
            self._queue_remove(pipe, game_id, statuses)
            _flush_if_long(pipe)
        pipe.execute()
        self._drop_strays(set(wanted), statuses)
        return RebuildReport(added, changed, len(removed), unchanged)

    @property
    def _updated_key(self) -> str:
        return self.prefix + "updated"

    @property
    def _statuses_key(self) -> str:
        return self.prefix + "statuses"

    def _status_key(self, status: str) -> str:
        return f"{self.prefix}status:{status}"

    def _game_key(self, game_id: str) -> str:
        if not GAME_ID.fullmatch(game_id):
            raise ValueError(f"game id must be 1-200 URL-safe characters: {game_id!r}")
        return f"{self.prefix}game:{game_id}"

    def _statuses(self) -> set[str]:
        return {as_text(status) for status in self.redis.smembers(self._statuses_key)}

    def _queue_put(self, pipe: Any, game_id: str, summary: GameSummary, statuses: set[str]) -> None:
        """Queue the commands of put(); the game leaves every other status's set."""
        encoded = json.dumps(asdict(summary), separators=(",", ":"), sort_keys=True)
        pipe.set(self._game_key(game_id), encoded)
        pipe.zadd(self._updated_key, {game_id: summary.updated_at})
        pipe.sadd(self._statuses_key, summary.status)
        pipe.zadd(self._status_key(summary.status), {game_id: summary.updated_at})
        for other in sorted(statuses - {summary.status}):
            pipe.zrem(self._status_key(other), game_id)

    def _queue_remove(self, pipe: Any, game_id: str, statuses: set[str]) -> None:
        """Queue the commands of remove()."""
        pipe.delete(self._game_key(game_id))
        pipe.zrem(self._updated_key, game_id)
        for status in sorted(statuses):
            pipe.zrem(self._status_key(status), game_id)

    def _get_many(self, game_ids: Sequence[str]) -> list[GameSummary | None]:
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.get(self._game_key(game_id))
        return [_decode(raw) for raw in pipe.execute()]

    def _entries(self) -> Iterator[tuple[str, GameSummary]]:
        """Every (game id, summary) stored, found by SCAN (all primaries of a cluster)."""
        start = len(self.prefix + "game:")
        keys = self.redis.scan_iter(match=self.prefix + "game:*", count=1000)
        ordered = sorted({as_text(key)[start:] for key in keys})
        for game_id, summary in zip(ordered, self._get_many(ordered), strict=True):
            if summary is not None:
                yield game_id, summary

    def _drop_strays(self, keep: set[str], statuses: set[str]) -> None:
        """Remove set members that have no summary (left behind by racing writers)."""
        pipe = self.redis.pipeline(transaction=False)
        for key in [self._updated_key, *(self._status_key(status) for status in statuses)]:
            for member, _score in self.redis.zscan_iter(key, count=1000):
                if as_text(member) not in keep:
                    pipe.zrem(key, member)
                    _flush_if_long(pipe)
        pipe.execute()


def _flush_if_long(pipe: Any) -> None:
    """Send a long pipeline's queued commands, so none grows without bound."""
    if len(pipe) >= PIPELINE_SIZE:
        pipe.execute()


def _decode(raw: bytes | str | None) -> GameSummary | None:
    """A GameSummary from its JSON, or None."""
    if raw is None:
        return None
    data = json.loads(raw)
    return GameSummary(
        status=str(data["status"]),
        edition=str(data["edition"]),
        open_seats=int(data["open_seats"]),
        players=int(data["players"]),
        updated_at=float(data["updated_at"]),
        listed=bool(data.get("listed", True)),  # lines written before tutorials: listed
    )


def _matches(
    summary: GameSummary, status: str | None, edition: str | None, has_open_seats: bool | None
) -> bool:
    """True when the summary is listed and passes every given filter."""
    return (
        summary.listed
        and (status is None or summary.status == status)
        and (edition is None or summary.edition == edition)
        and (has_open_seats is None or (summary.open_seats > 0) == has_open_seats)
    )
