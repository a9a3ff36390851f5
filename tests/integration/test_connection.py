"""events.connection: REDIS_URL, the embedded fallback, and cluster URLs."""

from __future__ import annotations

import socket
import time
import uuid
from pathlib import Path

import pytest
import redis
from redis.cluster import RedisCluster

from events.connection import (
    COMMAND_TIMEOUT_SECONDS,
    HeldConnections,
    RedisClient,
    Script,
    block_seconds,
    connect,
    held_connections,
)
from events.store import EventStore

from .helpers import gone, run_python

pytestmark = pytest.mark.redis


def test_redis_url_is_taken_from_the_environment(
    tmp_path: Path, subprocess_env: dict[str, str]
) -> None:
    env = {**subprocess_env, "REDIS_URL": "redis://127.0.0.1:1/3"}
    code = """
        from events import connection
        print(connection.redis_url(), connection._embedded is None)
    """
    assert run_python(code, env, tmp_path) == ["redis://127.0.0.1:1/3", "True"]
    assert not (tmp_path / ".loveletter").exists()


def test_without_redis_url_an_embedded_server_is_started_once(
    tmp_path: Path, subprocess_env: dict[str, str]
) -> None:
    env = {**subprocess_env, "LOVELETTER_DATA_DIR": str(tmp_path / "data")}
    code = """
        import os, subprocess, sys
        from events import connection
        url = connection.redis_url()
        assert connection.redis_url() == url == os.environ["REDIS_URL"]
        client = connection.connect()
        client.set("k", "v")
        child = "import os, redis; print(redis.Redis.from_url(os.environ['REDIS_URL']).get('k'))"
        out = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True)
        print(client.info("server")["process_id"], out.stdout.strip())
    """
    pid, child_saw = run_python(code, env, tmp_path)
    assert child_saw == "b'v'"  # a child process reached the same server through REDIS_URL
    assert gone(int(pid))
    assert (tmp_path / "data" / "redis" / "redis.log").exists()
    assert not (tmp_path / ".loveletter").exists()


def test_default_data_dir_is_dot_loveletter(tmp_path: Path, subprocess_env: dict[str, str]) -> None:
    code = """
        from events import connection
        print(connection.connect().ping())
    """
    assert run_python(code, subprocess_env, tmp_path) == ["True"]
    assert (tmp_path / ".loveletter" / "redis" / "redis.log").exists()


def test_connect_picks_the_client_class(redis_url: str, cluster_url: str) -> None:
    single = connect(redis_url)
    cluster = connect(cluster_url)
    try:
        assert isinstance(single, redis.Redis)
        assert isinstance(cluster, RedisCluster)
        assert cluster.ping()
        assert len(cluster.get_primaries()) == 3
    finally:
        single.close()
        cluster.close()


def test_a_second_process_uses_the_embedded_server_already_running(
    tmp_path: Path, subprocess_env: dict[str, str]
) -> None:
    """`loveletter export` while `loveletter serve` runs: the same folder, the same server."""
    env = {**subprocess_env, "LOVELETTER_DATA_DIR": str(tmp_path / "data")}
    code = """
        import subprocess, sys
        from events import connection
        url = connection.redis_url()
        connection.connect().set("shared", "yes")
        child = (
            "import os; os.environ.pop('REDIS_URL', None); from events import connection as c;"
            "print(c.redis_url(), c.connect().get('shared'), c._embedded)"
        )
        out = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True)
        print(url, out.stdout.strip())
    """
    url, child_url, shared, embedded = run_python(code, env, tmp_path)
    assert child_url == url and shared == "b'yes'" and embedded == "None"
    assert not (tmp_path / "data" / "redis" / "url").exists()  # removed when it stopped


@pytest.mark.slow
def test_a_blocking_read_outlasts_the_socket_timeout(client: RedisClient, namespace: str) -> None:
    """XREAD BLOCK for longer than an ordinary call may take answers when its block ends."""
    store = EventStore(client, namespace=namespace)
    wait = COMMAND_TIMEOUT_SECONDS + 1
    start = time.monotonic()
    assert store.follow("quiet", 0, wait) == []
    assert wait <= time.monotonic() - start < wait + 10  # its whole block, and then it answers


def test_an_ordinary_call_to_a_silent_server_gives_up() -> None:
    """A server that accepts but never answers is noticed after COMMAND_TIMEOUT_SECONDS."""
    with socket.create_server(("127.0.0.1", 0)) as silent:
        client = connect(f"redis://127.0.0.1:{silent.getsockname()[1]}/0")
        start = time.monotonic()
        with pytest.raises(redis.TimeoutError):
            client.get("anything")
        took = time.monotonic() - start
        client.close()
    assert COMMAND_TIMEOUT_SECONDS <= took < COMMAND_TIMEOUT_SECONDS + 10


@pytest.mark.parametrize(
    ("command", "seconds"),
    [
        (("GET", "k"), 0.0),
        (("XREAD", "COUNT", 5, "STREAMS", "s", "0-0"), 0.0),
        (("XREAD", "BLOCK", 8000, "STREAMS", "s", "0-0"), 8.0),
        ((b"xreadgroup", b"GROUP", b"g", b"c", b"BLOCK", b"250", b"STREAMS", b"s", b">"), 0.25),
        (("XREAD", "BLOCK", 0, "STREAMS", "s", "$"), None),
        (("BLMOVE", "a", "b", "LEFT", "RIGHT", 405), 405.0),
        (("BLPOP", "a", "b", 0), None),
        (("BZMPOP", 2.5, 1, "z", "MIN"), 2.5),
    ],
)
def test_how_long_each_command_may_block(command: tuple[object, ...], seconds: float) -> None:
    assert block_seconds(command) == seconds


def test_scripts_run_on_held_connections_and_load_themselves(redis_url: str) -> None:
    client = connect(redis_url)
    try:
        # A script no server has seen: the first call meets NOSCRIPT and loads it.
        script = Script(client, f"return {{ARGV[1], '{uuid.uuid4().hex}'}}")
        assert script(keys=[], args=["one"])[0] == b"one"
        assert script(keys=[], args=["two"])[0] == b"two"
        held = held_connections(client)
        assert held._borrowed == 1 and len(held._idle) == 1  # one connection, kept aside
        with pytest.raises(redis.ResponseError):  # an error reply leaves the connection sound
            Script(client, "return redis.error_reply('refused')")(keys=[], args=[])
        assert script(keys=[], args=["three"])[0] == b"three"
    finally:
        client.close()


def test_a_held_connection_closed_by_the_server_is_connected_anew(redis_url: str) -> None:
    client = connect(redis_url)
    try:
        held = held_connections(client)
        first = held.call("CLIENT", "ID")
        client.client_kill_filter(_id=first)  # as a restarted server would have dropped it
        second = held.call("CLIENT", "ID")
        assert second != first
        assert held.call("CLIENT", "ID") == second  # and kept
        assert held._borrowed == 1
    finally:
        client.close()


def test_calls_beyond_the_held_connections_go_through_the_pool(redis_url: str) -> None:
    client = connect(redis_url)
    try:
        held = HeldConnections(client, size=1)
        taken = held._take()  # the only one, busy
        assert taken is not None and held._take() is None
        assert held.call("PING") is True  # through the client, with its response callback
        held._idle.append(taken)
        assert held.call("PING") == b"PONG"  # the raw reply, on the held connection
    finally:
        client.close()
