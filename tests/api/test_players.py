"""Players: guests, their tokens acting for their seats, transfer codes, my games, abandoning,
presence, and the inbox relayed from the append (also when the relaying process died)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from events.connection import RedisClient
from play.inbox import relay_overdue
from service.deps import context
from tests.api.players import Player as Seat


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def guest(client: FlaskClient, name: str) -> str:
    made = client.post("/players", json={"name": name})
    assert made.status_code == 201, made.json
    assert made.json["player"]["name"] == name and made.json["player"]["kind"] == "guest"
    return str(made.json["token"])


def inbox(app: Flask, token: str) -> list[dict[str, Any]]:
    """The player's inbox entries, read from the store."""
    with app.app_context():
        ctx = context()
        player = ctx.players.by_token(token)
        assert player is not None
        return [entry.shown() for entry in ctx.players.inbox(player)]


def keys_written(redis_client: RedisClient, namespace: str) -> list[bytes]:
    return sorted(redis_client.scan_iter(match=f"{namespace}:*"))  # type: ignore[arg-type]


def test_a_guest_is_made_with_a_token_shown_once_and_kept_as_a_hash(
    client: FlaskClient, redis_client: RedisClient, namespace: str
) -> None:
    token = guest(client, "Ann")
    assert token.startswith("plr_")
    me = client.get("/players/me", headers=bearer(token))
    assert me.status_code == 200 and me.json["name"] == "Ann" and me.json["abandons"] == 0
    stored = b"".join(
        bytes(k) + bytes(str(redis_client.dump(k)), "utf8")
        for k in redis_client.scan_iter(match=f"{namespace}:*")
    )
    assert token.encode() not in stored
    assert client.get("/players/me", headers=bearer("plr_nobody")).status_code == 401
    assert client.get("/players/me").status_code == 401


@pytest.mark.parametrize(
    "body",
    [{}, {"name": ""}, {"name": "<b>"}, {"name": "x" * 41}, {"name": 7}, {"name": "a", "x": 1}],
)
def test_bad_players_are_refused_and_nothing_is_written(
    client: FlaskClient, redis_client: RedisClient, namespace: str, body: dict[str, Any]
) -> None:
    before = keys_written(redis_client, namespace)
    refused = client.post("/players", json=body)
    assert refused.status_code == 422
    assert refused.headers["Content-Type"] == "application/problem+json"
    assert [k for k in keys_written(redis_client, namespace) if b":rate" not in k] == [
        k for k in before if b":rate" not in k
    ]


def test_a_transfer_code_gives_another_device_a_token_once(client: FlaskClient) -> None:
    token = guest(client, "ann")
    code = client.post("/players/me/transfer-codes", headers=bearer(token))
    assert code.status_code == 201 and code.json["expires_in"] == 600
    redeemed = client.post("/players/tokens", json={"code": code.json["code"]})
    assert redeemed.status_code == 201
    new = redeemed.json["token"]
    assert new != token and redeemed.json["player"]["name"] == "ann"
    for each in (token, new):  # both devices act for the player
        assert client.get("/players/me", headers=bearer(each)).json["name"] == "ann"
    again = client.post("/players/tokens", json={"code": code.json["code"]})
    assert again.status_code == 404 and again.json["type"].endswith("transfer-code-not-found")
    assert client.post("/players/tokens", json={"code": "no good"}).status_code == 422


def start_game(client: FlaskClient, ann: str, bob: str, **options: Any) -> str:
    """A classic game of two players: ann creates it, bob joins; both with player tokens."""
    body = {"edition": "classic", "seats": ["human", "human"], **options}
    created = client.post("/games", json=body, headers=bearer(ann))
    assert created.status_code == 201, created.json
    game = str(created.json["game"]["id"])
    joined = client.post(f"/games/{game}/seats", json={"name": "bob"}, headers=bearer(bob))
    assert joined.status_code == 201, joined.json
    return game


