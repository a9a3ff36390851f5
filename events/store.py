"""The event store: one Redis stream per game, appended to atomically by one Lua script."""

from __future__ import annotations

import functools
import json
import re
import secrets
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib.resources import files
from typing import Any

import orjson
from redis.cluster import RedisCluster
from redis.crc import key_slot

from events.connection import RedisClient, Script, as_text
from events.due import DueSets
from events.replicas import NotReplicated, ReplicaWait

GAME_ID = re.compile(r"[A-Za-z0-9._~-]{1,200}")
APPEND_SCRIPT = files("events").joinpath("append.lua").read_text(encoding="utf-8")
DROP_SCRIPT = files("events").joinpath("drop.lua").read_text(encoding="utf-8")
RESTORE_SCRIPT = files("events").joinpath("restore.lua").read_text(encoding="utf-8")


def game_key(namespace: str, game_id: str, suffix: str) -> str:
    """`{ns}:{game_id}:suffix` with the game id as hash tag: one game, one cluster slot."""
    if not GAME_ID.fullmatch(game_id):
        raise ValueError(f"game id must be 1-200 URL-safe characters: {game_id!r}")
    return f"{namespace}:{{{game_id}}}:{suffix}"


def appends_channel(namespace: str) -> str:
    """The pub/sub channel on which every append of the namespace is published (see hub.py)."""
    return f"{namespace}:appends"


def to_json(value: Mapping[str, Any]) -> str:
    """Compact, key-sorted JSON in UTF-8: the form stored in the stream.

    orjson writes what `json.dumps(value, separators=(",", ":"), sort_keys=True,
    ensure_ascii=False)` writes for events and their records, several times faster.
    """
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
    except orjson.JSONEncodeError:  # e.g. an integer beyond 64 bits: the standard library's
        return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


@dataclass(frozen=True)
class AppendResult:
    """Outcome of an append: status is "ok", "duplicate", "key-reused" or "conflict".

    ok, duplicate and key-reused carry the versions the (key's first) append wrote; conflict
    carries 0s. current_version is the stream's version after this call. `stamp` marks the
    append's last entry (ok only); `replicated` is False when the store promises replicas and
    fewer acknowledged the write in time (the master has it; see events/replicas.py).
    """

    status: str
    first_version: int
    last_version: int
    current_version: int
    stamp: str | None = field(default=None, compare=False)
    replicated: bool = True

    @property
    def ok(self) -> bool:
        """True when this call appended the events."""
        return self.status == "ok"


@dataclass(frozen=True)
class Idempotency:
    """A caller's idempotency key and the fingerprint of the request it was sent with."""

    scope: str  # whose key it is: a seat, a job, a client address
    key: str
    fingerprint: str = ""


@dataclass(frozen=True)
class Remembered:
    """What an idempotency key appended: versions first to last, for this fingerprint."""

    first_version: int
    last_version: int
    fingerprint: str


@dataclass(frozen=True)
class StoredEvent:
    """One stream entry: its version (1-based position), the event, the command's meta (on its
    first event) and the append's stamp (on its last); `decoded`: the event already decoded,
    when its reader did so once for everyone it hands it to (the append hub)."""

    version: int
    event: dict[str, Any]
    meta: dict[str, Any] | None
    stamp: str | None = None
    decoded: Any = field(default=None, compare=False, repr=False)
    at: int | None = None  # when it was appended (Unix ms); None for entries written before

    @property
    def at_iso(self) -> str | None:
        """`at` as an ISO 8601 UTC time with milliseconds (None when unknown)."""
        return None if self.at is None else iso_time(self.at)


