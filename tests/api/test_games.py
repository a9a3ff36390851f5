"""The game resources through Flask's test client on real Redis."""

from __future__ import annotations

import threading
import time

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.api.players import Player, new_game
from tests.waits import wait_until


def test_create_join_and_the_game_starts_when_full(client: FlaskClient) -> None:
    """The creator gets seat and token; joining fills the seats; the lobby lists the game."""
    created = client.post(
        "/games", json={"edition": "2019", "seats": ["human", "heuristic", "human"], "name": "ann"}
    )
    assert created.status_code == 201
    body = created.json
    game = body["game"]["id"]
    assert body["seat"] == 0 and len(body["token"]) >= 32
    assert created.headers["Location"].endswith(f"/games/{game}")
    assert body["game"]["status"] == "open" and body["game"]["open_seats"] == 1
    assert client.get("/games?status=open&edition=2019").json["games"][0]["id"] == game
    joined = client.post(f"/games/{game}/seats", json={"name": "bob"})
    assert joined.status_code == 201 and joined.json["seat"] == 2
    full = client.post(f"/games/{game}/seats", json={"name": "cy"})
    assert full.status_code == 409 and full.json["type"].endswith("/game-started")
    seen = client.get(f"/games/{game}").json
    assert seen["game"]["status"] == "playing" and seen["view"]["hand"] is None
    assert client.get("/games?status=playing").json["games"][0]["id"] == game


def test_leave_before_start_and_start_by_hand(client: FlaskClient) -> None:
    """A seat can be left before the start; without autostart a seated player starts."""
    created = client.post(
        "/games",
        json={"edition": "classic", "seats": ["human", "human"], "name": "ann", "autostart": False},
    ).json
    game, ann = created["game"]["id"], created["token"]
    bob = client.post(f"/games/{game}/seats", json={"name": "bob"}).json
    bearer = {"Authorization": f"Bearer {bob['token']}"}
    assert client.delete(f"/games/{game}/seats/0", headers=bearer).status_code == 403
    assert client.delete(f"/games/{game}/seats/1", headers=bearer).status_code == 204
    assert client.get(f"/games/{game}").json["game"]["open_seats"] == 1
    client.post(f"/games/{game}/seats", json={"name": "cy"})
    started = client.post(f"/games/{game}/start", headers={"Authorization": f"Bearer {ann}"})
    assert started.status_code == 200 and started.json["view"]["phase"] == "round"
    assert client.post(f"/games/{game}/start").status_code == 401


def test_views_carry_the_version_as_etag(client: FlaskClient) -> None:
    """ETag is the version; If-None-Match with it gives 304; seats see their own hand only."""
    game, players = new_game(client, "classic", ["human", "human", "human"])
    views = [player.look() for player in players]
    tag = views[0].headers["ETag"]
    assert all(view.headers["ETag"] == tag for view in views)
    again = client.get(f"/games/{game}", headers={"If-None-Match": tag})
    assert again.status_code == 304
    hands = [view.json["view"]["hand"] for view in views]
    current = views[0].json["view"]["current"]
    assert [len(hand) for hand in hands] == [2 if s == current else 1 for s in range(3)]
    assert [bool(view.json["legal"]) for view in views] == [s == current for s in range(3)]


def test_command_preconditions_and_refusals(client: FlaskClient) -> None:
    """428 without If-Match, 400 without a key, 412 stale, 409 not your turn, 422 illegal."""
    game, players = new_game(client, "classic", ["human", "human"])
    view = players[0].look().json["view"]
    me, other = players[view["current"]], players[1 - view["current"]]
    seen = me.look()
    legal, version = seen.json["legal"][0], seen.json["game"]["version"]
    url = f"/games/{game}/commands"
    no_match = client.post(url, json=legal, headers={**me.auth(), "Idempotency-Key": "a"})
    assert no_match.status_code == 428
    no_key = client.post(url, json=legal, headers={**me.auth(), "If-Match": '"6"'})
    assert no_key.status_code == 400 and no_key.json["type"].endswith("idempotency-key-required")
    assert me.send(legal, version=1).status_code == 412
    stale = me.send(legal, version=1).json
    assert stale["current_version"] == me.look().json["game"]["version"]
    turn = other.send(legal)
    assert turn.status_code == 409 and turn.json["code"] == "not-your-turn"
    wrong = me.send({"type": "play", "card": "spy"})  # no Spy in classic
    assert wrong.status_code == 422 and wrong.json["code"] == "unknown-card"
    anonymous = client.post(url, json=legal, headers={"If-Match": "1", "Idempotency-Key": "z"})
    assert anonymous.status_code == 401
    assert me.look().json["game"]["version"] == version  # nothing appended by any of these


