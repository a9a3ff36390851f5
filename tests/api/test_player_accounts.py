"""A player's devices and accounts through two real API processes: each player token is a
device that can be listed and revoked (one, all others, or this one), and a revoked token acts
and reads no more anywhere, its open streams included; transfer codes are for guests; a guest
links to the operator's account and keeps its games and record; the ids of the operator's
players can't be computed from `sub`; a refused JWT is told in our words."""

from __future__ import annotations

import hashlib
import hmac
import random
import time
from typing import Any

import jwt
import pytest
import requests

from events.connection import RedisClient
from events.players import digest
from tests.api.conftest import APIs
from tests.api.test_ratings_processes import play_ranked_game
from tests.sse import EventStream

pytestmark = [pytest.mark.redis, pytest.mark.slow]

SECRET = "an-hs256-secret-of-the-operator-32b"
ISSUER, AUDIENCE = "https://accounts.example", "loveletter"
ID_SECRET = "the-operators-player-id-secret"
SETTINGS = {
    "LOVELETTER_JWT_SECRET": SECRET,
    "LOVELETTER_JWT_ISSUER": ISSUER,
    "LOVELETTER_JWT_AUDIENCE": AUDIENCE,
    "LOVELETTER_PLAYER_ID_SECRET": ID_SECRET,
    "LOVELETTER_STREAM_HEARTBEAT_SECONDS": "1",
}
STREAM_END_SECONDS = 30.0  # a revoked token's stream ends within ALIVE_EVERY and a heartbeat


@pytest.fixture
def apis(start_apis: APIs) -> list[str]:
    """Two API processes trusting the operator's issuer."""
    return start_apis(2, **SETTINGS)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def signed(sub: str | None, **changes: Any) -> str:
    """A JWT of the trusted issuer naming `sub` (None: no `sub`)."""
    now = int(time.time())
    claims = {"iss": ISSUER, "aud": AUDIENCE, "sub": sub, "exp": now + 300, "iat": now,
              "name": (sub or "nobody").title()}  # fmt: skip
    claims.update(changes)
    return jwt.encode({k: v for k, v in claims.items() if v is not None}, SECRET, "HS256")


def guest(base: str, name: str) -> str:
    made = requests.post(f"{base}/players", json={"name": name}, timeout=10)
    assert made.status_code == 201, made.text
    return str(made.json()["token"])


def me(base: str, token: str) -> requests.Response:
    return requests.get(f"{base}/players/me", headers=bearer(token), timeout=10)


def another_device(apis: list[str], token: str) -> str:
    """A token of the same guest on another device (a transfer code, redeemed elsewhere)."""
    code = requests.post(f"{apis[0]}/players/me/transfer-codes", headers=bearer(token), timeout=10)
    assert code.status_code == 201, code.text
    redeemed = requests.post(f"{apis[1]}/players/tokens", json={"code": code.json()["code"]},
                             timeout=10)  # fmt: skip
    assert redeemed.status_code == 201, redeemed.text
    return str(redeemed.json()["token"])


def devices(base: str, token: str) -> list[dict[str, Any]]:
    listed = requests.get(f"{base}/players/me/devices", headers=bearer(token), timeout=10)
    assert listed.status_code == 200, listed.text
    found: list[dict[str, Any]] = listed.json()["devices"]
    return found


def finished_game(base: str, ann: str, bob: str, **options: Any) -> str:
    """A 2019 game of two players (ann creates, bob joins) that bob forfeits: over."""
    body = {"edition": "2019", "seats": ["human", "human"], **options}
    created = requests.post(f"{base}/games", json=body, headers=bearer(ann), timeout=10)
    assert created.status_code == 201, created.text
    game = created.json()["game"]["id"]
    joined = requests.post(f"{base}/games/{game}/seats", json={"name": "bob"},
                           headers=bearer(bob), timeout=10)  # fmt: skip
    assert joined.status_code == 201, joined.text
    view = requests.get(f"{base}/games/{game}", headers=bearer(bob), timeout=10)
    headers = {**bearer(bob), "If-Match": view.headers["ETag"], "Idempotency-Key": "give-up"}
    gave_up = requests.post(f"{base}/games/{game}/commands", json={"type": "forfeit"},
                            headers=headers, timeout=10)  # fmt: skip
    assert gave_up.status_code == 200, gave_up.text
    assert gave_up.json()["game"]["status"] == "over"
    return str(game)


