"""Fixtures for tests against real Redis: a single server and a 3-master cluster."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from events.connection import RedisClient, connect
from events.redis_cluster import LocalCluster
from play.context import Context
from play.settings import Settings
from tests.redis_keys import delete_namespace, delete_queue, new_namespace

REPO_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cluster_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A redis+cluster:// URL of a 3-master cluster started for this session."""
    cluster = LocalCluster(tmp_path_factory.mktemp("redis-cluster")).start()
    try:
        yield cluster.url
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def single_client(redis_url: str) -> Iterator[RedisClient]:
    """A client of the single server."""
    client = connect(redis_url)
    yield client
    client.close()


@pytest.fixture(scope="session")
def cluster_client(cluster_url: str) -> Iterator[RedisClient]:
    """A RedisCluster client of the session's cluster."""
    client = connect(cluster_url)
    yield client
    client.close()


@pytest.fixture(params=["single", "cluster"])
def client(request: pytest.FixtureRequest) -> RedisClient:
    """Each test that takes it runs once on the single server and once on the cluster."""
    value: RedisClient = request.getfixturevalue(f"{request.param}_client")
    return value


@pytest.fixture
def namespace(client: RedisClient) -> Iterator[str]:
    """A key namespace of this test alone; its keys are deleted afterwards (never FLUSH*)."""
    ns = new_namespace("store")
    yield ns
    delete_namespace(client, ns)


@pytest.fixture
def subprocess_env() -> dict[str, str]:
    """The environment for a child Python that imports this repo, without REDIS_URL."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "LOVELETTER_DATA_DIR")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    return env


@pytest.fixture
def ctx(single_client: RedisClient) -> Iterator[Context]:
    """The use cases' context in a namespace and queue of this test alone."""
    name = new_namespace("workers")
    settings = Settings(namespace=name, queue=name, webhook_allow_private=True)
    yield Context.on(single_client, settings)
    delete_namespace(single_client, name)
    delete_queue(single_client, name)
