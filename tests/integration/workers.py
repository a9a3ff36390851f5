"""A real `rq worker` process for tests, and helpers to wait on games."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from events.games import LoadedGame
from play.context import Context
from play.send_command import Sent, load_game, send_command
from tests.redis_keys import worker_name

REPO = Path(__file__).resolve().parents[2]


class WorkerProcess:
    """`rq worker` with our worker class and the scheduler, in its own process group; with a
    webhook queue, a second one for it alone (as `loveletter serve` runs them)."""

    def __init__(
        self, redis_url: str, queue: str, env: Mapping[str, str], webhook_queue: str | None = None
    ) -> None:
        environment = {**os.environ, "PYTHONPATH": str(REPO), **env}
        self.process = _rq_worker(redis_url, queue, environment)
        self.webhooks = (
            None if webhook_queue is None else _rq_worker(redis_url, webhook_queue, environment)
        )

    def processes(self) -> list[subprocess.Popen[bytes]]:
        """The worker's processes (the job queue's first)."""
        return [self.process] + ([] if self.webhooks is None else [self.webhooks])

    def kill(self) -> None:
        """SIGKILL the workers and anything they started, at once."""
        for process in self.processes():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)

    def stop(self) -> None:
        """Ask the workers to stop (warm shutdown), then make sure they are gone."""
        for process in self.processes():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes():
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def _rq_worker(redis_url: str, queue: str, env: Mapping[str, str]) -> subprocess.Popen[bytes]:
    """`rq worker` on one queue."""
    rq = str(Path(sys.executable).with_name("rq"))
    command = [
        rq, "worker", "--url", redis_url, "--worker-class", "workers.worker.Worker",
        "--with-scheduler", "--logging_level", "WARNING", "--name", worker_name(queue), queue,
    ]  # fmt: skip
    return subprocess.Popen(command, env=dict(env), start_new_session=True)


def start_worker(redis_url: str, ctx: Context, **env: str) -> WorkerProcess:
    """Workers on the context's namespace and queues (the job queue, and the webhook queue
    apart); bots think for 20 ms unless told."""
    settings = {
        "REDIS_URL": redis_url,
        "LOVELETTER_NAMESPACE": ctx.settings.namespace,
        "LOVELETTER_QUEUE": ctx.settings.queue,
        "LOVELETTER_WEBHOOK_ALLOW_PRIVATE": "1",
        "LOVELETTER_WEBHOOK_RETRIES": "1,1,1",
        "LOVELETTER_BOT_BUDGET_MS": "20",
        **env,
    }
    return WorkerProcess(redis_url, ctx.settings.queue, settings, ctx.settings.webhook_queue)


def wait_for(
    ctx: Context, game_id: str, done: Callable[[LoadedGame], bool], seconds: float
) -> LoadedGame:
    """Poll the game until `done` holds; fail after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        game = ctx.games.load(game_id)
        if done(game):
            return game
        if time.monotonic() > deadline:
            raise AssertionError(f"{game_id} did not get there in {seconds} s: v{game.version}")
        time.sleep(0.1)


def wait_for_sweeps(ctx: Context, count: int, seconds: float = 30.0) -> None:
    """Until the workers have begun `count` sweeps for lost jobs from now (each sweep takes
    the sweep's lock anew, for a second: its time to live jumps back up)."""
    lock = f"{ctx.settings.namespace}:sweep-lock"
    deadline = time.monotonic() + seconds
    begun, left = 0, int(ctx.queue.connection.pttl(lock))
    while begun < count:
        if time.monotonic() > deadline:
            raise AssertionError(f"{begun} sweep(s) in {seconds} s, not {count}")
        time.sleep(0.02)
        now = int(ctx.queue.connection.pttl(lock))
        begun += now > left
        left = now


def over(game: LoadedGame) -> bool:
    """Whether the game at this table has ended."""
    return game.table is not None and game.table.status == "over"


def submit(ctx: Context, game_id: str, command: Any, *, expected_version: int) -> Sent:
    """Send a command through the use case, as the API would (decided on `expected_version`)."""
    game = load_game(ctx, game_id, expected_version)
    return send_command(ctx, game_id, command, game=game, expected_version=expected_version)