class EventStore:
    """Append-only event streams in Redis, one per game, with expected version and idempotency.

    An idempotency key is kept for idempotency_ttl_seconds (default 7 days) after its append:
    a retry within that period returns the first result; after it, the key is forgotten and the
    expected-version check alone protects the stream.

    With `replicas` > 0, an append (and the answer to a repeated key) waits until that many
    replicas have it, at most `replica_timeout_ms`; see events/replicas.py.
    """

    def __init__(
        self,
        redis_client: RedisClient,
        *,
        namespace: str = "ll",
        idempotency_ttl_seconds: int = 7 * 24 * 3600,
        replicas: int = 0,
        replica_timeout_ms: int = 1000,
    ) -> None:
        if idempotency_ttl_seconds <= 0:
            raise ValueError("idempotency_ttl_seconds must be positive")
        self.redis = redis_client
        self.namespace = namespace
        self.idempotency_ttl_seconds = idempotency_ttl_seconds
        self.due = DueSets(redis_client, namespace=namespace)
        self.relays = DueSets(redis_client, namespace=namespace, kind="relay")
        self.replicas = ReplicaWait(redis_client, replicas, replica_timeout_ms)
        self._append = Script(redis_client, APPEND_SCRIPT)
        self._drop = redis_client.register_script(DROP_SCRIPT)
        self._restore = redis_client.register_script(RESTORE_SCRIPT)

    def stream_key(self, game_id: str) -> str:
        """The key of the game's stream."""
        return game_key(self.namespace, game_id, "stream")

    def idempotency_key(self, game_id: str, idempotency: Idempotency) -> str:
        """The key that remembers the append a caller made with its idempotency key."""
        return game_key(self.namespace, game_id, idempotency_name(idempotency))

    def idempotency_keys(self, game_id: str) -> dict[str, tuple[str, float]]:
        """The game's remembered idempotency keys: name (`idem:...`) to what it holds and when
        it expires (Unix time)."""
        prefix = game_key(self.namespace, game_id, "")
        names = [key for key in self.keys_of(game_id) if key.startswith(prefix + "idem:")]
        if not names:
            return {}
        pipe = self.redis.pipeline(transaction=False)
        for name in names:
            pipe.get(name)
            pipe.pttl(name)
        replies: Any = pipe.execute()
        now = time.time()
        found = {}
        for name, value, ttl in zip(names, replies[::2], replies[1::2], strict=True):
            if value is not None and int(ttl) > 0:
                found[name[len(prefix) :]] = (as_text(value), now + int(ttl) / 1000)
        return found

    def restore_keys(self, game_id: str, keys: Mapping[str, tuple[str, float]]) -> None:
        """Write archived idempotency keys back, each until it expires (none that exist)."""
        now = time.time()
        pipe = self.redis.pipeline(transaction=False)
        for name, (value, expires_at) in keys.items():
            left = int((expires_at - now) * 1000)
            if left > 0:
                pipe.set(game_key(self.namespace, game_id, name), value, px=left, nx=True)
        pipe.execute()

    def append(
        self,
        game_id: str,
        expected_version: int,
        events: Sequence[Mapping[str, Any]],
        *,
        idempotency: Idempotency | None = None,
        due_at: float | None = None,
        meta: Mapping[str, Any] | None = None,
        expected_stamp: str | None = None,
        at: float | None = None,
        relay_at: float | None = None,
    ) -> AppendResult:
        """Append all events after expected_version, or nothing (conflict, duplicate or a key
        reused for another request); `due_at` records that the game then waits on a job.
        With `expected_stamp`, the entry at expected_version must be the one decided on: a
        version that came back with other events after a failover is a conflict too. `at`
        (Unix seconds, default now) is written on every entry; `relay_at` records that the
        players must be told of this append, and when a sweep should do it if nobody did."""
        if not events:
            raise ValueError("append needs at least one event")
        if expected_version < 0:
            raise ValueError("expected_version must be >= 0")
        keys = [self.stream_key(game_id), self.due.key(game_id), self.relays.key(game_id)]
        if idempotency is not None:
            keys.append(self.idempotency_key(game_id, idempotency))
        stamp = secrets.token_hex(8)
        args: list[str | int | float] = [
            expected_version,
            self.idempotency_ttl_seconds,
            "" if idempotency is None else idempotency.fingerprint,
            game_id,
            "" if due_at is None else repr(due_at),
            "" if meta is None else to_json(meta),
            stamp,
            expected_stamp or "",
            appends_channel(self.namespace),
            int((time.time() if at is None else at) * 1000),
            "" if relay_at is None else repr(relay_at),
            *(to_json(event) for event in events),
        ]
        replicated = True
        if self.replicas.replicas:
            command = ("EVALSHA", self._append.sha, len(keys), *keys, *args)
            replies, replicated = self.replicas.execute(keys[0], [command], [APPEND_SCRIPT])
            status, first, last, current = replies[0]
        else:
            status, first, last, current = self._append(keys=keys, args=args)
        status = as_text(status)
        return AppendResult(
            status,
            int(first),
            int(last),
            int(current),
            stamp if status == "ok" else None,
            replicated,
        )

    def recall(self, game_id: str, idempotency: Idempotency) -> Remembered | None:
        """What an append with this idempotency key wrote, if it is still remembered. When the
        store promises replicas, NotReplicated if they don't have it (yet)."""
        key = self.idempotency_key(game_id, idempotency)
        if self.replicas.replicas:  # the EXPIRE is a write, so WAIT covers the first append
            commands = [("GET", key), ("EXPIRE", key, self.idempotency_ttl_seconds)]
            replies, replicated = self.replicas.execute(key, commands)
            seen = replies[0]
            if seen is not None and not replicated:
                raise NotReplicated(f"the append of {game_id} is not on enough replicas yet")
        else:
            seen = self.redis.get(key)
        if seen is None:
            return None
        return parse_remembered(as_text(seen))

    def version(self, game_id: str) -> int:
        """The game's version: the number of events in its stream (0 when there are none)."""
        return int(self.redis.xlen(self.stream_key(game_id)))

    def exists(self, game_id: str) -> bool:
        """True when the game has at least one event."""
        return bool(self.redis.exists(self.stream_key(game_id)))

    def read(self, game_id: str, start: int = 1, end: int | None = None) -> list[StoredEvent]:
        """Events with start <= version <= end (end None: to the last one), in order."""
        last = "+" if end is None else f"{end}-0"
        entries: Any = self.redis.xrange(self.stream_key(game_id), f"{max(start, 1)}-0", last)
        return [_stored(entry_id, fields) for entry_id, fields in entries]

    def follow(self, game_id: str, after_version: int, timeout_seconds: float) -> list[StoredEvent]:
        """Events after after_version, waiting up to timeout_seconds for some; [] on timeout."""
        key = self.stream_key(game_id)
        block = max(int(timeout_seconds * 1000), 1)  # BLOCK 0 would wait forever
        reply: Any = self.redis.xread({key: f"{max(after_version, 0)}-0"}, block=block)
        if not reply:
            return []
        entries = next(iter(reply.values())) if isinstance(reply, dict) else reply[0][1]
        return [_stored(entry_id, fields) for entry_id, fields in entries]

    def keys_of(self, game_id: str) -> list[str]:
        """Every key of the game in this namespace (all share its hash tag): on a cluster the
        keys of its slot, on one server a SCAN of the keyspace."""
        prefix = game_key(self.namespace, game_id, "")
        if isinstance(self.redis, RedisCluster):
            slot = key_slot(game_id.encode())
            count = int(self.redis.cluster_countkeysinslot(slot))
            found: Any = self.redis.cluster_get_keys_in_slot(slot, count) if count else []
        else:
            found = self.redis.scan_iter(match=prefix + "*", count=1000)
        return sorted({as_text(key) for key in found if as_text(key).startswith(prefix)})

    def drop(self, game_id: str, version: int, chat_head: str = "0-0") -> bool:
        """Delete every key of the game, if its stream is still at `version` and its chat at
        the message `chat_head` ("0-0": none) (True when done)."""
        stream, chat = self.stream_key(game_id), game_key(self.namespace, game_id, "chat")
        others = [key for key in self.keys_of(game_id) if key not in (stream, chat)]
        keys = [stream, self.due.key(game_id), chat, *others]
        return bool(self._drop(keys=keys, args=[version, game_id, chat_head]))

    def restore(self, game_id: str, stored: Sequence[StoredEvent]) -> int:
        """Write archived events back into the game's stream if it has none; its length."""
        args: list[str | int] = []
        for item in stored:
            meta = "" if item.meta is None else to_json(item.meta)
            args += [item.version, to_json(item.event), meta, "" if item.at is None else item.at]
        return int(self._restore(keys=[self.stream_key(game_id)], args=args))

    def game_ids(self) -> Iterator[str]:
        """Every game with a stream in this namespace (SCAN, on every primary of a cluster)."""
        prefix, suffix = f"{self.namespace}:{{", "}:stream"
        seen: set[str] = set()
        for key in self.redis.scan_iter(match=f"{prefix}*{suffix}", count=1000, _type="stream"):
            game_id = as_text(key)[len(prefix) : -len(suffix)]
            if game_id not in seen:  # SCAN may return a key twice
                seen.add(game_id)
                yield game_id


