"""Archiving on a single server and on a cluster: every key of the game goes (found by SCAN,
or by its slot on a cluster), nothing of another game does, and only one worker archives per
period."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from events.audit import export_lines, verify_lines
from events.connection import RedisClient
from events.store import Idempotency
from game.commands import Forfeit
from game.table import OpenTable, TakeSeat
from play.archive import archive_finished, archive_if_first
from play.context import Context
from play.send_command import send_command
from play.settings import Settings
from tests.integration.workers import start_worker, submit
from tests.redis_keys import delete_namespace, delete_queue, new_namespace

pytestmark = pytest.mark.redis


@pytest.fixture
def ctx(client: RedisClient, namespace: str, tmp_path: Path) -> Context:
    settings = Settings(
        namespace=namespace,
        queue=namespace,
        archive_dir=str(tmp_path / "archive"),
        archive_after_seconds=0,
    )
    return Context.on(client, settings)


def a_game(ctx: Context, game_id: str, *, over: bool) -> int:
    """A 2-seat table of humans, played with idempotency keys, and ended by a forfeit if
    `over`; its version."""
    game = submit(ctx, game_id, OpenTable("classic", (None, None), "seed"), expected_version=0)
    for seat in (0, 1):
        game = send_command(ctx, game_id, TakeSeat(seat, f"p{seat}", "-"), game=game.game,
                            expected_version=game.game.version,
                            idempotency=Idempotency(f"seat{seat}", "join"))  # fmt: skip
    if over:
        table = game.game.table
        assert table is not None and table.game is not None
        game = submit(ctx, game_id, Forfeit(table.game.current), expected_version=game.game.version)  # type: ignore[arg-type]
    return game.game.version


def test_archiving_takes_every_key_of_a_finished_game_and_nothing_else(
    ctx: Context, client: RedisClient, namespace: str
) -> None:
    version = a_game(ctx, "done", over=True)
    a_game(ctx, "playing", over=False)
    keys = ctx.games.store.keys_of("done")
    assert any(":idem:" in key for key in keys) and ctx.games.store.stream_key("done") in keys
    others = set(ctx.games.store.keys_of("playing"))

    assert ctx.games.archive_game("playing", time.time() + 1) == "not-over"
    assert ctx.games.archive_game("done", time.time() - 3600) == "recent"
    assert ctx.games.store.keys_of("done") == keys

    report = archive_finished(ctx, now=time.time() + 1)
    assert report.archived == 1
    assert ctx.games.store.keys_of("done") == []
    assert set(ctx.games.store.keys_of("playing")) == others
    assert ctx.games.index is not None and ctx.games.index.get("done") is None
    loaded = ctx.games.load("done")
    assert loaded.version == version and loaded.table is not None
    assert loaded.table.status == "over"
    assert verify_lines(export_lines(ctx.games, "done")).ok
    assert archive_finished(ctx, now=time.time() + 1).archived == 0  # nothing left to do


def test_one_worker_archives_per_period(ctx: Context) -> None:
    a_game(ctx, "done", over=True)
    time.sleep(0.01)  # over before the run's "now"
    first = archive_if_first(ctx, "worker-1")
    assert first is not None and first.archived == 1
    assert archive_if_first(ctx, "worker-2") is None  # the lock holds for the period


def test_a_worker_archives_by_itself(
    single_client: RedisClient, redis_url: str, tmp_path: Path
) -> None:
    """A real `rq worker` archives finished games every LOVELETTER_ARCHIVE_EVERY_SECONDS."""
    name = new_namespace("archive")
    folder = tmp_path / "archive"
    settings = Settings(namespace=name, queue=name, archive_dir=str(folder))
    ctx = Context.on(single_client, settings)
    worker = start_worker(
        redis_url,
        ctx,
        LOVELETTER_ARCHIVE_DIR=str(folder),
        LOVELETTER_ARCHIVE_AFTER_SECONDS="0",
        LOVELETTER_ARCHIVE_EVERY_SECONDS="1",
    )
    try:
        a_game(ctx, "done", over=True)
        a_game(ctx, "playing", over=False)
        deadline = time.monotonic() + 30
        while ctx.games.store.exists("done") and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not ctx.games.store.exists("done") and ctx.games.store.exists("playing")
        assert ctx.games.load("done").table is not None  # from the archive
    finally:
        worker.stop()
        delete_namespace(single_client, name)
        delete_queue(single_client, name)
