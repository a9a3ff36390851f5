"""End-to-end fixtures: `loveletter serve` run as a user would, then stopped with nothing left."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Protocol

import pytest

from events.redis_server import free_port

REPO_ROOT = Path(__file__).resolve().parents[2]
MAIN = "import sys; from service.cli import main; sys.exit(main())"
START_TIMEOUT_SECONDS = 60.0
STOP_TIMEOUT_SECONDS = 60.0
GONE_TIMEOUT_SECONDS = 10.0
REDIS_IN_BANNER = re.compile(r"redis://127\.0\.0\.1:(\d+)")


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
                found[child] = command_line(child)
                frontier.append(child)
    return found


def command_line(pid: int) -> str:
    """The command line of pid ('' once it is gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")
    except OSError:
        return ""


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


def user_environment(data_dir: Path) -> dict[str, str]:
    """Our environment as a user's shell would have it: no Redis, no service settings."""
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in ("REDIS_URL", "PROMETHEUS_MULTIPROC_DIR")
        and not name.startswith("LOVELETTER_")
    }
    env["LOVELETTER_DATA_DIR"] = str(data_dir)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    return env


class Served:
    """One `loveletter serve --port <free>` run in `folder` (its log and data live there)."""

    def __init__(
        self,
        folder: Path,
        *args: str,
        path: str | None = None,
        settings: dict[str, str] | None = None,
    ) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = folder / "serve.log"
        self._log: IO[str] = self.log_path.open("w+")
        env = user_environment(folder / "data")
        env.update(settings or {})
        if path is not None:  # another PATH, e.g. one with no redis-server on it
            env["PATH"] = path
        self.process = subprocess.Popen(
            [sys.executable, "-c", MAIN, "serve", "--port", str(self.port), *args],
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            cwd=folder,
        )
        self.children: dict[int, str] = {}

    def output(self) -> str:
        """What serve printed so far."""
        return self.log_path.read_text()

    def wait_ready(self) -> None:
        """Wait for /healthz to answer 200 and the banner to be printed; note the children."""
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while get(self.base + "/healthz")[0] != 200 or "curl" not in self.output():
            assert self.process.poll() is None, self.output()
            assert time.monotonic() < deadline, self.output()
            time.sleep(0.2)
        self.children = descendants(self.process.pid)

    def redis_port(self) -> int:
        """The port of the embedded Redis, as the banner shows it."""
        found = REDIS_IN_BANNER.search(self.output())
        assert found is not None, self.output()
        return int(found.group(1))

    def stop(self, stop_signal: signal.Signals = signal.SIGINT) -> str:
        """Stop serve with a signal and check it exits 0 leaving no process or port; its output."""
        self.children.update(descendants(self.process.pid))
        redis_port = self.redis_port()
        self.process.send_signal(stop_signal)
        assert self.process.wait(STOP_TIMEOUT_SECONDS) == 0, self.output()
        output = self.output()
        assert "stopped" in output, output
        deadline = time.monotonic() + GONE_TIMEOUT_SECONDS
        while self.left() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [self.children[pid] for pid in self.left()]
        assert port_free(self.port)
        assert port_free(redis_port)
        assert "Traceback" not in output, output
        return output

    def left(self) -> list[int]:
        """The children seen while serve ran that still run (the same program at the same pid)."""
        return [
            pid
            for pid, command in self.children.items()
            if running(pid) and command_line(pid) == command
        ]

    def kill(self) -> None:
        """Last resort after a failure: SIGTERM, then SIGKILL serve and every child it had."""
        if self.process.poll() is None:
            self.children.update(descendants(self.process.pid))
            self.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(STOP_TIMEOUT_SECONDS)
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
        for pid in self.left():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self._log.close()


class Serve(Protocol):
    """Start `loveletter serve` with these extra arguments and wait until it is ready."""

    def __call__(self, *args: str, path: str | None = None) -> Served: ...


@pytest.fixture(scope="module")
def serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serve]:
    """Start servers (each in a fresh folder); whatever is still running at the end is killed."""
    started: list[Served] = []

    def start(*args: str, path: str | None = None) -> Served:
        served = Served(tmp_path_factory.mktemp("serve"), *args, path=path)
        started.append(served)
        served.wait_ready()
        return served

    yield start
    for served in started:
        served.kill()