def idempotency_name(idempotency: Idempotency) -> str:
    """An idempotency key's name among its game's keys."""
    return f"idem:{idempotency.scope}:{idempotency.key}"


def parse_remembered(value: str) -> Remembered:
    """What an idempotency key holds (`first:last:fingerprint`), read back."""
    first, last, fingerprint = value.split(":", 2)
    return Remembered(int(first), int(last), fingerprint)


def _stored(entry_id: bytes | str, fields: Mapping[Any, Any]) -> StoredEvent:
    """A StoredEvent from an XRANGE/XREAD entry."""
    fields = {as_text(name): value for name, value in fields.items()}
    meta, stamp, at = fields.get("m"), fields.get("n"), fields.get("t")
    return StoredEvent(
        version=int(as_text(entry_id).split("-")[0]),
        event=json.loads(fields["e"]),
        meta=None if meta is None else json.loads(meta),
        stamp=None if stamp is None else as_text(stamp),
        at=None if at is None else int(at),
    )


@functools.lru_cache(maxsize=4096)  # the events of one append, sent to each of its waiters
def iso_time(milliseconds: int) -> str:
    """Unix milliseconds as `2026-01-05T10:02:11.408Z`."""
    moment = datetime.fromtimestamp(milliseconds / 1000, tz=UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{milliseconds % 1000:03d}Z"
