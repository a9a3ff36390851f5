"""Web Push through real parts: gunicorn answers the contract, the moves' relay enqueues push
jobs, real RQ workers send them to a push service of the tests (tests/push_service.py), which
checks each VAPID signature against the service's public key and decrypts each payload with the
browser's keys."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import requests

from events.connection import RedisClient
from game import legal_commands
from game.table import Asked, Asker, waiting_on
from play.context import Context
from play.inbox import push_key
from play.settings import Settings
from tests.api.conftest import APIs
from tests.integration.workers import WorkerProcess, start_worker, submit
from tests.push_service import PushService, running
from tests.waits import wait_until

ALL_OFF = {"your_turn": False, "game_started": False, "game_over": False, "match_found": False,
           "chat": False}  # fmt: skip


@pytest.fixture
def push_service() -> Iterator[PushService]:
    yield from running()


@pytest.fixture
def ctx(redis_client: RedisClient, namespace: str) -> Context:
    return Context.on(redis_client, Settings(namespace=namespace, queue=namespace))


@pytest.fixture
def workers(redis_url: str, ctx: Context, push_service: PushService) -> Iterator[WorkerProcess]:
    found = start_worker(redis_url, ctx, LOVELETTER_PUSH_INSECURE_ORIGINS=push_service.origin,
                         LOVELETTER_PUSH_RETRIES="1,1,1")  # fmt: skip
    yield found
    found.stop()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def guest(base: str, name: str) -> tuple[str, str]:
    made = requests.post(f"{base}/players", json={"name": name}, timeout=10)
    assert made.status_code == 201, made.text
    return str(made.json()["token"]), str(made.json()["player"]["id"])


def start(start_apis: APIs, push_service: PushService) -> str:
    (base,) = start_apis(1, LOVELETTER_PUSH_INSECURE_ORIGINS=push_service.origin)
    push_service.public_key = requests.get(f"{base}/push/vapid-public-key", timeout=10).json()[
        "publicKey"
    ]
    return base


def subscribe(base: str, token: str, push_service: PushService, name: str) -> str:
    made = requests.post(f"{base}/players/me/push-subscriptions", headers=bearer(token),
                         json=push_service.browser(name).subscription(), timeout=10)  # fmt: skip
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def two_player_game(base: str, ann: str, bob: str) -> str:
    body = {"edition": "classic", "seats": ["human", "human"], "first_player": 0}
    game = requests.post(f"{base}/games", json=body, headers=bearer(ann), timeout=10)
    assert game.status_code == 201, game.text
    game_id = str(game.json()["game"]["id"])
    joined = requests.post(f"{base}/games/{game_id}/seats", json={"name": "bob"},
                           headers=bearer(bob), timeout=10)  # fmt: skip
    assert joined.status_code == 201, joined.text
    return game_id


def play_until_waits_on(ctx: Context, game_id: str, seat: int, rng: random.Random) -> int:
    """Play the other seat's moves in process (no presence touched) until `seat` must act."""
    while True:
        game = ctx.games.load(game_id)
        assert game.table is not None and game.table.game is not None
        assert game.table.status != "over"
        waiting = waiting_on(game.table)
        assert waiting is not None
        if waiting.seat == seat:
            return game.version
        move(ctx, game_id, rng)


def move(ctx: Context, game_id: str, rng: random.Random) -> None:
    """The seat that must act moves (in process)."""
    game = ctx.games.load(game_id)
    assert game.table is not None and game.table.game is not None
    waiting = waiting_on(game.table)
    assert waiting is not None
    commands = legal_commands(game.table.game)
    player = game.table.seats[waiting.seat].player
    submit(ctx, game_id, Asked(Asker(player=player), rng.choice(commands)),
           expected_version=game.version)  # fmt: skip


def push_done(ctx: Context, player: str, game_id: str, version: int) -> Any:
    """What became of the player's push of this game and version (waits for its drain job)."""
    key = push_key(player, game_id, version)

    def drained() -> tuple[Any] | None:  # {} (nothing sent) is an outcome too
        found = ctx.push_outbox.outcome(key)
        return None if found is None else (found,)

    return wait_until(drained, f"push {key} drained")[0]


def away(redis_client: RedisClient, namespace: str, player: str, game_id: str) -> None:
    """A minute went by without the player (nor its seat at the game)."""
    for seat in range(2):
        redis_client.delete(f"{namespace}:here:{game_id}/{seat}")
    redis_client.delete(f"{namespace}:here:{player}")