def test_a_retried_key_gets_the_first_answer(client: FlaskClient) -> None:
    """The same Idempotency-Key twice: one append, the same answer."""
    game, players = new_game(client, "2019", ["human", "human"])
    current = players[0].look().json["view"]["current"]
    me = players[current]
    seen = me.look()
    command, version = seen.json["legal"][0], seen.headers["ETag"]
    headers = {**me.auth(), "If-Match": version, "Idempotency-Key": "same"}
    first = client.post(f"/games/{game}/commands", json=command, headers=headers)
    second = client.post(f"/games/{game}/commands", json=command, headers=headers)
    assert first.status_code == second.status_code == 200
    assert first.json == second.json and first.headers["ETag"] == second.headers["ETag"]
    assert me.look().headers["ETag"] == first.headers["ETag"]


def test_the_feed_long_polls_and_redacts(client: FlaskClient) -> None:
    """A waiting feed returns as soon as a command lands; others' draws stay hidden."""
    _, players = new_game(client, "classic", ["human", "human"])
    current = players[0].look().json["view"]["current"]
    me, other = players[current], players[1 - current]
    head = other.feed().json["version"]
    hub = client.application.extensions["loveletter"].context.hub
    got: list[tuple[TestResponse, float]] = []

    def wait() -> None:
        started = time.monotonic()
        got.append((other.feed(after=head, wait=20), time.monotonic() - started))

    waiter = threading.Thread(target=wait)
    waiter.start()
    wait_until(hub.parked, "the long poll to wait")  # else the command would not wake it
    assert me.send(me.look().json["legal"][0]).status_code == 200
    waiter.join(30)
    assert got, "the long poll did not answer"
    response, waited = got[0]
    assert response.status_code == 200
    assert waited < 10  # woken by the command, not at the end of its 20 s wait
    events = response.json["events"]
    assert events and events[0]["version"] == head + 1 and events[0]["type"] == "card_played"
    for event in other.feed().json["events"]:
        if event["type"] == "turn_started" and event["seat"] != other.seat:
            assert event["card"] is None
        if event["type"] == "round_started":
            assert event["hands"][me.seat] is None and event["hands"][other.seat] is not None
            assert event["salt"] is None and set(event["deck"]) == {None}
        assert event.get("token_hash") is None and event.get("seed") is None


def test_replay_and_the_auditor(make_app) -> None:  # type: ignore[no-untyped-def]
    """Any version can be viewed; after the game the auditor and seats see everything."""
    client = make_app({"LOVELETTER_AUDITOR_TOKEN": "audit-secret"}).test_client()
    game, players = new_game(client, "classic", ["human", "human"])
    auditor = {"Authorization": "Bearer audit-secret"}
    assert client.get(f"/games/{game}/events", headers=auditor).status_code == 403
    at_three = client.get(f"/games/{game}/versions/3")
    assert at_three.status_code == 200 and at_three.json["game"]["version"] == 3
    assert client.get(f"/games/{game}/versions/999").status_code == 404
    current = players[0].look().json["view"]["current"]
    assert players[current].send({"type": "forfeit"}).status_code == 200
    everything = client.get(f"/games/{game}/events", headers=auditor).json["events"]
    started = next(e for e in everything if e["type"] == "round_started")
    assert None not in started["hands"] and started["salt"] is not None
    assert all(e.get("token_hash") is None for e in everything)
    replay = client.get(f"/games/{game}/versions/6", headers=players[0].auth()).json
    assert replay["view"]["hands"] is not None


def test_webhook_urls_are_checked(client: FlaskClient) -> None:
    """Only the seat's own token sets its webhook; private addresses are refused."""
    game, players = new_game(client, "classic", ["human", "human"])
    url = f"/games/{game}/seats/0/webhook"
    assert (
        client.put(
            url, json={"url": "https://example.org/h"}, headers=players[1].auth()
        ).status_code
        == 403
    )
    refused = client.put(url, json={"url": "http://127.0.0.1:9/hook"}, headers=players[0].auth())
    assert refused.status_code == 422 and refused.json["type"].endswith("webhook-url-refused")
    assert (
        client.put(url, json={"url": "ftp://example.org/h"}, headers=players[0].auth()).status_code
        == 422
    )


def test_commands_are_rate_limited_per_seat(make_app) -> None:  # type: ignore[no-untyped-def]
    """Past the seat's limit, 429 with Retry-After."""
    client = make_app({"LOVELETTER_RATE_LIMIT_SEAT": "3/minute"}).test_client()
    game, players = new_game(client, "classic", ["human", "human"])
    statuses = [
        players[0].send({"type": "play", "card": "guard"}, version=1).status_code for _ in range(4)
    ]
    assert statuses[:3] != [429] * 3 and statuses[3] == 429
    player = Player(client, game, players[0].token)
    limited = player.send({"type": "forfeit"}, version=1)
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) >= 1
