"""Quick play through the API: entering, matching, bots filling the seats, cancelling, players
gone, ranked windows, and bad requests that change nothing."""

from __future__ import annotations

import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from events.connection import RedisClient
from game.editions import EDITIONS
from play.quickplay import sweep_queue
from service.deps import context
from tests.api.test_players import bearer, guest, inbox


def enter(client: FlaskClient, token: str, **body: Any) -> dict[str, Any]:
    answer = client.post("/queue", json={"edition": "2019", "seats": [2], **body},
                         headers=bearer(token))  # fmt: skip
    assert answer.status_code == 201, answer.json
    assert answer.headers["Location"].endswith(f"/queue/{answer.json['id']}")
    return dict(answer.json)


def look(client: FlaskClient, token: str, entry: str) -> dict[str, Any]:
    answer = client.get(f"/queue/{entry}", headers=bearer(token))
    assert answer.status_code == 200, answer.json
    return dict(answer.json)


def queue_keys(redis_client: RedisClient, namespace: str) -> list[bytes]:
    return sorted(redis_client.scan_iter(match=f"{namespace}:{{queue}}:*", count=1000))


def test_two_players_are_matched_seated_and_started_and_told_in_their_inboxes(
    app: Flask, client: FlaskClient
) -> None:
    ann, bob = guest(client, "ann"), guest(client, "bob")
    first = enter(client, ann, seats=[2, 3])
    assert first["state"] == "waiting" and first["game"] is None and first["token"] is None
    second = enter(client, bob, seats=[2])
    assert second["state"] == "matched"
    game, seat = second["game"], second["seat"]
    mine = look(client, ann, first["id"])
    assert mine["state"] == "matched" and mine["game"] == game and mine["seat"] != seat
    view = client.get(f"/games/{game}", headers=bearer(mine["token"])).json
    assert view["game"]["status"] == "playing" and view["view"]["you"] == mine["seat"]
    names = [s["name"] for s in view["game"]["seats"]]
    assert names[mine["seat"]] == "ann" and names[seat] == "bob"
    assert all(s["player"] and s["bot"] is None for s in view["game"]["seats"])
    by_player = client.get(f"/games/{game}", headers=bearer(bob)).json
    assert by_player["view"]["you"] == seat  # the player's own token acts for the seat
    told = [e for e in inbox(app, ann) if e["type"] == "matched"]
    assert [(e["game"], e["seat"], e["entry"]) for e in told] == [(game, mine["seat"], first["id"])]
    listed = client.get("/players/me/games", headers=bearer(ann)).json["games"]
    assert [g["id"] for g in listed] == [game]


def test_bots_fill_the_table_once_the_wait_is_over_without_a_request(
    app: Flask, client: FlaskClient
) -> None:
    ann = guest(client, "ann")
    entry = enter(client, ann, seats=[3, 4], bots_after=1)
    assert entry["state"] == "waiting"
    with app.app_context():
        assert sweep_queue(context()) == 0  # not yet
        time.sleep(1.1)
        assert sweep_queue(context()) == 1
    mine = look(client, ann, entry["id"])
    assert mine["state"] == "matched" and mine["seat"] == 0
    table = client.get(f"/games/{mine['game']}").json["game"]
    assert [s["bot"] for s in table["seats"]] == [None, "medium", "medium"]  # fewest seats
    assert table["status"] == "playing"


def test_an_entry_of_people_only_is_never_seated_with_bots(client: FlaskClient) -> None:
    ann, bob = guest(client, "ann"), guest(client, "bob")
    people = enter(client, ann, seats=[3])
    hurried = enter(client, bob, seats=[3], bots_after=0)
    assert hurried["state"] == "matched"  # at once, with bots only
    assert look(client, ann, people["id"])["state"] == "waiting"
    table = client.get(f"/games/{hurried['game']}").json["game"]
    assert [s["bot"] is None for s in table["seats"]] == [True, False, False]


def test_cancelling_takes_the_entry_out_and_a_matched_entry_cannot_be(
    client: FlaskClient,
) -> None:
    ann, bob, cat = guest(client, "ann"), guest(client, "bob"), guest(client, "cat")
    entry = enter(client, ann)
    gone = client.delete(f"/queue/{entry['id']}", headers=bearer(ann))
    assert gone.status_code == 200 and gone.json["state"] == "cancelled"
    again = client.delete(f"/queue/{entry['id']}", headers=bearer(ann))
    assert again.status_code == 200 and again.json["state"] == "cancelled"
    waiting = enter(client, bob)
    assert waiting["state"] == "waiting"  # ann's cancelled entry was not matched
    matched = enter(client, cat)
    assert matched["state"] == "matched"
    refused = client.delete(f"/queue/{waiting['id']}", headers=bearer(bob))
    assert refused.status_code == 409 and refused.json["type"].endswith("/queue-entry-matched")
    assert look(client, bob, waiting["id"])["game"] == matched["game"]


def test_one_entry_per_player_and_only_the_player_reads_it(client: FlaskClient) -> None:
    ann, bob = guest(client, "ann"), guest(client, "bob")
    entry = enter(client, ann, seats=[4])
    twice = client.post("/queue", json={"edition": "2019", "seats": [3]}, headers=bearer(ann))
    assert twice.status_code == 409 and twice.json["entry"] == entry["id"]
    assert twice.json["type"].endswith("/already-queued")
    for who, path in ((bob, entry["id"]), (ann, "nothing-here-123"), (ann, "x" * 16)):
        found = client.get(f"/queue/{path}", headers=bearer(who))
        assert found.status_code == 404 and found.json["type"].endswith("/queue-entry-not-found")
    assert client.get(f"/queue/{entry['id']}").status_code == 401
    assert client.post("/queue", json={"edition": "2019", "seats": [2]}).status_code == 401


