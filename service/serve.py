"""`loveletter serve`: gunicorn with the app, RQ worker(s) for bots and deadlines and for webhook
deliveries, and the embedded Redis if needed.

Children run in their own sessions (a terminal's Ctrl-C reaches only us) and get SIGTERM if we
die. A child that exits is started again after a pause that doubles with each quick exit (1 s up
to 30 s); serve stops on SIGINT/SIGTERM, or when Redis stays unreachable for REDIS_LOST_SECONDS.
Then it stops gunicorn, the workers, and the embedded Redis.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import FrameType

import redis
from rq import Queue, Worker

from events import connection
from events.redis_server import server_version
from play.settings import Settings
from service.gunicorn_conf import DEFAULT_THREADS, default_workers, worker_class

WSGI_APP = "service.wsgi:app"
READY_TIMEOUT_SECONDS = 30.0
STOP_TIMEOUT_SECONDS = 20.0
PR_SET_PDEATHSIG = 1
FIRST_PAUSE_SECONDS = 1.0  # before restarting a child that exited
LONGEST_PAUSE_SECONDS = 30.0
STEADY_SECONDS = 60.0  # a child that ran this long starts over from the first pause
REDIS_LOST_SECONDS = 30.0  # serve gives up when Redis does not answer for this long
REDIS_CHECK_SECONDS = 2.0


@dataclass(frozen=True)
class ServeOptions:
    """What `loveletter serve` was asked for."""

    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = default_workers()
    threads: int = DEFAULT_THREADS
    rq_workers: int = 1
    webhook_workers: int = 1  # RQ workers of the webhook queue alone
    verbose: bool = False  # gunicorn's and RQ's own INFO lines too


def gunicorn_command(app: str, host: str, port: int, workers: int, threads: int) -> list[str]:
    """The gunicorn command line (our config file: gevent workers) for a WSGI app path;
    `threads` counts only for gthread workers (LOVELETTER_WORKER_CLASS=gthread)."""
    return [
        sys.executable, "-m", "gunicorn", app,
        "--config", "python:service.gunicorn_conf",
        "--bind", f"{host}:{port}",
        "--workers", str(workers),
        "--threads", str(threads),
    ]  # fmt: skip


def queues() -> tuple[str, str]:
    """The names of the job queue (bots, deadlines) and of the webhook queue."""
    settings = Settings.load()
    return settings.queue, settings.webhook_queue


def rq_worker_command(url: str, queue: str | None = None) -> list[str]:
    """The `rq worker` command line for a queue (default: the job queue), with the scheduler
    (for deadlines and webhook retries), in our structured logs (`python -m workers`)."""
    queue = queue or queues()[0]
    return [
        sys.executable, "-m", "workers", "worker",
        "--url", url,
        "--worker-class", "workers.worker.Worker",
        "--with-scheduler",
        queue,
    ]  # fmt: skip


def browser_host(host: str) -> str:
    """The host to print in URLs: loopback for the wildcard addresses."""
    return "127.0.0.1" if host in ("", "0.0.0.0", "::") else host


class Child:
    """A child process in its own session, stopped with SIGTERM and, if it hangs, SIGKILL."""

    def __init__(
        self, name: str, command: Sequence[str], env: Mapping[str, str], *, quiet: bool = False
    ) -> None:
        self.name = name
        output = subprocess.DEVNULL if quiet else None
        self.process = subprocess.Popen(
            list(command),
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=output,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )

    def alive(self) -> bool:
        """True while the process runs."""
        return self.process.poll() is None

    def stop(self, timeout: float = STOP_TIMEOUT_SECONDS) -> None:
        """SIGTERM, wait, then SIGKILL its whole process group; always reaped."""
        self.terminate()
        self.finish(time.monotonic() + timeout)

    def terminate(self) -> None:
        """Ask it to stop (SIGTERM) if it runs."""
        if self.alive():
            self.process.send_signal(signal.SIGTERM)

    def finish(self, deadline: float) -> bool:
        """Wait for it until `deadline` (monotonic), then SIGKILL its whole process group; always
        reaped. False if it was still running at the deadline."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(max(0.0, deadline - time.monotonic()))
        stopped = not self.alive()
        _kill_group(self.process.pid)
        self.process.wait()
        return stopped


