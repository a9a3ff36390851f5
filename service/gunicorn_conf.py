"""gunicorn settings shared by `loveletter serve`, `loveletter bench api` and the Docker image.

gevent workers: each worker process answers its clients on greenlets, so a client waiting on a
long poll or an event stream costs a greenlet and a socket, not a thread (the append hub, one
per process, wakes it; see events/hub.py). LOVELETTER_WORKER_CLASS=gthread brings back threads
(LOVELETTER_THREADS per worker). LOVELETTER_WORKERS, LOVELETTER_WORKER_CONNECTIONS and
LOVELETTER_BACKLOG override the defaults; command-line flags override this file. The limits of
the machine it raises (open files, listen backlog) are in docs/capacity.md.
"""

from __future__ import annotations

import gc
import os
import resource
import shutil
import threading
import time
from pathlib import Path
from typing import Any

from gunicorn.glogging import Logger

from play import logs

DEFAULT_THREADS = 8
DEFAULT_WORKER_CLASS = "gevent"
DEFAULT_WORKER_CONNECTIONS = 10_000  # clients one gevent worker serves at once
DEFAULT_BACKLOG = 2048  # gunicorn's own default: connections waiting to be accepted
LONGEST_BACKLOG = 65_535
SPARE_FILES = 200  # open files a worker needs besides its clients (Redis, logs, metrics)
SOMAXCONN = Path("/proc/sys/net/core/somaxconn")
# The garbage collector's thresholds in a worker (CPython's own: 700, 10, 10). A worker holding
# thousands of waiting clients holds millions of objects: with the defaults, a full collection
# came every few seconds under load and stopped the worker for 200 to 330 ms each time (the
# tail of delivery to waiters in `bench waiters`). A young generation of 50,000 is collected in
# about 10 ms, and full collections come far more rarely (docs/capacity.md).
GC_THRESHOLDS = (50_000, 20, 100)


def default_workers() -> int:
    """One worker process per CPU, at least two."""
    return max(2, os.cpu_count() or 1)


worker_class = os.environ.get("LOVELETTER_WORKER_CLASS") or DEFAULT_WORKER_CLASS
workers = int(os.environ.get("LOVELETTER_WORKERS") or default_workers())
threads = int(os.environ.get("LOVELETTER_THREADS") or DEFAULT_THREADS)  # gthread only
worker_connections = int(
    os.environ.get("LOVELETTER_WORKER_CONNECTIONS") or DEFAULT_WORKER_CONNECTIONS
)
timeout = 60  # a worker's heartbeat, not a request's length
graceful_timeout = 10
keepalive = 5
reuse_port = True  # each worker listens itself; the kernel spreads connections evenly
control_socket_disable = True  # several servers on one machine would share its one path
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None


def listen_backlog() -> int:
    """The listen queue each worker's socket asks for: as long as the kernel allows
    (net.core.somaxconn caps it), at least gunicorn's default, so that thousands of clients
    reconnecting at once (after a restart) wait to be accepted rather than being refused."""
    try:
        allowed = int(SOMAXCONN.read_text())
    except (OSError, ValueError):  # not Linux: the kernel caps it anyway
        return DEFAULT_BACKLOG
    return max(DEFAULT_BACKLOG, min(allowed, LONGEST_BACKLOG))


backlog = int(os.environ.get("LOVELETTER_BACKLOG") or listen_backlog())


class AppLogsRequests(Logger):
    """gunicorn's logger without its access log: the app logs each request itself, with its
    game and seat (service.requestlog). gunicorn would otherwise build every request's access
    line (about 50 µs) whenever logging is configured, only to drop it."""

    def access(self, resp: Any, req: Any, environ: Any, request_time: Any) -> None:
        """Nothing: the app has logged the request."""


logconfig_dict = logs.logging_config()  # structured lines; gunicorn's own from WARNING
accesslog = None
logger_class = AppLogsRequests


def raise_open_files_limit() -> int:
    """Raise this process's open-files limit to its hard limit (every waiting client is a
    socket); the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        wanted = 1 << 20 if hard == resource.RLIM_INFINITY else hard
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft


def clients_per_worker(open_files: int) -> int:
    """How many clients a worker can hold under an open-files limit (one socket each)."""
    return max(open_files - SPARE_FILES, 0)


def on_starting(server: Any) -> None:
    """Raise the open-files limit (the workers inherit it) and warn when it holds fewer
    clients than worker_connections; start with an empty Prometheus multiprocess folder (stale
    files would add up)."""
    open_files = raise_open_files_limit()
    wanted = server.cfg.worker_connections
    if server.cfg.worker_class_str == "gevent" and clients_per_worker(open_files) < wanted:
        server.log.warning(
            "the open-files limit (%d, the hard limit) lets a worker hold about %d clients,"
            " not worker_connections=%d: raise the hard limit (ulimit -Hn, LimitNOFILE)",
            open_files,
            clients_per_worker(open_files),
            wanted,
        )
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        Path(folder).mkdir(parents=True, exist_ok=True)


def post_worker_init(worker: Any) -> None:
    """Leave the loaded app's objects out of garbage collection (they live as long as the
    worker, and each full collection would walk them all again), collect young objects less
    often and old ones far less (GC_THRESHOLDS); watch for the worker's stop."""
    tune_garbage_collector()
    threading.Thread(target=_close_hub_on_stop, args=(worker,), daemon=True).start()


def tune_garbage_collector() -> None:
    """Freeze what is alive now and set GC_THRESHOLDS (see there)."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def _close_hub_on_stop(worker: Any) -> None:
    """Once the worker is told to stop, end its streams and long polls at once (their clients
    resume elsewhere) rather than holding the stop up for graceful_timeout."""
    while worker.alive:
        time.sleep(0.5)
    from service.deps import EXTENSION, services

    if EXTENSION in getattr(worker.wsgi, "extensions", {}):  # not the benchmark's bare app
        services(worker.wsgi).context.hub.close()


def child_exit(server: Any, worker: Any) -> None:
    """Let Prometheus drop a dead worker's live gauges."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
