"""gunicorn settings shared by `loveletter serve`, `loveletter bench api` and the Docker image.

gthread workers: each worker process answers several requests at once on threads, so long
polls don't block other clients. LOVELETTER_WORKERS / LOVELETTER_THREADS override the defaults;
command-line flags override this file.
"""

from __future__ import annotations

import gc
import os
import shutil
from pathlib import Path
from typing import Any

from play import logs

DEFAULT_THREADS = 8


def default_workers() -> int:
    """One worker process per CPU, at least two."""
    return max(2, os.cpu_count() or 1)


worker_class = "gthread"
workers = int(os.environ.get("LOVELETTER_WORKERS") or default_workers())
threads = int(os.environ.get("LOVELETTER_THREADS") or DEFAULT_THREADS)
timeout = 60  # gthread: a worker's heartbeat, not a request's length
graceful_timeout = 10
keepalive = 5
reuse_port = True  # each worker listens itself; the kernel spreads connections evenly
control_socket_disable = True  # several servers on one machine would share its one path
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
logconfig_dict = logs.logging_config()  # structured lines; gunicorn's own from WARNING
accesslog = None  # the app logs each request itself, with its game and seat (service.requestlog)


def on_starting(server: Any) -> None:
    """Start with an empty Prometheus multiprocess folder (stale files would add up)."""
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        Path(folder).mkdir(parents=True, exist_ok=True)


def post_worker_init(worker: Any) -> None:
    """Leave the loaded app's objects out of garbage collection: they live as long as the
    worker, and each full collection would walk them all again."""
    gc.freeze()


def child_exit(server: Any, worker: Any) -> None:
    """Let Prometheus drop a dead worker's live gauges."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
