"""The push outbox (events/push_outbox.py): one drain job sends every push waiting, each once;
a drain job lost is made again by the sweep. Real Redis, a real RQ worker, the tests' push
service checking every signature and payload."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from events.connection import RedisClient
from play.context import Context
from play.inbox import enqueue_push, push_key
from play.settings import Settings
from play.sweep import sweep
from play.vapid import signer
from tests.integration.workers import start_worker
from tests.push_service import PushService, running
from tests.waits import wait_until

PLAYERS = 30


@pytest.fixture
def ctx(redis_client: RedisClient, namespace: str) -> Context:
    return Context.on(redis_client, Settings(namespace=namespace, queue=namespace))


@pytest.fixture
def push_service(ctx: Context) -> Iterator[PushService]:
    yield from running(signer(ctx).public_key)


def turn(game: str, version: int) -> list[dict[str, Any]]:
    return [{"type": "your_turn", "game": game, "seat": 1, "version": version}]


def subscribed(ctx: Context, push_service: PushService, count: int) -> list[str]:
    """`count` players, each with one browser at the push service (named as the player)."""
    players = [f"p{number}" for number in range(count)]
    for player in players:
        keys = push_service.browser(player).subscription()["keys"]
        ctx.push.subscribe(player, f"{push_service.origin}/push/{player}",
                           (keys["p256dh"], keys["auth"]), None, None)  # fmt: skip
    return players


def outcomes(ctx: Context, players: list[str], game: str, version: int) -> list[Any]:
    return [ctx.push_outbox.outcome(push_key(player, game, version)) for player in players]


def test_one_drain_job_sends_every_push_waiting_each_once(
    redis_url: str, ctx: Context, push_service: PushService
) -> None:
    players = subscribed(ctx, push_service, PLAYERS)
    for player in players:
        enqueue_push(ctx, player, "g1", 7, turn("g1", 7))
    enqueue_push(ctx, players[0], "g1", 7, turn("g1", 7))  # the same push again: queued once
    assert ctx.webhook_queue.count == 1  # no worker yet: one job for all of them
    worker = start_worker(redis_url, ctx, LOVELETTER_PUSH_INSECURE_ORIGINS=push_service.origin)
    try:
        wait_until(lambda: all(outcomes(ctx, players, "g1", 7)), "every push sent")
        assert outcomes(ctx, players, "g1", 7) == [{"sent": 1}] * PLAYERS
        assert sorted(push.browser for push in push_service.received) == sorted(players)
        assert not push_service.refused
    finally:
        worker.stop()


def test_pushes_left_without_a_drain_job_are_sent_after_the_sweep(
    redis_url: str, redis_client: RedisClient, ctx: Context, push_service: PushService,
    namespace: str,
) -> None:  # fmt: skip
    players = subscribed(ctx, push_service, 3)
    for player in players:
        enqueue_push(ctx, player, "g2", 4, turn("g2", 4))
    ctx.webhook_queue.empty()  # the drain job is lost, and its flag has run out
    redis_client.delete(f"{namespace}:{{push}}:draining")
    assert ctx.webhook_queue.count == 0
    sweep(ctx)
    assert ctx.webhook_queue.count == 1
    sweep(ctx)  # one is on its way: not another
    assert ctx.webhook_queue.count == 1
    worker = start_worker(redis_url, ctx, LOVELETTER_PUSH_INSECURE_ORIGINS=push_service.origin)
    try:
        wait_until(lambda: all(outcomes(ctx, players, "g2", 4)), "the pushes sent")
        assert outcomes(ctx, players, "g2", 4) == [{"sent": 1}] * 3
        assert len(push_service.received) == 3 and not push_service.refused
    finally:
        worker.stop()


def test_a_worker_asked_to_stop_ends_its_drain_though_pushes_keep_coming(
    redis_url: str, ctx: Context, push_service: PushService
) -> None:
    """A drain job runs up to 20 s while pushes come; a worker asked to stop does not wait for
    it (WorkerProcess.stop kills a worker still there after 10 s)."""
    (player,) = subscribed(ctx, push_service, 1)
    worker = start_worker(redis_url, ctx, LOVELETTER_PUSH_INSECURE_ORIGINS=push_service.origin)
    pushing = threading.Event()

    def keep_pushing() -> None:
        for number in itertools.count():
            if pushing.wait(0.05):
                return
            enqueue_push(ctx, player, f"g{number}", 1, turn(f"g{number}", 1))

    thread = threading.Thread(target=keep_pushing, daemon=True)
    thread.start()
    try:
        wait_until(lambda: len(push_service.received) >= 3, "a drain job at work")
        asked = time.monotonic()
        worker.stop()
        assert time.monotonic() - asked < 5, "the drain held the worker's stop up"
        assert worker.webhooks is not None and worker.webhooks.returncode == 0  # not killed
    finally:
        pushing.set()
        thread.join(5)
        worker.kill()