def test_each_token_is_a_device_that_can_be_revoked(
    apis: list[str], redis_client: RedisClient, namespace: str
) -> None:
    first, second = apis
    phone = guest(first, "ann")
    laptop, tablet = another_device(apis, phone), another_device(apis, phone)
    listed = devices(second, laptop)
    assert len(listed) == 3 and [d["current"] for d in listed].count(True) == 1
    ids = {d["id"] for d in listed}
    assert all(len(i) == 16 and set(i) <= set("0123456789abcdef") for i in ids)
    assert not any(i in digest(t) for i in ids for t in (phone, laptop, tablet))  # not digests
    assert all(d["created_at"] for d in listed)
    assert next(d for d in listed if d["current"])["last_used_at"]  # this request used it
    tablet_id = next(d["id"] for d in devices(first, tablet) if d["current"])
    revoked = requests.delete(f"{first}/players/me/devices/{tablet_id}", headers=bearer(laptop),
                              timeout=10)  # fmt: skip
    assert revoked.status_code == 204, revoked.text
    for base in apis:  # dead on every process at once
        assert me(base, tablet).status_code == 401
    assert not redis_client.exists(f"{namespace}:player-token:{digest(tablet)}")  # its key went
    assert {d["id"] for d in devices(second, phone)} == ids - {tablet_id}
    bob = guest(second, "bob")
    bobs = devices(first, bob)[0]["id"]
    for unknown in (tablet_id, bobs, "0" * 16):  # gone, another player's, or nobody's
        refused = requests.delete(f"{second}/players/me/devices/{unknown}",
                                  headers=bearer(phone), timeout=10)  # fmt: skip
        assert refused.status_code == 404, refused.text
        assert refused.json()["type"].endswith("/device-not-found")
    assert me(first, bob).status_code == 200
    assert requests.delete(f"{first}/players/me/devices/nothex", headers=bearer(phone),
                           timeout=10).status_code == 404  # fmt: skip
    game = requests.post(f"{first}/games", json={"edition": "2019", "seats": ["human"] * 2},
                         headers=bearer(laptop), timeout=10).json()["game"]["id"]  # fmt: skip
    others = requests.post(f"{second}/players/me/devices/revoke-others", headers=bearer(phone),
                           timeout=10)  # fmt: skip
    assert others.status_code == 200 and others.json() == {"revoked": 1}
    assert me(first, laptop).status_code == 401 and me(second, phone).status_code == 200
    assert requests.get(f"{first}/games/{game}/events", headers=bearer(laptop),
                        timeout=10).status_code == 401  # fmt: skip
    assert requests.get(f"{second}/games/{game}", headers=bearer(phone), timeout=10).json()[
        "game"]["seats"][0]["name"] == "ann"  # fmt: skip
    out = requests.post(f"{first}/players/me/sign-out", headers=bearer(phone), timeout=10)
    assert out.status_code == 204, out.text
    for base in apis:
        assert me(base, phone).status_code == 401
        again = requests.post(f"{base}/players/me/sign-out", headers=bearer(phone), timeout=10)
        assert again.status_code == 401
        body = {"edition": "2019", "seats": ["human"] * 2, "name": "ann"}
        made = requests.post(f"{base}/games", json=body, headers=bearer(phone), timeout=10)
        assert made.status_code == 401  # not a game of nobody's: the token is dead
        joined = requests.post(f"{base}/games/{game}/seats", json={"name": "ann2"},
                               headers=bearer(phone), timeout=10)  # fmt: skip
        assert joined.status_code == 401