def test_players_not_seen_for_a_while_are_dropped(make_app: Any) -> None:
    app = make_app({"LOVELETTER_QUICKPLAY_GONE_SECONDS": "1"})
    client = app.test_client()
    ann, bob, cat = guest(client, "ann"), guest(client, "bob"), guest(client, "cat")
    gone = enter(client, ann, seats=[2])
    polled = enter(client, bob, seats=[3])
    for _ in range(3):
        time.sleep(0.5)
        look(client, bob, polled["id"])  # bob polls; ann does not
    late = enter(client, cat, seats=[2, 3])
    assert late["state"] == "waiting"  # not with ann, who is gone; bob wants 3
    assert look(client, ann, gone["id"])["state"] == "dropped"
    assert look(client, bob, polled["id"])["state"] == "waiting"
    again = enter(client, ann, seats=[2])  # a dropped player may come back
    assert again["state"] == "matched"
    assert look(client, cat, late["id"])["game"] == again["game"]


def test_ranked_players_far_apart_wait_until_the_window_has_widened(
    make_app: Any, redis_client: RedisClient, namespace: str
) -> None:
    app = make_app({"LOVELETTER_QUICKPLAY_GONE_SECONDS": "600"})
    client = app.test_client()
    tokens = [guest(client, name) for name in ("ann", "bob", "cat", "dan")]
    with app.app_context():
        ctx = context()
        ids = [ctx.players.by_token(token) for token in tokens]
    ratings = {ids[0]: '{"mu": 40, "sigma": 2, "games": 30}',  # 34
               ids[1]: '{"mu": 23, "sigma": 7, "games": 10}',  # 2; cat: 0 (no rating yet)
               ids[3]: '{"mu": 26, "sigma": 2, "games": 10}'}  # fmt: skip  # 20
    redis_client.hset(f"{namespace}:ratings:2019", mapping=ratings)
    ann, bob, cat, dan = tokens
    strong = enter(client, ann, ranked=True)
    weak = enter(client, bob, ranked=True)
    assert weak["state"] == "waiting"  # 32 apart
    new = enter(client, cat, ranked=True)
    assert new["state"] == "matched"  # 2 apart: within the first window (3)
    assert look(client, bob, weak["id"])["game"] == new["game"]
    assert client.get(f"/games/{new['game']}").json["game"]["status"] == "playing"
    late = enter(client, dan, ranked=True)
    assert late["state"] == "waiting"  # 14 apart; ann's window: 3 + 0.5 per second waited
    entered = int(time.time() * 1000)
    with app.app_context():
        queue = context().quickplay
        assert queue.match("2019:1", "g-early", entered + 20_000) is None  # 13 < 14
        match = queue.match("2019:1", "g-widened", entered + 25_000)  # 15.5 >= 14
    assert match is not None and set(match.entries) == {strong["id"], late["id"]}


BODIES = st.fixed_dictionaries(
    {},
    optional={
        "edition": st.one_of(st.sampled_from(["2019", "classic", "nope", ""]), st.integers()),
        "seats": st.one_of(
            st.lists(
                st.one_of(st.integers(-2, 10), st.booleans(), st.floats(), st.text()), max_size=10
            ),
            st.integers(),
            st.text(),
        ),
        "ranked": st.one_of(st.booleans(), st.integers(), st.none(), st.text()),
        "bots_after": st.one_of(st.none(), st.integers(-5, 1000), st.floats(), st.text()),
        "bot": st.one_of(st.sampled_from(["heuristic", "random", "nobody"]), st.integers()),
        "extra": st.integers(),
    },
)


def good(body: dict[str, Any]) -> bool:
    """Whether the queue may take the body (then it is not sent: only bad ones are)."""
    seats, bots_after = body.get("seats"), body.get("bots_after")
    rules = EDITIONS.get(body.get("edition"))  # type: ignore[arg-type]
    return (
        rules is not None
        and isinstance(seats, list)
        and 1 <= len(seats) <= 7
        and all(type(n) is not bool and isinstance(n, (int, float)) for n in seats)
        and all(rules.min_players <= n <= rules.max_players for n in seats)
        and type(body.get("ranked", False)) is bool
        and (bots_after is None or (type(bots_after) in (int, float)))
        and "extra" not in body
        and body.get("bot", "heuristic") in ("heuristic", "random")
    )


@pytest.fixture
def unlimited_client(make_app: Any) -> FlaskClient:
    """A client past the address limit: shrinking a failure replays hundreds of examples a
    minute."""
    return make_app({"LOVELETTER_RATE_LIMIT_ADDRESS": "off"}).test_client()


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=BODIES)
def test_bad_requests_are_problems_and_change_nothing(
    unlimited_client: FlaskClient, redis_client: RedisClient, namespace: str, body: dict[str, Any]
) -> None:
    assume(not good(body))
    client = unlimited_client
    token = guest(client, "ann")
    before = queue_keys(redis_client, namespace)
    answer = client.post("/queue", json=body, headers=bearer(token))
    assert 400 <= answer.status_code < 500, answer.json
    assert answer.headers["Content-Type"] == "application/problem+json"
    # A float NaN or infinity is sent as the bare word NaN or Infinity: not JSON.
    refusals = ("validation-error", "wrong-player-count", "bad-setting", "malformed-json")
    assert answer.json["type"].rsplit("/", 1)[1] in refusals
    assert queue_keys(redis_client, namespace) == before
