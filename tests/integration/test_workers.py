"""Bots, deadlines and webhooks on a real Redis with a real `rq worker` process."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from rq import Worker
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus

from events.audit import export_lines, verify_lines
from events.connection import COMMAND_TIMEOUT_SECONDS
from events.games import LoadedGame
from game.legal import legal_commands
from game.table import OpenTable, SetWebhook, TakeSeat
from play.context import Context
from play.follow_up import LEASE_SECONDS, job_id
from play.webhooks import new_secret
from service.schemas.games import TurnReadySchema

from .workers import over, start_worker, submit, wait_for

EDITION_BOTS = {
    "classic": ("heuristic", "random", "heuristic"),
    "2019": ("random", "heuristic"),
    "2019-classic": ("heuristic", "heuristic", "random", "random"),
    "premium": ("heuristic", "random", "heuristic", "random", "heuristic"),
}


def bot_commands(ctx: Context, game_id: str) -> list[dict[str, Any]]:
    """The meta of every command the bots sent."""
    return [s.meta for s in ctx.games.store.read(game_id) if s.meta and s.meta.get("by") == "bot"]


@pytest.mark.parametrize("edition", sorted(EDITION_BOTS))
def test_an_all_bot_game_plays_to_its_end_through_the_workers(
    redis_url: str, ctx: Context, edition: str
) -> None:
    """Nobody but the worker moves; the finished stream is exactly what the rules produce."""
    worker = start_worker(redis_url, ctx)
    try:
        game_id = f"bots-{edition}"
        submit(ctx, game_id, OpenTable(edition, EDITION_BOTS[edition], "s"), expected_version=0)
        final = wait_for(ctx, game_id, over, 120)
    finally:
        worker.stop()
    assert final.table is not None and final.table.game is not None
    assert final.table.game.game_winners
    report = verify_lines(export_lines(ctx.games.store, game_id))
    assert report.ok, report.divergence
    assert len(bot_commands(ctx, game_id)) == report.commands - 1  # all but the opening


def test_a_worker_killed_mid_move_loses_no_move_and_doubles_none(
    redis_url: str, ctx: Context
) -> None:
    """SIGKILL a worker while a slow bot searches a position where it has several legal moves;
    a new worker finishes the game exactly once."""
    slow = start_worker(redis_url, ctx, LOVELETTER_BOT_BUDGET_MS="3000")
    game_id = "killed"
    submit(ctx, game_id, OpenTable("2019", ("search", "search"), "k"), expected_version=0)

    def searching(game: LoadedGame) -> bool:
        """The bot to act has several legal moves, and its job has claimed the turn (the job
        put its sweep off after it started): the search is under way."""
        table = game.table
        if table is None or table.game is None or len(legal_commands(table.game)) < 2:
            return False
        try:
            job = Job.fetch(
                job_id(ctx, "bot", game_id, game.version), connection=ctx.queue.connection
            )
        except NoSuchJobError:
            return False
        claimed = ctx.games.store.due.when(game_id, game.version)
        return (
            job.get_status() == JobStatus.STARTED
            and job.started_at is not None
            and claimed is not None
            and claimed >= job.started_at.timestamp() + LEASE_SECONDS
        )

    moved = wait_for(ctx, game_id, searching, 60).version
    slow.kill()
    assert ctx.games.load(game_id).version == moved, "the killed job must not have appended"
    fresh = start_worker(redis_url, ctx)
    try:
        wait_for(ctx, game_id, over, 180)
    finally:
        fresh.stop()
    report = verify_lines(export_lines(ctx.games.store, game_id))
    assert report.ok, report.divergence
    versions = [meta["command"] for meta in bot_commands(ctx, game_id)]
    assert len(versions) == report.commands - 1


def test_a_deadline_passes_and_the_move_is_made_for_the_seat(redis_url: str, ctx: Context) -> None:
    """With 2 seconds per move, a silent human's turn is played by the heuristic, marked so."""
    worker = start_worker(redis_url, ctx)
    try:
        table = OpenTable("classic", (None, "heuristic"), "d", first_player=0, turn_seconds=2,
                          host=TakeSeat(0, "ann", "h"))  # fmt: skip
        start = time.monotonic()
        opened = submit(ctx, "late", table, expected_version=0)
        assert opened.game.table is not None and opened.game.table.status == "playing"

        def timed_out(game: Any) -> bool:
            return any(s.event["type"] == "turn_timed_out" for s in ctx.games.store.read("late"))

        wait_for(ctx, "late", timed_out, 15)
        assert time.monotonic() - start >= 2  # never before the deadline
    finally:
        worker.stop()
    stored = ctx.games.store.read("late")
    index = next(i for i, s in enumerate(stored) if s.event["type"] == "turn_timed_out")
    assert stored[index].event["seat"] == 0
    assert stored[index + 1].event["type"] == "card_played" and stored[index + 1].event["seat"] == 0
    assert stored[index].meta is not None and stored[index].meta["by"] == "timeout"