def test_an_away_player_gets_one_push_per_turn_and_none_with_the_game_open(
    start_apis: APIs, push_service: PushService, workers: WorkerProcess, ctx: Context,
    redis_client: RedisClient, namespace: str,
) -> None:  # fmt: skip
    base = start(start_apis, push_service)
    (ann, _), (bob, bob_id) = guest(base, "ann"), guest(base, "bob")
    subscribe(base, bob, push_service, "bob")
    prefs = {"notices": {**ALL_OFF, "your_turn": True}, "lang": "ja"}
    put = requests.put(f"{base}/players/me/notification-preferences", json=prefs,
                       headers=bearer(bob), timeout=10)  # fmt: skip
    assert put.status_code == 200, put.text
    game_id = two_player_game(base, ann, bob)
    rng = random.Random(7)
    away(redis_client, namespace, bob_id, game_id)
    version = play_until_waits_on(ctx, game_id, 1, rng)
    wait_until(lambda: push_service.of("bob"), "bob's first push")
    (first,) = push_service.of("bob")
    assert first.payload == {"type": "your_turn", "game": game_id, "title": "あなたの番です",
                             "body": "ラブレターのゲームで、あなたの手番です。",
                             "url": f"/#/games/{game_id}", "lang": "ja"}  # fmt: skip
    assert first.urgency == "high" and first.topic and 0 < first.ttl <= 3600
    assert not push_service.refused
    # Bob plays without coming back (in process): his next turn in this away spell is not pushed.
    move(ctx, game_id, rng)
    version = play_until_waits_on(ctx, game_id, 1, rng)
    assert push_done(ctx, bob_id, game_id, version) == {}
    # Bob opens the game: back. With it open, his next turn is not pushed either.
    assert requests.get(f"{base}/games/{game_id}", headers=bearer(bob), timeout=10).ok
    move(ctx, game_id, rng)
    version = play_until_waits_on(ctx, game_id, 1, rng)
    assert push_done(ctx, bob_id, game_id, version) == {}
    # Away again: the next turn is pushed, once.
    away(redis_client, namespace, bob_id, game_id)
    redis_client.delete(f"{namespace}:{{p:{bob_id}}}:push-told")  # as presence does on return
    move(ctx, game_id, rng)
    play_until_waits_on(ctx, game_id, 1, rng)
    wait_until(lambda: len(push_service.of("bob")) == 2, "bob's second push")
    assert len(push_service.of("bob")) == 2 and not push_service.refused


def second_device(base: str, token: str) -> str:
    """Another device's token of the same player (a transfer code redeemed)."""
    code = requests.post(f"{base}/players/me/transfer-codes", headers=bearer(token), timeout=10)
    assert code.status_code == 201, code.text
    made = requests.post(f"{base}/players/tokens", json={"code": code.json()["code"]}, timeout=10)
    assert made.status_code == 201, made.text
    return str(made.json()["token"])


def listed(base: str, token: str) -> list[str]:
    found = requests.get(f"{base}/players/me/push-subscriptions", headers=bearer(token),
                         timeout=10)  # fmt: skip
    assert found.status_code == 200, found.text
    return sorted(sub["endpoint"].rsplit("/", 1)[-1] for sub in found.json()["subscriptions"])