def read_until_closed(stream: EventStream, seconds: float) -> bool:
    """Read a stream until the server closes it (True) or `seconds` pass (False)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if stream.next() is None:
            return True
    return False


def test_a_revoked_token_closes_the_streams_it_opened(apis: list[str]) -> None:
    first, second = apis
    phone = guest(first, "ann")
    laptop = another_device(apis, phone)
    game = requests.post(f"{first}/games", json={"edition": "2019", "seats": ["human"] * 2},
                         headers=bearer(phone), timeout=10).json()["game"]["id"]  # fmt: skip
    inbox_ticket = requests.post(f"{second}/players/me/stream-tickets", headers=bearer(laptop),
                                 timeout=10).json()["ticket"]  # fmt: skip
    game_ticket = requests.post(f"{second}/games/{game}/stream-tickets", headers=bearer(laptop),
                                timeout=10).json()["ticket"]  # fmt: skip
    spare = requests.post(f"{second}/players/me/stream-tickets", headers=bearer(laptop),
                          timeout=10).json()["ticket"]  # fmt: skip
    streams = [
        EventStream(second, "/players/me/stream", bearer(laptop)),
        EventStream(first, f"/players/me/stream?ticket={inbox_ticket}"),
        EventStream(second, f"/games/{game}/stream", bearer(laptop)),
        EventStream(first, f"/games/{game}/stream?ticket={game_ticket}"),
    ]
    try:
        assert [stream.status for stream in streams] == [200] * 4
        for stream in streams:
            assert stream.next() is not None  # open: its first heartbeat came
        laptop_id = next(d["id"] for d in devices(second, laptop) if d["current"])
        assert requests.delete(f"{first}/players/me/devices/{laptop_id}", headers=bearer(phone),
                               timeout=10).status_code == 204  # fmt: skip
        for number, stream in enumerate(streams):
            assert read_until_closed(stream, STREAM_END_SECONDS), f"stream {number} stayed open"
    finally:
        for stream in streams:
            stream.connection.close()
    late = requests.get(f"{second}/players/me/stream?ticket={spare}", timeout=10)
    assert late.status_code == 401  # a ticket of a revoked token opens nothing
    assert me(first, phone).status_code == 200


def test_transfer_codes_are_for_guests(apis: list[str]) -> None:
    first, second = apis
    refused = requests.post(f"{first}/players/me/transfer-codes",
                            headers=bearer(signed("user-1")), timeout=10)  # fmt: skip
    assert refused.status_code == 403, refused.text
    assert refused.json()["type"].endswith("/guests-only")
    assert requests.get(f"{second}/players/me/devices", headers=bearer(signed("user-1")),
                        timeout=10).json() == {"devices": []}  # fmt: skip


def test_a_guest_links_to_its_account_and_keeps_its_games_and_record(apis: list[str]) -> None:
    first, second = apis
    ann, bob = guest(first, "ann"), guest(first, "bob")
    ann_id = me(first, ann).json()["id"]
    finished_game(first, ann, bob, ranked=True)  # bob gives up at once: ann's win, unrated
    play_ranked_game(first, [ann, bob], random.Random(5))  # really played: ann is rated
    before = requests.get(f"{first}/players/{ann_id}", timeout=10).json()
    assert before["editions"][0]["rating"] is not None
    games = [g["id"] for g in requests.get(f"{first}/players/me/games", headers=bearer(ann),
                                           timeout=10).json()["games"]]  # fmt: skip
    assert len(games) == 2
    code = requests.post(f"{first}/players/me/transfer-codes", headers=bearer(ann),
                         timeout=10).json()["code"]  # fmt: skip
    account = signed("user-ann")
    linked = requests.post(f"{second}/players/me/link", json={"token": ann},
                           headers=bearer(account), timeout=10)  # fmt: skip
    assert linked.status_code == 200, linked.text
    assert linked.json()["revoked"] == 1
    player = linked.json()["player"]
    assert (player["id"], player["kind"], player["name"]) == (ann_id, "external", "ann")
    assert (player["games"], player["wins"], player["abandons"]) == (2, before["wins"], 0)
    for base in apis:
        assert me(base, account).json()["id"] == ann_id
        assert me(base, ann).status_code == 401  # it signs in through its account now
    mine = requests.get(f"{first}/players/me/games", headers=bearer(account), timeout=10).json()
    assert [g["id"] for g in mine["games"]] == games
    record = requests.get(f"{second}/players/{ann_id}", timeout=10).json()
    assert record["editions"] == before["editions"]  # its rating and history kept
    late = requests.post(f"{first}/players/tokens", json={"code": code}, timeout=10)
    assert late.status_code == 403 and late.json()["type"].endswith("/guests-only")
    again = requests.post(f"{first}/players/me/link", json={"token": bob},
                          headers=bearer(account), timeout=10)  # fmt: skip
    assert again.status_code == 409 and again.json()["type"].endswith("/identity-taken")
    assert me(first, bob).status_code == 200  # refused: nothing changed
    for body in ({}, {"token": "plr_short"}, {"token": "plr_" + "A" * 43}, {"token": 7}):
        bad = requests.post(f"{first}/players/me/link", json=body, headers=bearer(account),
                            timeout=10)  # fmt: skip
        assert bad.status_code == 422, (body, bad.text)
    unsigned = requests.post(f"{first}/players/me/link", json={"token": bob},
                             headers=bearer(bob), timeout=10)  # fmt: skip
    assert unsigned.status_code == 401


def test_an_account_that_never_played_gives_way_to_the_guest(apis: list[str]) -> None:
    first, second = apis
    account = signed("user-cy")
    unused = me(first, account).json()["id"]  # made at first sight, never seated
    cy = guest(second, "cy")
    cy_id = me(second, cy).json()["id"]
    linked = requests.post(f"{first}/players/me/link", json={"token": cy},
                           headers=bearer(account), timeout=10)  # fmt: skip
    assert linked.status_code == 200, linked.text
    assert me(second, account).json()["id"] == cy_id
    assert requests.get(f"{first}/players/{unused}", timeout=10).status_code == 404


def test_account_ids_are_keyed_with_the_servers_secret(
    apis: list[str], redis_client: RedisClient, namespace: str
) -> None:
    second = apis[1]
    found = {me(base, signed("user-42")).json()["id"] for base in apis}
    assert len(found) == 1
    (player,) = found
    unkeyed = "x" + hashlib.sha256(f"{ISSUER}\0user-42".encode()).hexdigest()[:24]
    keyed = hmac.new(ID_SECRET.encode(), f"{ISSUER}\0user-42".encode(), hashlib.sha256)
    assert player != unkeyed and player == "x" + keyed.hexdigest()[:24]
    assert requests.get(f"{second}/players/{unkeyed}", timeout=10).status_code == 404
    old = "x" + hashlib.sha256(f"{ISSUER}\0user-7".encode()).hexdigest()[:24]
    redis_client.hset(f"{namespace}:{{p:{old}}}:player", mapping={"id": old, "name": "Old",
                      "kind": "external", "created_at": "1.0", "games_abandoned": 0})  # fmt: skip
    assert me(second, signed("user-7")).json()["id"] == old  # seen before: it keeps its id


def test_a_refused_jwt_is_told_in_our_words(apis: list[str]) -> None:
    now = int(time.time())
    for token in (
        signed("user-1", exp=now - 120),
        signed("user-1", aud="elsewhere"),
        signed("user-1", iss="https://evil.example"),
        signed(None),
        jwt.encode({"sub": "user-1", "exp": now + 60}, "not-the-secret-at-all-32-bytes-x", "HS256"),
    ):
        try:
            jwt.decode(token, SECRET, algorithms=["HS256"], audience=AUDIENCE, issuer=ISSUER,
                       options={"require": ["exp", "iss", "aud", "sub"]})  # fmt: skip
            raise AssertionError("the token was meant to be refused")
        except jwt.PyJWTError as error:
            theirs = str(error)
        refused = me(apis[0], token)
        assert refused.status_code == 401
        detail = refused.json()["detail"]
        assert detail and theirs not in detail, detail