class Receiver(BaseHTTPRequestHandler):
    """Records deliveries; answers 500 to the first, 204 to the rest."""

    received: list[tuple[dict[str, str], bytes]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.received.append(({k.lower(): v for k, v in self.headers.items()}, body))
        self.send_response(500 if len(self.received) == 1 else 204)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        """Quiet."""


def test_a_webhook_is_signed_and_retried_after_a_failure(redis_url: str, ctx: Context) -> None:
    """The seat's receiver gets a Standard Webhooks delivery; a 500 makes it come again."""
    Receiver.received = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/turn"
    secret = new_secret()
    worker = start_worker(redis_url, ctx)
    try:
        table = OpenTable("classic", (None, None), "w", first_player=0,
                          host=TakeSeat(0, "ann", "h0"))  # fmt: skip
        version = submit(ctx, "hooked", table, expected_version=0).game.version
        version = submit(
            ctx, "hooked", SetWebhook(0, url, secret), expected_version=version
        ).game.version
        submit(ctx, "hooked", TakeSeat(1, "bob", "h1"), expected_version=version)

        deadline = time.monotonic() + 20
        while len(Receiver.received) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        worker.stop()
        server.shutdown()
    assert len(Receiver.received) >= 2, Receiver.received
    (first_headers, first_body), (headers, body) = Receiver.received[:2]
    assert first_headers["webhook-id"] == headers["webhook-id"]  # the same message, again
    assert json.loads(first_body)["data"] == json.loads(body)["data"]
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{headers['webhook-id']}.{headers['webhook-timestamp']}.".encode() + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    assert headers["webhook-signature"] == f"v1,{expected}"
    payload = json.loads(body)
    assert payload["type"] == "turn.ready" and payload["data"]["seat"] == 0
    assert payload["data"]["game"] == "hooked" and payload["data"]["decision"] == "play"
    assert TurnReadySchema().load(payload) == payload  # as the OpenAPI document's webhook says


@pytest.mark.slow
def test_an_idle_worker_still_takes_jobs_after_the_socket_timeout(
    redis_url: str, ctx: Context
) -> None:
    """RQ's blocking dequeue outlasts an ordinary call's timeout: a worker idle for longer
    still runs the next job at once (its connection was not cut)."""
    worker = start_worker(redis_url, ctx)
    try:
        deadline = time.monotonic() + 20
        while not Worker.all(queue=ctx.queue):  # registered: about to wait for jobs
            assert time.monotonic() < deadline, "the worker did not start"
            time.sleep(0.1)
        time.sleep(COMMAND_TIMEOUT_SECONDS + 3)
        started = time.monotonic()
        job = ctx.queue.enqueue("bench.noop.noop", job_id=f"noop-{ctx.settings.queue}")
        result = job.latest_result(timeout=10)
        assert result is not None and result.type == result.Type.SUCCESSFUL
        assert time.monotonic() - started < 10  # not after another blocking read's timeout
        assert worker.process.poll() is None
    finally:
        worker.stop()
