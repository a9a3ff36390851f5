"""`loveletter serve` without REDIS_URL: everything starts, answers, and stops on a signal."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from events.redis_server import free_port

REPO_ROOT = Path(__file__).resolve().parents[2]
MAIN = "import sys; from service.cli import main; sys.exit(main())"
START_TIMEOUT_SECONDS = 60.0
STOP_TIMEOUT_SECONDS = 60.0


def get(url: str) -> tuple[int, str]:
    """Status and body of a GET (errors give (0, reason))."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode()
    except OSError as error:
        return 0, str(error)


def descendants(pid: int) -> dict[int, str]:
    """Every live descendant of pid, with its command line (from /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: dict[int, str] = {}
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        for child, its_parent in parents.items():
            if its_parent == parent and child not in found:
                cmdline = Path(f"/proc/{child}/cmdline")
                found[child] = cmdline.read_text().replace("\0", " ") if cmdline.exists() else ""
                frontier.append(child)
    return found


def running(pid: int) -> bool:
    """True while pid exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def port_free(port: int) -> bool:
    """True when nothing listens on 127.0.0.1:port."""
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


@pytest.mark.slow
@pytest.mark.parametrize("stop_signal", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_serve_starts_everything_and_stops_cleanly(
    tmp_path: Path, stop_signal: signal.Signals
) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items()
           if k not in ("REDIS_URL", "PROMETHEUS_MULTIPROC_DIR")}  # fmt: skip
    env["LOVELETTER_DATA_DIR"] = str(tmp_path / "data")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    log = (tmp_path / "serve.log").open("w+")
    serve = subprocess.Popen(
        [sys.executable, "-c", MAIN, "serve", "--port", str(port), "--workers", "1",
         "--threads", "2"],
        env=env, stdout=log, stderr=subprocess.STDOUT, cwd=tmp_path,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while get(base + "/healthz")[0] != 200:
            assert serve.poll() is None, (tmp_path / "serve.log").read_text()
            assert time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
            time.sleep(0.2)
        status, spec = get(base + "/openapi.json")
        assert status == 200 and '"openapi"' in spec
        status, exposition = get(base + "/metrics")
        assert status == 200 and 'endpoint="/healthz"' in exposition
        while "curl" not in (tmp_path / "serve.log").read_text():
            assert time.monotonic() < deadline
            time.sleep(0.1)
        output = (tmp_path / "serve.log").read_text()
        assert f"{base}/docs" in output
        redis_port = int(re.search(r"redis://127\.0\.0\.1:(\d+)", output).group(1))  # type: ignore[union-attr]
        children = descendants(serve.pid)
        commands = " ".join(children.values())
        for program in ("gunicorn", "rq.cli worker", "redis-server"):
            assert program in commands, children

        serve.send_signal(stop_signal)
        assert serve.wait(STOP_TIMEOUT_SECONDS) == 0
        output = (tmp_path / "serve.log").read_text()
        assert "stopped" in output
        deadline = time.monotonic() + 10
        while any(running(pid) for pid in children) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [children[pid] for pid in children if running(pid)]
        assert port_free(port)
        assert port_free(redis_port)
        assert "Traceback" not in output, output
    finally:
        if serve.poll() is None:
            serve.kill()
            serve.wait()
        log.close()
