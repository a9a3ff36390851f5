"""Fixtures for API tests: apps on a real Redis, each test in its own key namespace."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from flask import Flask
from flask.testing import FlaskClient

from bench import api as bench_api
from events.connection import RedisClient, connect
from events.redis_server import free_port
from service.app import create_app
from service.serve import Child, gunicorn_command
from tests.redis_keys import delete_namespace, delete_queue, new_namespace

REPO_ROOT = Path(__file__).resolve().parents[2]

AppFactory = Callable[..., Flask]
# Tests read as fast as they can from one address: their reads are not limited unless a test
# says so (tests/api/test_read_limits.py does).
UNLIMITED_READS = {"LOVELETTER_RATE_LIMIT_READS": "off", "LOVELETTER_WAITERS_PER_ADDRESS": "off"}
# Nor are the guests they make (tests/api/test_bounds.py counts them).
UNLIMITED_GUESTS = {"LOVELETTER_GUESTS_PER_HOUR": "off"}


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
            **UNLIMITED_READS,
            **UNLIMITED_GUESTS,
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
        **UNLIMITED_READS,
        **UNLIMITED_GUESTS,
    }
    with bench_api.gunicorn_app(bench_api.COMMAND_APP, env, 1, 4) as (base_url, _):
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


APIs = Callable[..., list[str]]


def api_env(redis_url: str, namespace: str, **settings: str) -> dict[str, str]:
    """The environment of a gunicorn serving the app on a test's namespace (address limits off),
    with settings as keywords (`LOVELETTER_...`)."""
    return {
        **os.environ,
        "REDIS_URL": redis_url,
        "LOVELETTER_NAMESPACE": namespace,
        "LOVELETTER_QUEUE": namespace,
        "LOVELETTER_RATE_LIMIT_ADDRESS": "off",
        **UNLIMITED_GUESTS,
        "PYTHONPATH": str(REPO_ROOT),
        **UNLIMITED_READS,
        **settings,
    }


@pytest.fixture
def start_apis(redis_url: str, namespace: str) -> Iterator[APIs]:
    """Start gunicorn processes (one worker each) serving the app on this test's namespace,
    as a load balancer would spread one client's calls over them; settings as keywords
    (`LOVELETTER_...`). Their base URLs."""
    children: list[Child] = []

    def start(count: int, **settings: str) -> list[str]:
        env = api_env(redis_url, namespace, **settings)
        bases = []
        for number in range(count):
            port = free_port()
            command = gunicorn_command("service.wsgi:app", "127.0.0.1", port, 1, 8)
            children.append(Child(f"api {number}", command, env, quiet=True))
            bases.append(f"http://127.0.0.1:{port}")
        for base, child in zip(bases, children[-count:], strict=True):
            wait_healthy(base, child)
        return bases

    yield start
    for child in children:
        child.stop()


@pytest.fixture
def two_apis(start_apis: APIs) -> tuple[str, str]:
    """Two API processes on this test's namespace."""
    first, second = start_apis(2)
    return first, second


def wait_healthy(base: str, child: Child, seconds: float = 30.0) -> None:
    """Return once the server answers /healthz with 200."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and child.alive():
        try:
            if requests.get(base + "/healthz", timeout=1).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.1)
    raise AssertionError(f"{child.name} did not answer at {base}")
