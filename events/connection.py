"""The one place that decides which Redis we talk to and builds the client.

A client opens at most MAX_CONNECTIONS connections (per node of a cluster) and lends them out
one call at a time. The hot path's scripts (an append, a rate limit's grant) run through
`Script`, on a few connections kept aside from the pool (`HeldConnections`).

Clients use decode_responses=False (bytes in, bytes out): RQ requires it, and the store decodes
its JSON itself. A call waits at most COMMAND_TIMEOUT_SECONDS for Redis's answer, so a dead
server is noticed; a blocking call (XREAD BLOCK, BLPOP...) waits that long beyond its own block,
so a long poll is never cut short. A `redis+cluster://host:port` URL (our own convention) gives
a RedisCluster.
"""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import redis
from redis.cluster import RedisCluster
from redis.connection import parse_url
from redis.exceptions import NoScriptError, ResponseError

from events.redis_server import EmbeddedRedis

RedisClient = redis.Redis | RedisCluster
CLUSTER_SCHEME = "redis+cluster://"
COMMAND_TIMEOUT_SECONDS = 5.0  # the longest wait for an answer, beyond a blocking call's block
# The most connections a client opens (to each node of a cluster); past it, a call waits up to
# COMMAND_TIMEOUT_SECONDS for one to be free. Thousands of clients waiting on one API process
# (greenlets under gevent) thus never open thousands of Redis connections.
MAX_CONNECTIONS = 64
HELD_CONNECTIONS = 16  # of those, kept aside for Script calls (see HeldConnections)

_embedded: EmbeddedRedis | None = None
_lock = threading.Lock()


def data_dir() -> Path:
    """The local data folder: LOVELETTER_DATA_DIR, default ./.loveletter."""
    return Path(os.environ.get("LOVELETTER_DATA_DIR") or ".loveletter").resolve()


def redis_url() -> str:
    """REDIS_URL if set; else start (once) an embedded Redis in data_dir()/redis and export it.

    The embedded server keeps an AOF, synced as LOVELETTER_APPENDFSYNC says (default everysec).
    """
    global _embedded
    with _lock:
        url = os.environ.get("REDIS_URL")
        if url:
            return url
        folder = data_dir() / "redis"
        running = _running_elsewhere(folder)
        if running is not None:  # e.g. `loveletter export` while `loveletter serve` runs
            os.environ["REDIS_URL"] = running
            return running
        if _embedded is None:
            fsync = os.environ.get("LOVELETTER_APPENDFSYNC", "everysec")
            _embedded = EmbeddedRedis(folder, appendfsync=fsync).start()
        os.environ["REDIS_URL"] = _embedded.url  # children (gunicorn, rq) share this server
        return _embedded.url


class NoRedis(RuntimeError):
    """No Redis was configured, and none runs for the data folder (nothing to read games from)."""


def existing_redis_url() -> tuple[str, str]:
    """The Redis to read games from, and where it was found: REDIS_URL, else the embedded
    server another process (`loveletter serve`) runs for data_dir(). Never starts one: an empty
    new server would only answer that no game exists (NoRedis instead)."""
    url = os.environ.get("REDIS_URL")
    if url:
        return url, "REDIS_URL"
    folder = data_dir()
    running = _running_elsewhere(folder / "redis")
    if running is not None:
        return running, f"the embedded server of {folder}"
    raise NoRedis(
        f"no Redis to read games from: REDIS_URL is not set, and no `loveletter serve` runs with"
        f" its data in {folder} (LOVELETTER_DATA_DIR, default ./.loveletter). Set REDIS_URL to"
        " the Redis that holds the games, or LOVELETTER_DATA_DIR to the data folder of the"
        " running `loveletter serve` (or run this command in the folder it runs in)."
    )


def _running_elsewhere(folder: Path) -> str | None:
    """The URL of an embedded Redis another process runs on this folder, if it answers."""
    path = folder / "url"
    if _embedded is not None or not path.exists():
        return None
    url = path.read_text(encoding="utf-8").strip()
    client = redis.Redis.from_url(url, socket_connect_timeout=0.5)
    try:
        return url if client.ping() else None
    except (redis.RedisError, OSError):
        return None
    finally:
        client.close()


