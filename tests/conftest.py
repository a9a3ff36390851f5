"""Fixtures shared by every test folder: the real Redis server the tests talk to."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
import redis

from events.connection import connect
from events.redis_server import EmbeddedRedis

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
    """REDIS_URL, else 127.0.0.1:6379, else an embedded server started for this session."""
    url = os.environ.get("REDIS_URL") or DEFAULT_URL
    if answers(url):
        yield url
        return
    with EmbeddedRedis(tmp_path_factory.mktemp("redis")) as server:
        yield server.url
