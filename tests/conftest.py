"""Fixtures shared by every test folder: the real Redis server the tests talk to."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
import redis

from events.connection import connect
from events.redis_server import EmbeddedRedis
from tests.redis_keys import left_behind

DEFAULT_URL = "redis://127.0.0.1:6379/0"


def answers(url: str) -> bool:
    """True when a Redis server answers PING at url."""
    try:
        client = connect(url)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except (redis.RedisError, OSError):
        return False


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """REDIS_URL, else 127.0.0.1:6379, else an embedded server started for this session.

    When the session ends, no key of this run may be left on it (RQ's included).
    """
    url = os.environ.get("REDIS_URL") or DEFAULT_URL
    if answers(url):
        yield url
        nothing_left_behind(url)
        return
    with EmbeddedRedis(tmp_path_factory.mktemp("redis")) as server:
        yield server.url
        nothing_left_behind(server.url)


def nothing_left_behind(url: str) -> None:
    """Fail the run if any key (or RQ registration) made by this run is still on the server."""
    client = connect(url)
    try:
        left = left_behind(client)
    finally:
        client.close()
    assert not left, f"the tests left {len(left)} key(s) in Redis: {left[:20]}"
