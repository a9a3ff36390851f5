"""Fixtures for API tests: apps on a real Redis, each test in its own key namespace."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from events.connection import RedisClient, connect
from events.redis_server import free_port
from service.app import create_app
from service.cli import bench_api
from tests.redis_keys import delete_namespace, delete_queue, new_namespace

AppFactory = Callable[..., Flask]


@pytest.fixture(scope="session")
def redis_client(redis_url: str) -> Iterator[RedisClient]:
    """A client of the tests' Redis."""
    client = connect(redis_url)
    yield client
    client.close()


@pytest.fixture
def namespace(redis_client: RedisClient) -> Iterator[str]:
    """A key namespace (and job queue) of this test alone; deleted afterwards (never FLUSH*)."""
    ns = new_namespace("api")
    yield ns
    delete_namespace(redis_client, ns)
    delete_queue(redis_client, ns)


@pytest.fixture
def make_app(redis_url: str, namespace: str) -> AppFactory:
    """Build an app on the tests' Redis and namespace; keyword arguments override config."""

    def build(config: dict[str, Any] | None = None, **kwargs: Any) -> Flask:
        base = {
            "REDIS_URL": redis_url,
            "LOVELETTER_NAMESPACE": namespace,
            "LOVELETTER_QUEUE": namespace,
            "TESTING": True,
        }
        return create_app({**base, **(config or {})}, **kwargs)

    return build


@pytest.fixture
def gunicorn_app(redis_url: str, namespace: str) -> Iterator[str]:
    """The app under real gunicorn (one worker, four threads) in this test's namespace; its
    base URL."""
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "LOVELETTER_NAMESPACE": namespace,
        "LOVELETTER_QUEUE": namespace,
    }
    with bench_api._server(bench_api.COMMAND_APP, env, 1, 4) as base_url:
        yield base_url


@pytest.fixture
def app(make_app: AppFactory) -> Flask:
    """The app with its default settings."""
    return make_app()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client of the default app."""
    return app.test_client()


@pytest.fixture
def dead_redis_url() -> str:
    """A redis:// URL where nothing listens."""
    return f"redis://127.0.0.1:{free_port()}/0"