class Supervised:
    """A child that is started again when it exits, after a pause that grows with quick exits."""

    def __init__(self, name: str, command: Sequence[str], env: Mapping[str, str]) -> None:
        self.name, self.command, self.env = name, list(command), dict(env)
        self.child = Child(name, command, env)
        self.started = time.monotonic()
        self.pause = FIRST_PAUSE_SECONDS
        self.restart_at: float | None = None

    def alive(self) -> bool:
        """True while the current process runs."""
        return self.child.alive()

    def look_after(self, now: float) -> None:
        """Start the child again if it exited and its pause is over."""
        if self.child.alive():
            return
        if self.restart_at is None:
            if now - self.started >= STEADY_SECONDS:
                self.pause = FIRST_PAUSE_SECONDS
            self.restart_at = now + self.pause
            status = self.child.process.returncode
            print(
                f"loveletter serve: {self.name} exited ({status}); starting it again in "
                f"{self.pause:g} s",
                file=sys.stderr,
                flush=True,
            )
            self.pause = min(2 * self.pause, LONGEST_PAUSE_SECONDS)
        elif now >= self.restart_at:
            self.child.stop()  # reap it, and anything it left in its group
            self.child = Child(self.name, self.command, self.env)
            self.started, self.restart_at = now, None


def stop_together(children: Sequence[Supervised], timeout: float = STOP_TIMEOUT_SECONDS) -> None:
    """SIGTERM every child at once and wait for them together, so that the whole stop takes at
    most `timeout` (one after the other, each child's could add up); SIGKILL those still running
    then, saying which."""
    current = [supervised.child for supervised in children]
    for child in current:
        child.terminate()
    deadline = time.monotonic() + timeout
    for child in current:
        if not child.finish(deadline):
            print(f"loveletter serve: {child.name} did not stop within {timeout:g} s; killed",
                  file=sys.stderr, flush=True)  # fmt: skip


def serve(options: ServeOptions) -> int:
    """Run everything until SIGINT/SIGTERM (0) or until Redis stays unreachable (1)."""
    if port_taken(options.host, options.port):
        print(
            f"loveletter serve: port {options.port} is in use; choose another with --port",
            file=sys.stderr,
        )
        return 1
    stop = threading.Event()
    previous = {sig: signal.signal(sig, _setter(stop)) for sig in (signal.SIGINT, signal.SIGTERM)}
    metrics_dir = tempfile.mkdtemp(prefix="loveletter-metrics-")
    children: list[Supervised] = []
    status = 0
    try:
        try:
            given = bool(os.environ.get("REDIS_URL"))
            url = connection.redis_url()  # starts the embedded Redis here when REDIS_URL is unset
        except FileNotFoundError as missing:  # no redis-server to start
            print(f"loveletter serve: {missing}", file=sys.stderr)
            return 1
        env = {**os.environ, "REDIS_URL": url, "PROMETHEUS_MULTIPROC_DIR": metrics_dir}
        # Every process here shares one machine, so finished games can go to a local folder.
        env.setdefault("LOVELETTER_ARCHIVE_DIR", str(connection.data_dir() / "archive"))
        env["PYTHONUNBUFFERED"] = "1"
        if options.verbose:
            env["LOVELETTER_VERBOSE"] = "1"
        command = gunicorn_command(
            WSGI_APP, options.host, options.port, options.workers, options.threads
        )
        children.append(Supervised("gunicorn", command, env))
        jobs, hooks = queues()
        for number in range(options.rq_workers):
            children.append(Supervised(f"rq worker {number + 1}", rq_worker_command(url), env))
        for number in range(options.webhook_workers):
            command = rq_worker_command(url, hooks)
            children.append(Supervised(f"rq webhook worker {number + 1}", command, env))
        base = f"http://{browser_host(options.host)}:{options.port}"
        workers = [child.child for child in children[1:]]
        api_up = wait_ready(base + "/healthz", children[0].child, stop)
        wanted = {jobs: options.rq_workers, hooks: options.webhook_workers}
        if api_up and wait_workers(url, wanted, workers, stop):
            print(banner(base, redis_origin(url, given), options), flush=True)  # last: all is up
        elif not stop.is_set() and children[0].alive():
            late = (
                "the RQ workers do not listen yet"
                if api_up
                else f"{base}/healthz does not answer yet"
            )
            print(f"loveletter serve: {late}", file=sys.stderr)
        redis = RedisWatch(url)
        while not stop.is_set():
            now = time.monotonic()
            for child in children:
                child.look_after(now)
            if redis.lost_for(now) >= REDIS_LOST_SECONDS:
                print(f"loveletter serve: Redis at {url} does not answer; stopping",
                      file=sys.stderr)  # fmt: skip
                status = 1
                break
            stop.wait(0.2)
    finally:
        stop_together(children)
        _stop_embedded_redis()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        shutil.rmtree(metrics_dir, ignore_errors=True)
    print("loveletter serve: stopped", flush=True)
    return status