def connect(url: str | None = None) -> RedisClient:
    """A client for url (default: redis_url()); a RedisCluster for redis+cluster:// URLs."""
    url = url or redis_url()
    options: dict[str, Any] = {
        "socket_timeout": COMMAND_TIMEOUT_SECONDS,
        "socket_connect_timeout": COMMAND_TIMEOUT_SECONDS,
        "max_connections": MAX_CONNECTIONS,
        "timeout": COMMAND_TIMEOUT_SECONDS,  # the longest wait for a free connection
    }
    if url.startswith(CLUSTER_SCHEME):
        return RedisCluster.from_url(
            "redis://" + url[len(CLUSTER_SCHEME) :],
            connection_class=Connection,
            connection_pool_class=redis.BlockingConnectionPool,
            **options,
        )
    plain = parse_url(url).get("connection_class", redis.Connection)
    pool = redis.BlockingConnectionPool.from_url(url, connection_class=WAITING[plain], **options)
    client = redis.Redis(connection_pool=pool)
    client.auto_close_connection_pool = True  # close() closes its connections, as from_url's
    return client


def block_seconds(command: Sequence[Any]) -> float | None:
    """How long a command may block Redis's answer: 0 for most, None for ever (a 0 block)."""
    name = _text(command[0]).upper() if command else ""
    if name in ("XREAD", "XREADGROUP"):  # ... BLOCK <milliseconds> ...
        words = [_text(word).upper() for word in command]
        if "BLOCK" not in words:
            return 0.0
        milliseconds = float(command[words.index("BLOCK") + 1])
        return milliseconds / 1000 if milliseconds else None
    position = BLOCKING_TIMEOUT_AT.get(name)
    if position is None:
        return 0.0
    seconds = float(command[position])
    return seconds if seconds else None


# Where a blocking list or sorted-set command has its timeout (in seconds; 0: for ever).
BLOCKING_TIMEOUT_AT = {
    "BLPOP": -1,
    "BRPOP": -1,
    "BRPOPLPUSH": -1,
    "BLMOVE": -1,
    "BZPOPMIN": -1,
    "BZPOPMAX": -1,
    "BLMPOP": 1,
    "BZMPOP": 1,
}


def _text(word: Any) -> str:
    return word.decode() if isinstance(word, bytes) else str(word)


class WaitsOutBlocks:
    """A connection that waits for a blocking command's answer as long as the command blocks,
    plus its socket timeout (redis-py would give up at the socket timeout alone)."""

    socket_timeout: float | None
    _blocks: float | None = 0.0  # how long the command sent last may block

    def send_command(self, *args: Any, **kwargs: Any) -> None:
        """Send one command, noting how long it may block."""
        super().send_command(*args, **kwargs)  # type: ignore[misc]
        self._blocks = block_seconds(args)

    def send_packed_command(self, command: Any, check_health: bool = True) -> None:
        """Send packed commands (a pipeline's, or one command's from `send_command`)."""
        self._blocks = 0.0
        super().send_packed_command(command, check_health)  # type: ignore[misc]

    def read_response(self, *args: Any, **kwargs: Any) -> Any:
        """The answer to the command sent last, waited for as long as it may block."""
        if "timeout" not in kwargs and self._blocks != 0.0:
            blocks, limit = self._blocks, self.socket_timeout
            kwargs["timeout"] = None if blocks is None or limit is None else limit + blocks
        return super().read_response(*args, **kwargs)  # type: ignore[misc]


class Connection(WaitsOutBlocks, redis.Connection):
    """A TCP connection (redis://) that waits out blocking commands."""


class SSLConnection(WaitsOutBlocks, redis.SSLConnection):
    """A TLS connection (rediss://) that waits out blocking commands."""


class UnixConnection(WaitsOutBlocks, redis.UnixDomainSocketConnection):
    """A Unix socket connection (unix://) that waits out blocking commands."""


