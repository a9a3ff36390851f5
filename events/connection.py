"""The one place that decides which Redis we talk to and builds the client.

Clients use decode_responses=False (bytes in, bytes out): RQ requires it, and the store decodes
its JSON itself. No socket timeout is set (redis-py sets 5 s unless told otherwise), so
EventStore.follow's blocking reads, as long as a feed's `wait`, are not cut short. A
`redis+cluster://host:port` URL (our own convention) gives a RedisCluster.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import redis
from redis.cluster import RedisCluster

from events.redis_server import EmbeddedRedis

RedisClient = redis.Redis | RedisCluster
CLUSTER_SCHEME = "redis+cluster://"

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
    if url.startswith(CLUSTER_SCHEME):
        return RedisCluster.from_url("redis://" + url[len(CLUSTER_SCHEME) :], socket_timeout=None)
    return redis.Redis.from_url(url, socket_timeout=None)
