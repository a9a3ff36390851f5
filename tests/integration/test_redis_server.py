"""EmbeddedRedis: starts, persists with AOF, stops cleanly, leaves no process behind."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest
import redis

from events.redis_server import EmbeddedRedis, free_port
from events.store import EventStore, Idempotency

from .helpers import gone, run_python

pytestmark = pytest.mark.redis


def key(name: str) -> Idempotency:
    """An idempotency key of the tests' one caller."""
    return Idempotency("s", name)


def test_start_and_stop_leave_nothing_behind(tmp_path: Path) -> None:
    server = EmbeddedRedis(tmp_path / "data")
    with server:
        pid = server.pid
        client = redis.Redis.from_url(server.url)
        assert client.ping()
        assert server.url.startswith("redis://127.0.0.1:")
        config: Any = client.config_get("*")
        assert config["bind"] == "127.0.0.1"
        assert config["appendonly"] == "yes"
        assert config["appendfsync"] == "everysec"
        assert config["save"] == ""
        assert Path(config["dir"]) == (tmp_path / "data").resolve()
        client.close()
    assert gone(pid)
    server.stop()  # a second stop is harmless
    with pytest.raises(RuntimeError):
        _ = server.url


def test_explicit_port_and_fsync(tmp_path: Path) -> None:
    port = free_port()
    with EmbeddedRedis(tmp_path, port=port, appendfsync="always") as server:
        assert server.port == port
        client = redis.Redis(port=port)
        assert client.config_get("appendfsync")["appendfsync"] == "always"
        client.close()


def test_bad_fsync_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        EmbeddedRedis(tmp_path, appendfsync="sometimes")


def test_a_taken_port_fails_to_start(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path / "a") as first:
        blocked = EmbeddedRedis(tmp_path / "b", port=first.port)
        with pytest.raises(RuntimeError):
            blocked.start()


@pytest.mark.parametrize(("fsync", "kill"), [("everysec", False), ("always", True)])
def test_acknowledged_events_survive_a_restart(tmp_path: Path, fsync: str, kill: bool) -> None:
    """A clean stop keeps everything; with appendfsync always, so does a SIGKILL."""
    with EmbeddedRedis(tmp_path, appendfsync=fsync) as server:
        client = redis.Redis.from_url(server.url)
        store = EventStore(client)
        for version in range(50):
            assert store.append("g1", version, [{"n": version}], idempotency=key(str(version))).ok
        client.close()
        if kill:
            os.kill(server.pid, signal.SIGKILL)
    with EmbeddedRedis(tmp_path) as again:
        client = redis.Redis.from_url(again.url)
        store = EventStore(client)
        assert [e.event["n"] for e in store.read("g1")] == list(range(50))
        assert store.append("g1", 0, [{"n": 0}], idempotency=key("0")).status == "duplicate"
        client.close()


def test_interpreter_exit_stops_it_but_forked_children_do_not(
    tmp_path: Path, subprocess_env: dict[str, str]
) -> None:
    code = f"""
        import os, sys, redis
        from events.redis_server import EmbeddedRedis
        server = EmbeddedRedis({str(tmp_path)!r}).start()
        child = os.fork()
        if child == 0:
            sys.exit(0)  # runs the atexit handlers inherited from the parent
        os.waitpid(child, 0)
        print(server.pid, redis.Redis.from_url(server.url).ping())
    """
    pid, pinged = run_python(code, subprocess_env, tmp_path)
    assert pinged == "True"
    assert gone(int(pid))


def test_one_data_dir_one_server(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path), pytest.raises(RuntimeError, match="in use"):
        EmbeddedRedis(tmp_path).start()
    with EmbeddedRedis(tmp_path) as again:  # free again once the first has stopped
        assert again.pid


def test_an_orphaned_server_keeps_its_data_dir_locked(
    tmp_path: Path, subprocess_env: dict[str, str]
) -> None:
    code = f"""
        import os
        from events.redis_server import EmbeddedRedis
        print(EmbeddedRedis({str(tmp_path)!r}).start().pid, flush=True)
        os._exit(0)  # dies without atexit: the server is left running, as after a SIGKILL
    """
    (pid,) = run_python(code, subprocess_env, tmp_path)
    try:
        with pytest.raises(RuntimeError, match="in use"):
            EmbeddedRedis(tmp_path).start()
    finally:
        os.kill(int(pid), signal.SIGTERM)
    deadline = time.monotonic() + 10
    while not gone(int(pid)) and time.monotonic() < deadline:
        time.sleep(0.02)
    with EmbeddedRedis(tmp_path) as again:
        assert again.pid