def test_a_players_token_acts_for_its_seats_and_holds_one_seat_per_table(
    client: FlaskClient,
) -> None:
    ann, bob = guest(client, "ann"), guest(client, "bob")
    body = {"edition": "classic", "seats": ["human", "human", "human"]}
    game = client.post("/games", json=body, headers=bearer(ann)).json["game"]["id"]
    twice = client.post(f"/games/{game}/seats", json={"name": "ann2"}, headers=bearer(ann))
    assert twice.status_code == 422 and twice.json["code"] == "player-seated"
    joined = client.post(f"/games/{game}/seats", json={"name": "bob"}, headers=bearer(bob))
    assert joined.status_code == 201
    nameless = client.post(f"/games/{game}/seats", json={})
    assert nameless.status_code == 422
    client.post(f"/games/{game}/seats", json={"name": "cy"})
    view = client.get(f"/games/{game}", headers=bearer(ann)).json
    assert [seat["name"] for seat in view["game"]["seats"]] == ["ann", "bob", "cy"]
    assert [seat["player"] for seat in view["game"]["seats"]] == [True, True, False]
    seat = view["view"]["current"]
    mover = [ann, bob, None][seat]
    if mover is not None:
        legal = client.get(f"/games/{game}", headers=bearer(mover)).json["legal"]
        moved = Seat(client, game, mover).send(legal[0])
        assert moved.status_code == 200, moved.json


def test_my_games_puts_mine_to_play_first_and_the_inbox_tells_whose_turn(
    app: Flask, client: FlaskClient
) -> None:
    ann, bob = guest(client, "ann"), guest(client, "bob")
    games = [start_game(client, ann, bob, first_player=seat) for seat in (1, 0, 1)]
    mine = client.get("/players/me/games", headers=bearer(ann))
    assert mine.status_code == 200 and mine.json["total"] == 3
    listed = mine.json["games"]
    assert listed[0]["id"] == games[1] and listed[0]["my_turn"] and listed[0]["my_seat"] == 0
    assert {g["id"] for g in listed[1:]} == {games[0], games[2]}
    assert all(g["to_play"] == 1 and not g["my_turn"] for g in listed[1:])
    assert all(g["last_move_at"].endswith("Z") and g["status"] == "playing" for g in listed)
    page = client.get("/players/me/games?limit=1&offset=1", headers=bearer(ann)).json
    assert page["total"] == 3 and [g["id"] for g in page["games"]] == [listed[1]["id"]]
    assert client.get("/players/me/games?status=over", headers=bearer(ann)).json["total"] == 0
    assert client.get("/players/me/games?status=lost", headers=bearer(ann)).status_code == 422
    kinds = [(e["type"], e["game"]) for e in inbox(app, ann)]
    assert kinds == [
        ("game_started", games[0]),
        ("game_started", games[1]),
        ("your_turn", games[1]),
        ("game_started", games[2]),
    ]
    bobs = [(e["type"], e["game"]) for e in inbox(app, bob)]
    assert ("your_turn", games[0]) in bobs and ("your_turn", games[2]) in bobs
    entry = inbox(app, bob)[-1]
    assert set(entry) >= {"id", "at", "type", "game", "version", "seat", "appended_at_ms"}