def test_gone_subscriptions_are_removed_busy_ones_retried_revoked_ones_stop_quiet_hours_hold(
    start_apis: APIs, push_service: PushService, workers: WorkerProcess, ctx: Context,
    redis_client: RedisClient, namespace: str,
) -> None:  # fmt: skip
    base = start(start_apis, push_service)
    (ann, _), (bob, bob_id) = guest(base, "ann"), guest(base, "bob")
    other = second_device(base, bob)
    assert listed(base, bob) == []
    for name in ("gone", "busy"):
        subscribe(base, bob, push_service, name)
    subscribe(base, other, push_service, "other")
    assert listed(base, bob) == ["busy", "gone", "other"]
    prefs = {"notices": {"game_started": False}}
    put = requests.put(f"{base}/players/me/notification-preferences", json=prefs,
                       headers=bearer(bob), timeout=10)  # fmt: skip
    assert put.json()["notices"] == {**ALL_OFF, "your_turn": True, "game_over": True,
                                     "match_found": True}  # fmt: skip
    push_service.answers["gone"] = [(410, None)]
    push_service.answers["busy"] = [(429, "1"), (503, None)]
    game_id = two_player_game(base, ann, bob)
    rng = random.Random(3)
    away(redis_client, namespace, bob_id, game_id)
    play_until_waits_on(ctx, game_id, 1, rng)
    wait_until(lambda: push_service.of("busy") and push_service.of("other"), "pushes delivered")
    assert listed(base, bob) == ["busy", "other"]  # 410: forgotten
    assert [push.payload["type"] for push in push_service.received] == ["your_turn"] * 2
    # The other device is revoked: its subscription goes with it.
    devices = requests.get(f"{base}/players/me/devices", headers=bearer(other), timeout=10)
    mine = [d["id"] for d in devices.json()["devices"] if d["current"]]
    gone = requests.delete(f"{base}/players/me/devices/{mine[0]}", headers=bearer(bob), timeout=10)
    assert gone.status_code == 204
    assert listed(base, bob) == ["busy"]
    # Quiet hours around now, in Tokyo: nothing is pushed.
    tokyo = datetime.now(ZoneInfo("Asia/Tokyo"))
    hours = {"start": f"{(tokyo.hour - 1) % 24:02d}:00", "end": f"{(tokyo.hour + 2) % 24:02d}:00",
             "time_zone": "Asia/Tokyo"}  # fmt: skip
    put = requests.put(f"{base}/players/me/notification-preferences",
                       json={"quiet_hours": hours}, headers=bearer(bob), timeout=10)  # fmt: skip
    assert put.status_code == 200 and put.json()["quiet_hours"] == hours, put.text
    away(redis_client, namespace, bob_id, game_id)
    redis_client.delete(f"{namespace}:{{p:{bob_id}}}:push-told")
    move(ctx, game_id, rng)
    version = play_until_waits_on(ctx, game_id, 1, rng)
    assert push_done(ctx, bob_id, game_id, version) == {}
    # Without them, the next turn reaches the one browser left, and not the revoked one.
    put = requests.put(f"{base}/players/me/notification-preferences", json={},
                       headers=bearer(bob), timeout=10)  # fmt: skip
    assert put.json()["quiet_hours"] is None and put.json()["notices"]["chat"] is False
    away(redis_client, namespace, bob_id, game_id)
    redis_client.delete(f"{namespace}:{{p:{bob_id}}}:push-told")
    move(ctx, game_id, rng)
    version = play_until_waits_on(ctx, game_id, 1, rng)
    assert push_done(ctx, bob_id, game_id, version) == {"sent": 1}
    assert len(push_service.of("busy")) == 2 and len(push_service.of("other")) == 1
    assert not push_service.refused


def test_the_contract_refuses_what_it_must(start_apis: APIs, push_service: PushService) -> None:
    base = start(start_apis, push_service)
    bob, _ = guest(base, "bob")
    url = f"{base}/players/me/push-subscriptions"
    good = push_service.browser("b").subscription()
    assert requests.post(url, json=good, timeout=10).status_code == 401
    for endpoint in ("http://example.com/push/x", "https://127.0.0.1/push/x",
                     "https://10.0.0.1/push", "ftp://fcm.googleapis.com/x"):  # fmt: skip
        refused = requests.post(url, json={**good, "endpoint": endpoint}, headers=bearer(bob),
                                timeout=10)  # fmt: skip
        assert refused.status_code == 422, (endpoint, refused.text)
        assert refused.json()["type"].endswith("push-endpoint-refused")
    bad_keys = {**good, "keys": {"p256dh": "short", "auth": good["keys"]["auth"]}}
    assert requests.post(url, json=bad_keys, headers=bearer(bob), timeout=10).status_code == 422
    for n in range(10):
        subscribe(base, bob, push_service, f"b{n}")
    extra = requests.post(url, json=push_service.browser("b10").subscription(),
                          headers=bearer(bob), timeout=10)  # fmt: skip
    assert extra.status_code == 409 and extra.json()["type"].endswith("too-many-push-subscriptions")
    again = requests.post(url, json=push_service.browsers["b0"].subscription(), headers=bearer(bob),
                          timeout=10)  # fmt: skip
    assert again.status_code == 201  # the same endpoint again replaces it
    sid = again.json()["id"]
    assert requests.delete(f"{url}/{sid}", headers=bearer(bob), timeout=10).status_code == 204
    assert requests.delete(f"{url}/{sid}", headers=bearer(bob), timeout=10).status_code == 404
    prefs = f"{base}/players/me/notification-preferences"
    for body in ({"quiet_hours": {"start": "25:00", "end": "08:00", "time_zone": "Asia/Tokyo"}},
                 {"quiet_hours": {"start": "22:00", "end": "08:00", "time_zone": "Mars/Base"}},
                 {"notices": {"spam": True}}, {"lang": "fr"}, [1]):  # fmt: skip
        refused = requests.put(prefs, json=body, headers=bearer(bob), timeout=10)
        assert refused.status_code == 422, (body, refused.text)
    assert requests.get(prefs, headers=bearer(bob), timeout=10).json()["notices"]["chat"] is False
    key = requests.get(f"{base}/push/vapid-public-key", timeout=10).json()["publicKey"]
    assert len(key) == 87  # a P-256 point, uncompressed, base64url: kept across requests
