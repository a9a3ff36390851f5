"""Nothing waits on a lost job: with workers running, a bot turn or a deadline whose job is lost
right after the append that made it due is swept up within the stated bound (10 s); and games
played through workers SIGKILLed every second all end, exactly as the rules produce them."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from rq import Queue

from events.audit import export_lines, verify_lines
from game.editions import EDITIONS
from game.legal import legal_commands
from game.table import OpenTable, TakeSeat, step, waiting_on
from play.context import Context
from tests.waits import wait_until

from .workers import WorkerProcess, over, start_worker, submit, wait_for

pytestmark = [pytest.mark.redis, pytest.mark.slow]
LOST_JOB_BOUND_SECONDS = 10.0


class Crashed(Exception):
    """The process died here."""


class DyingQueue(Queue):
    """A queue whose process dies as it enqueues: the append before it stands, the job is lost."""

    def enqueue(self, *args: Any, **kwargs: Any) -> Any:
        raise Crashed

    def enqueue_at(self, *args: Any, **kwargs: Any) -> Any:
        raise Crashed


def sweeping(ctx: Context) -> None:
    """Until a worker has swept for lost jobs (it holds the sweep's lock, a second at a time)."""
    lock = f"{ctx.settings.namespace}:sweep-lock"
    wait_until(lambda: ctx.queue.connection.exists(lock), "a worker to sweep for lost jobs")


@pytest.fixture
def dying(ctx: Context) -> Context:
    """The same games and queue name, in a process that dies between append and enqueue."""
    queue = DyingQueue(ctx.settings.queue, connection=ctx.queue.connection)
    return Context(ctx.games, ctx.heads, queue, ctx.settings)


def test_a_bot_turn_whose_job_is_lost_is_played_within_the_bound(
    redis_url: str, ctx: Context, dying: Context
) -> None:
    """A human moves; the process dies before the bot's job is enqueued; a running worker's
    sweep finds the game overdue and the bot answers within 10 s."""
    worker = start_worker(redis_url, ctx)
    try:
        sweeping(ctx)  # the worker is up before the job is lost: no start-up sweep helps
        table = OpenTable("2019", (None, "heuristic"), "lost", first_player=0,
                          host=TakeSeat(0, "ann", "h"))  # fmt: skip
        opened = submit(ctx, "lost-bot", table, expected_version=0)
        assert opened.game.table is not None and opened.game.table.game is not None
        human = next(  # a move after which the bot must act
            command
            for command in legal_commands(opened.game.table.game)
            if (waiting := waiting_on(step(opened.game.table, command)[1])) and waiting.bot
        )
        with pytest.raises(Crashed):
            submit(dying, "lost-bot", human, expected_version=opened.game.version)
        started = time.monotonic()
        moved = ctx.games.load("lost-bot")
        waiting = waiting_on(moved.table)
        assert moved.version > opened.game.version and waiting is not None and waiting.bot
        wait_for(ctx, "lost-bot", lambda game: game.version > moved.version, 20)
        assert time.monotonic() - started < LOST_JOB_BOUND_SECONDS
    finally:
        worker.stop()
    assert verify_lines(export_lines(ctx.games.store, "lost-bot")).ok


def test_a_deadline_whose_job_is_lost_still_ends_the_turn(
    redis_url: str, ctx: Context, dying: Context
) -> None:
    """A human with 2 s per move whose deadline job was lost: the turn is timed out, never
    before its deadline and within the bound after it."""
    worker = start_worker(redis_url, ctx)
    try:
        sweeping(ctx)
        table = OpenTable("classic", (None, "heuristic"), "late", first_player=0, turn_seconds=2,
                          host=TakeSeat(0, "ann", "h"))  # fmt: skip
        started = time.monotonic()
        with pytest.raises(Crashed):
            submit(dying, "lost-deadline", table, expected_version=0)

        def timed_out(_: Any) -> bool:
            stored = ctx.games.store.read("lost-deadline")
            return any(item.event["type"] == "turn_timed_out" for item in stored)

        wait_for(ctx, "lost-deadline", timed_out, 25)
        waited = time.monotonic() - started
        assert 2 <= waited < 2 + LOST_JOB_BOUND_SECONDS
    finally:
        worker.stop()


@pytest.mark.chaos
def test_bot_games_end_exactly_while_workers_are_killed_every_second(
    redis_url: str, ctx: Context
) -> None:
    """100 all-bot games over every edition on 3 workers; every second for 20 s a random worker
    is SIGKILLed and replaced. Every game ends; its versions are contiguous; it verifies."""
    rng = random.Random(7)
    editions = sorted(EDITIONS)
    games = []
    for number in range(100):
        edition = EDITIONS[editions[number % len(editions)]]
        players = rng.randint(
            edition.min_players, min(edition.max_players, edition.min_players + 2)
        )
        bots = tuple(rng.choice(("heuristic", "random")) for _ in range(players))
        game_id = f"chaos-{number}"
        submit(ctx, game_id, OpenTable(edition.id, bots, f"chaos-{number}"), expected_version=0)
        games.append(game_id)
    workers: list[WorkerProcess] = [start_worker(redis_url, ctx) for _ in range(3)]
    try:
        for _ in range(20):
            time.sleep(1)
            victim = workers.pop(rng.randrange(len(workers)))
            victim.kill()
            workers.append(start_worker(redis_url, ctx))
        for game_id in games:
            wait_for(ctx, game_id, over, 120)
    finally:
        for worker in workers:
            worker.stop()
    for game_id in games:
        stored = ctx.games.store.read(game_id)
        assert [item.version for item in stored] == list(range(1, len(stored) + 1))
        report = verify_lines(export_lines(ctx.games.store, game_id))
        assert report.ok, (game_id, report.divergence)