class RedisWatch:
    """Pings Redis every few seconds; how long it has not answered."""

    def __init__(self, url: str) -> None:
        self.client = connection.connect(url)
        self.answered = self.checked = time.monotonic()

    def lost_for(self, now: float) -> float:
        """Seconds since Redis last answered (pinging it when a check is due)."""
        if now - self.checked >= REDIS_CHECK_SECONDS:
            self.checked = now
            try:
                if self.client.ping():
                    self.answered = now
            except (redis.RedisError, OSError):
                pass
        return now - self.answered


def port_taken(host: str, port: int) -> bool:
    """Whether something listens on host:port already. gunicorn's workers bind with
    SO_REUSEPORT, so a second server would silently share the port instead of failing."""
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # TIME_WAIT is no owner
        try:
            probe.bind(address)
        except OSError:
            return True
    return False


def wait_ready(url: str, child: Child, stop: threading.Event) -> bool:
    """True once url answers 200; False if the child exits, we're stopped, or time runs out."""
    deadline = time.monotonic() + READY_TIMEOUT_SECONDS
    while time.monotonic() < deadline and child.alive() and not stop.is_set():
        try:
            with urllib.request.urlopen(url, timeout=1) as response:
                if response.status == 200:
                    return True
        except (urllib.error.URLError, OSError):
            pass
        stop.wait(0.1)
    return False


def wait_workers(
    url: str, wanted: Mapping[str, int], workers: list[Child], stop: threading.Event
) -> bool:
    """True once as many RQ workers as `wanted` says listen on each queue; False if one exits,
    we're stopped, or time runs out."""
    client = redis.Redis.from_url(url, socket_timeout=connection.COMMAND_TIMEOUT_SECONDS)
    deadline = time.monotonic() + READY_TIMEOUT_SECONDS
    try:
        while time.monotonic() < deadline and not stop.is_set():
            if not all(worker.alive() for worker in workers):
                return False
            with contextlib.suppress(redis.RedisError, OSError):
                if all(
                    Worker.count(queue=Queue(name, connection=client)) >= count
                    for name, count in wanted.items()
                ):
                    return True
            stop.wait(0.1)
        return False
    finally:
        client.close()


def redis_origin(url: str, given: bool) -> str:
    """The Redis in use and where it came from: REDIS_URL, or the server serve started (which
    one, and where its data is)."""
    server = connection._embedded
    if given:
        return f"{url}   (REDIS_URL)"
    if server is None or server.binary is None:  # another serve's, for the same data folder
        return f"{url}   (the embedded server already running for {connection.data_dir()})"
    return (
        f"{url}   ({server_version(server.binary)}, started by serve from {server.binary};"
        f" data in {server.data_dir})"
    )


def banner(base: str, redis: str, options: ServeOptions) -> str:
    """Where to point a browser or curl."""
    return "\n".join(
        [
            f"Love Letter       {base}/   (play in your browser: lobby, tables, replays)",
            f"  API             {base}",
            f"  docs            {base}/docs   (ReDoc: {base}/redoc, OpenAPI: {base}/openapi.json)",
            f"  health          {base}/healthz   metrics: {base}/metrics",
            f"  redis           {redis}",
            f"  processes       gunicorn {options.workers} {worker_class} workers,"
            f" {options.rq_workers} rq worker(s) on queue '{queues()[0]}',"
            f" {options.webhook_workers} on '{queues()[1]}'",
            f"try:  curl -s {base}/healthz",
            "Ctrl-C stops everything.",
        ]
    )


def _setter(stop: threading.Event) -> Callable[[int, FrameType | None], None]:
    """A signal handler that asks serve() to stop."""

    def handle(signum: int, frame: FrameType | None) -> None:
        stop.set()

    return handle


def _die_with_parent() -> None:
    """In the child, before exec: get SIGTERM when the parent dies (Linux only)."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def _kill_group(pid: int) -> None:
    """SIGKILL whatever is left of the process group pid leads (its forked workers)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _stop_embedded_redis() -> None:
    """Stop the embedded Redis if connection.redis_url() started one in this process."""
    server = connection._embedded
    if server is not None:
        server.stop()
