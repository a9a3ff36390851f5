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
    """`rq worker` with our worker class and the scheduler, in its own process group."""

    def __init__(self, redis_url: str, queue: str, env: Mapping[str, str]) -> None:
        rq = str(Path(sys.executable).with_name("rq"))
        command = [
            rq, "worker", "--url", redis_url, "--worker-class", "workers.worker.Worker",
            "--with-scheduler", "--logging_level", "WARNING", "--name", worker_name(queue), queue,
        ]  # fmt: skip
        environment = {**os.environ, "PYTHONPATH": str(REPO), **env}
        self.process = subprocess.Popen(command, env=environment, start_new_session=True)

    def kill(self) -> None:
        """SIGKILL the worker and anything it started, at once."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        """Ask the worker to stop (warm shutdown), then make sure it is gone."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def start_worker(redis_url: str, ctx: Context, **env: str) -> WorkerProcess:
    """A worker on the context's namespace and queue; bots think for 20 ms unless told."""
    settings = {
        "REDIS_URL": redis_url,
        "LOVELETTER_NAMESPACE": ctx.settings.namespace,
        "LOVELETTER_QUEUE": ctx.settings.queue,
        "LOVELETTER_WEBHOOK_ALLOW_PRIVATE": "1",
        "LOVELETTER_WEBHOOK_RETRIES": "1,1,1",
        "LOVELETTER_BOT_BUDGET_MS": "20",
        **env,
    }
    return WorkerProcess(redis_url, ctx.settings.queue, settings)


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


def over(game: LoadedGame) -> bool:
    """Whether the game at this table has ended."""
    return game.table is not None and game.table.status == "over"


def submit(ctx: Context, game_id: str, command: Any, *, expected_version: int) -> Sent:
    """Send a command through the use case, as the API would (decided on `expected_version`)."""
    game = load_game(ctx, game_id, expected_version)
    return send_command(ctx, game_id, command, game=game, expected_version=expected_version)
