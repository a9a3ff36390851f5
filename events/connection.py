"""The one place that decides which Redis we talk to and builds the client.

A client opens at most MAX_CONNECTIONS connections (per node of a cluster) and lends them out
one call at a time.

Clients use decode_responses=False (bytes in, bytes out): RQ requires it, and the store decodes
its JSON itself. A call waits at most COMMAND_TIMEOUT_SECONDS for Redis's answer, so a dead
server is noticed; a blocking call (XREAD BLOCK, BLPOP...) waits that long beyond its own block,
so a long poll is never cut short. A `redis+cluster://host:port` URL (our own convention) gives
a RedisCluster.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import redis
from redis.cluster import RedisCluster
from redis.connection import parse_url

from events.redis_server import EmbeddedRedis

RedisClient = redis.Redis | RedisCluster
CLUSTER_SCHEME = "redis+cluster://"
COMMAND_TIMEOUT_SECONDS = 5.0  # the longest wait for an answer, beyond a blocking call's block
# The most connections a client opens (to each node of a cluster); past it, a call waits up to
# COMMAND_TIMEOUT_SECONDS for one to be free. Thousands of clients waiting on one API process
# (greenlets under gevent) thus never open thousands of Redis connections.
MAX_CONNECTIONS = 64

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