WAITING: dict[type, type] = {
    redis.Connection: Connection,
    redis.SSLConnection: SSLConnection,
    redis.UnixDomainSocketConnection: UnixConnection,
}


def as_text(value: bytes | str) -> str:
    """A reply as str, whatever the client's decode_responses."""
    return value.decode() if isinstance(value, bytes) else value


class HeldConnections:
    """A few of a client's connections kept aside for one command at a time, its raw reply read
    at once: no checkout from the pool (which polls the socket for stale data on every call)
    and none of redis-py's per-call layers (retry wrapper, telemetry, response callbacks).

    A connection is borrowed from the client's pool once and kept (`client.close()` still
    closes it; it reconnects on its next use). When all `size` are busy, the call goes through
    the client as any other. A connection that fails is disconnected; one that was idle and
    turns out closed by the server (e.g. restarted) is tried again once, connected anew, as the
    pool's check would have done before sending.
    """

    def __init__(self, client: redis.Redis, size: int = HELD_CONNECTIONS) -> None:
        self.client = client
        self.size = size
        self._idle: list[redis.Connection] = []
        self._borrowed = 0
        self._pid = os.getpid()
        self._lock = threading.Lock()

    def call(self, *command: Any) -> Any:
        """Send one command and read its reply (a Redis error reply raises its ResponseError)."""
        connection = self._take()
        if connection is None:
            return self.client.execute_command(*command)
        try:
            reply = self._send(connection, command)
        except ResponseError:  # the whole error reply was read: the connection is sound
            self._idle.append(connection)
            raise
        except BaseException:  # a reply may be half read: drop the socket
            connection.disconnect()
            self._idle.append(connection)
            raise
        self._idle.append(connection)
        return reply

    def _send(self, connection: redis.Connection, command: tuple[Any, ...]) -> Any:
        idle = connection._sock is not None
        try:
            connection.send_command(*command, check_health=False)
            return connection.read_response()
        except redis.ConnectionError:
            if not idle:
                raise
        connection.disconnect()  # closed while it waited: send on a new connection, once
        connection.send_command(*command, check_health=False)
        return connection.read_response()

    def _take(self) -> redis.Connection | None:
        """An idle held connection, or a newly borrowed one; None when all are busy."""
        if self._pid != os.getpid():  # a forked child: the parent's sockets are not ours
            self._idle, self._borrowed, self._pid = [], 0, os.getpid()
        try:
            return self._idle.pop()
        except IndexError:
            pass
        with self._lock:
            if self._borrowed >= self.size:
                return None
            self._borrowed += 1
        try:
            connection: redis.Connection = self.client.connection_pool.get_connection()
        except BaseException:
            with self._lock:
                self._borrowed -= 1
            raise
        return connection


_held: weakref.WeakKeyDictionary[redis.Redis, HeldConnections] = weakref.WeakKeyDictionary()


def held_connections(client: redis.Redis) -> HeldConnections:
    """The client's held connections (made on first use)."""
    with _lock:
        found = _held.get(client)
        if found is None:
            found = _held[client] = HeldConnections(client)
        return found


class Script:
    """A Lua script run with EVALSHA on the client's held connections (loaded with SCRIPT LOAD
    when the server lacks it), or through redis-py's own Script on a cluster."""

    def __init__(self, client: RedisClient, text: str) -> None:
        self.text = text
        self._registered = client.register_script(text)
        self.sha: str = self._registered.sha
        self._held = None if isinstance(client, RedisCluster) else held_connections(client)

    def __call__(self, keys: Sequence[Any], args: Sequence[Any]) -> Any:
        """The script's reply for these keys and arguments."""
        if self._held is None:
            return self._registered(keys=keys, args=args)
        try:
            return self._held.call("EVALSHA", self.sha, len(keys), *keys, *args)
        except NoScriptError:  # e.g. a restarted or flushed server
            self._held.call("SCRIPT", "LOAD", self.text)
            return self._held.call("EVALSHA", self.sha, len(keys), *keys, *args)