def test_abandoning_gives_the_seat_to_a_bot_and_a_table_of_bots_ends(
    app: Flask, client: FlaskClient
) -> None:
    ann, bob = guest(client, "ann"), guest(client, "bob")
    game = start_game(client, ann, bob, takeover_bot="random")
    assert client.post(f"/games/{game}/seats/1/abandon", headers=bearer(ann)).status_code == 403
    left = client.post(f"/games/{game}/seats/0/abandon", headers=bearer(ann))
    assert left.status_code == 200, left.json
    assert left.json["game"]["seats"][0]["bot"] == "random" and left.json["game"]["status"] == (
        "playing"
    )
    again = client.post(f"/games/{game}/seats/0/abandon", headers=bearer(ann))
    assert again.status_code == 401  # the seat is no longer ann's
    listed = client.get("/players/me/games", headers=bearer(ann)).json["games"]
    assert listed[0]["left"] and listed[0]["my_seat"] is None
    assert [e["type"] for e in inbox(app, ann)][-1] == "seat_taken_over"
    ended = client.post(f"/games/{game}/seats/1/abandon", headers=bearer(bob))
    assert ended.json["game"]["status"] == "over"
    assert ended.json["view"]["game_winners"] == []
    assert [e["type"] for e in inbox(app, bob)][-2:] == ["seat_taken_over", "game_over"]
    me = client.get("/players/me", headers=bearer(ann)).json
    assert (me["games"], me["wins"], me["abandons"]) == (1, 0, 1)  # counted once it is over
    record = client.get(f"/players/{me['id']}").json
    assert {name: record[name] for name in ("games", "wins", "abandons")} == {
        name: me[name] for name in ("games", "wins", "abandons")
    }
    feed = client.get(f"/games/{game}/events?after=0").json["events"]
    assert [e["type"] for e in feed].count("seat_taken_over") == 2
    assert all(e["at"].endswith("Z") for e in feed)


def test_presence_is_here_after_a_request_and_away_without_one(
    client: FlaskClient, redis_client: RedisClient, namespace: str
) -> None:
    ann, bob = guest(client, "ann"), guest(client, "bob")
    game = start_game(client, ann, bob)
    seats = client.get(f"/games/{game}", headers=bearer(ann)).json["game"]["seats"]
    assert [seat["presence"] for seat in seats] == ["here", "here"]
    for key in redis_client.scan_iter(match=f"{namespace}:here:*"):
        redis_client.delete(key)  # a minute went by with nothing from either
    seats = client.get(f"/games/{game}").json["game"]["seats"]
    assert [seat["presence"] for seat in seats] == ["away", "away"]


KILLED_AFTER_APPEND = textwrap.dedent(
    """
    import os, sys
    from play import send_command
    from play.context import Context
    from play.settings import Settings
    from game.table import AbandonSeat
    from play.lobby import send_to_table

    def die(*args, **kwargs):
        os._exit(17)  # the process dies between the game's append and the inbox write

    send_command.relay_after_append = die
    ctx = Context.from_settings(Settings.load())
    send_to_table(ctx, sys.argv[1], AbandonSeat(0), {"by": "test"})
    """
)


def test_an_inbox_write_lost_with_its_process_is_made_by_the_sweep_once(
    app: Flask, client: FlaskClient, redis_url: str, namespace: str
) -> None:
    ann, bob = guest(client, "ann"), guest(client, "bob")
    game = start_game(client, ann, bob)
    before = len(inbox(app, ann))
    env = {**os.environ, "REDIS_URL": redis_url, "LOVELETTER_NAMESPACE": namespace,
           "LOVELETTER_QUEUE": namespace}  # fmt: skip
    died = subprocess.run([sys.executable, "-c", KILLED_AFTER_APPEND, game], env=env, timeout=60)
    assert died.returncode == 17
    view = client.get(f"/games/{game}").json
    assert view["game"]["seats"][0]["bot"] == "heuristic"  # the append stands
    assert len(inbox(app, ann)) == before  # nobody was told
    with app.app_context():
        ctx = context()
        assert relay_overdue(ctx, time.time()) == 0  # not due yet: its process may be at it
        assert relay_overdue(ctx, time.time() + 10) == 1
        assert relay_overdue(ctx, time.time() + 10) == 0  # done, and forgotten
        assert ctx.players.get(ctx.players.by_token(ann) or "").games_abandoned == 1  # type: ignore[union-attr]
    told = inbox(app, ann)[before:]
    assert [entry["type"] for entry in told] == ["seat_taken_over"]
    assert json.dumps(told[0]).count(game) == 1
