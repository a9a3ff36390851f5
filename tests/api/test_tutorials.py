"""POST /tutorials and its games (docs/tutorial.md): a tutorial is started by its name alone, its
game is unrated, unlisted, in nobody's games, not joinable and one round long; bad input is a
problem that appends nothing, and no request puts a deal into an ordinary game. Against a real
gunicorn and a real RQ worker, each tutorial's game is its story, move for move."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest
import requests
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.audit import verify
from events.commands import decode_command
from scenarios.tutorial import TUTORIALS
from service.schemas.commands import wire_command
from tests.api.conftest import APIs, api_env
from tests.api.test_errors import problem
from tests.integration.workers import WorkerProcess

BOT_SECONDS = 30.0  # a bot's move comes from the RQ worker


def games_in(client: FlaskClient) -> list[str]:
    """Every game stream of the test's namespace."""
    return list(client.application.extensions["loveletter"].context.games.store.game_ids())


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_the_tutorials_are_listed_with_the_learners_moves_only(client: FlaskClient) -> None:
    """Each story as the guide reads it: the learner's moves with their commands, the bot's
    without (what the bot will hold is not told in advance)."""
    listed = client.get("/tutorials")
    assert listed.status_code == 200
    assert {t["name"] for t in listed.json["tutorials"]} == {"2019", "classic"}
    for name, tutorial in TUTORIALS.items():
        told = client.get(f"/tutorials/{name}").json
        assert (told["edition"], told["learner"], told["bot"]) == (
            tutorial.edition,
            tutorial.learner,
            "medium",
        )
        for said, move in zip(told["moves"], tutorial.moves, strict=True):
            assert said["seat"] == move.seat and said["coach"] == move.coach
            if move.seat == tutorial.learner:
                assert said["command"] == wire_command(move.command)
            else:
                assert "command" not in said
    problem(client.get("/tutorials/chess"), 404, "tutorial-not-found")


@pytest.mark.parametrize("name", sorted(TUTORIALS))
def test_a_tutorial_is_a_private_unrated_game_on_its_deal(client: FlaskClient, name: str) -> None:
    tutorial = TUTORIALS[name]
    started = client.post("/tutorials", json={"tutorial": name, "name": "ann"})
    assert started.status_code == 201, started.json
    body = started.json
    game, token = body["game"]["id"], body["token"]
    assert started.headers["Location"].endswith(f"/games/{game}")
    assert started.headers["ETag"] == f'"{body["game"]["version"]}"'
    assert body["seat"] == tutorial.learner
    table = body["game"]
    assert (table["tutorial"], table["edition"], table["status"]) == (
        name,
        tutorial.edition,
        "playing",
    )
    assert (table["ranked"], table["seeded"], table["open_seats"]) == (False, False, 0)
    assert [seat["bot"] for seat in table["seats"]] == list(tutorial.bots)
    assert not any(seat["player"] for seat in table["seats"])

    seen = client.get(f"/games/{game}", headers=bearer(token)).json
    deal = tutorial.deal
    assert sorted(seen["view"]["hand"]) == sorted([deal.hands[tutorial.learner], deal.deck[0]])
    assert seen["view"]["face_up"] == list(deal.face_up)
    assert wire_command(tutorial.moves[0].command) in seen["legal"]
    watched = client.get(f"/games/{game}").json  # a spectator sees no hidden card
    assert watched["view"]["hand"] is None

    for status in ("open", "playing", "over", None):
        query = "" if status is None else f"?status={status}"
        assert game not in {line["id"] for line in client.get(f"/games{query}").json["games"]}
    taken = client.post(f"/games/{game}/seats", json={"name": "bob"})
    problem(taken, 409, "game-started")


def test_a_players_bearer_does_not_make_a_tutorial_the_players(client: FlaskClient) -> None:
    """The learner's seat is held by its token alone: the tutorial is in nobody's games."""
    player = client.post("/players", json={"name": "ann"}).json["token"]
    started = client.post("/tutorials", json={"tutorial": "classic"}, headers=bearer(player)).json
    assert started["game"]["seats"][0] == {**started["game"]["seats"][0], "player": False}
    assert started["game"]["seats"][0]["name"] == "Player"
    mine = client.get("/players/me/games", headers=bearer(player)).json
    assert mine["games"] == []


def test_a_tutorial_started_again_with_its_key_is_the_same_game(client: FlaskClient) -> None:
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.post("/tutorials", json={"tutorial": "2019"}, headers=key)
    again = client.post("/tutorials", json={"tutorial": "2019"}, headers=key)
    assert first.status_code == again.status_code == 201
    assert first.json == again.json
    assert len(games_in(client)) == 1
    other = client.post("/tutorials", json={"tutorial": "classic"}, headers=key)
    problem(other, 422, "idempotency-key-reused")
    short = client.post("/tutorials", json={"tutorial": "2019"}, headers={"Idempotency-Key": "k"})
    problem(short, 400, "idempotency-key-too-short")
    assert len(games_in(client)) == 1


DEAL = {"set_aside": "guard", "face_up": [], "hands": ["princess", "guard"], "deck": ["guard"]}
BAD_STARTS: list[tuple[Any, int, str]] = [
    ({}, 422, "validation-error"),
    ({"tutorial": "chess"}, 422, "validation-error"),
    ({"tutorial": 2019}, 422, "validation-error"),
    ({"tutorial": None}, 422, "validation-error"),
    ({"tutorial": "2019", "deal": DEAL}, 422, "validation-error"),
    ({"tutorial": "2019", "seed": "mine"}, 422, "validation-error"),
    ({"tutorial": "2019", "edition": "classic"}, 422, "validation-error"),
    ({"tutorial": "2019", "first_player": 1}, 422, "validation-error"),
    ({"tutorial": "2019", "name": "<b>ann</b>"}, 422, "validation-error"),
    ({"tutorial": "2019", "name": ""}, 422, "validation-error"),
    (["2019"], 422, "validation-error"),
]


@pytest.mark.parametrize(("body", "status", "slug"), BAD_STARTS)
def test_bad_input_is_a_problem_and_starts_nothing(
    client: FlaskClient, body: Any, status: int, slug: str
) -> None:
    problem(client.post("/tutorials", json=body), status, slug)
    assert games_in(client) == []


def test_a_body_that_is_not_json_starts_nothing(client: FlaskClient) -> None:
    problem(client.post("/tutorials", data="tutorial=2019"), 415, "unsupported-media-type")
    sent = client.post("/tutorials", data='{"tutorial": "2019",', content_type="application/json")
    problem(sent, 400, "malformed-json")
    twice = '{"tutorial": "2019", "tutorial": "classic"}'
    problem(
        client.post("/tutorials", data=twice, content_type="application/json"),
        400,
        "malformed-json",
    )
    assert games_in(client) == []


@pytest.mark.parametrize(
    "extra",
    [{"deal": DEAL}, {"tutorial": "2019"}, {"tutorial": "2019", "deal": DEAL}, {"prepared": True}],
)
def test_no_ordinary_game_takes_a_deal(client: FlaskClient, extra: dict[str, Any]) -> None:
    """POST /games knows no deal and no tutorial: such a body is refused, nothing appended."""
    body = {"edition": "2019", "seats": ["human", "medium"], "name": "ann", **extra}
    problem(client.post("/games", json=body), 422, "validation-error")
    assert games_in(client) == []


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    body=st.dictionaries(
        st.sampled_from(["tutorial", "name", "deal", "seed", "edition", "seats", "bots"]),
        st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=12),
                  st.sampled_from(sorted(TUTORIALS)), st.lists(st.text(max_size=5), max_size=3)),
        max_size=4,
    )
)  # fmt: skip
def test_any_body_is_a_tutorial_or_a_problem_never_a_500(client: FlaskClient, body: Any) -> None:
    """Whatever is sent, the answer is a started tutorial (its name and, maybe, a name) or a
    problem; only a tutorial's own deal is ever dealt."""
    before = set(games_in(client))
    answer = client.post("/tutorials", json=body)
    made = set(games_in(client)) - before
    if answer.status_code == 201:
        assert set(body) <= {"tutorial", "name"} and body["tutorial"] in TUTORIALS
        assert made == {answer.json["game"]["id"]}
        assert answer.json["game"]["tutorial"] == body["tutorial"]
    else:
        assert answer.status_code in (400, 422), answer.json
        assert answer.mimetype == "application/problem+json"
        assert made == set()


def wait_for_move(base: str, game: str, token: str, after: int) -> dict[str, Any]:
    """The feed after `after` until it holds a move (a `card_played`), waiting on the bot."""
    deadline = time.monotonic() + BOT_SECONDS
    events: list[dict[str, Any]] = []
    while time.monotonic() < deadline:
        page = requests.get(
            f"{base}/games/{game}/events",
            params={"after": after, "wait": 5},
            headers=bearer(token),
            timeout=15,
        ).json()
        events += page["events"]
        after = page["version"]
        played = [e for e in events if e["type"] == "card_played"]
        if played:
            return {"played": played[0], "version": after}
    raise AssertionError(f"no bot move in {game} after version {after} in {BOT_SECONDS} s")


def test_each_tutorials_real_game_is_its_story(
    start_apis: APIs, redis_url: str, namespace: str
) -> None:
    """Through gunicorn, with the bot moved by a real RQ worker on the bots' normal path: each
    move of the game is the story's, the round ends as the story says and the game with it;
    the game is unlisted, refuses a rematch, and its export verifies."""
    (base,) = start_apis(1)
    workers = WorkerProcess(
        redis_url, namespace, api_env(redis_url, namespace), f"{namespace}-webhooks"
    )
    try:
        for name, tutorial in TUTORIALS.items():
            started = requests.post(f"{base}/tutorials", json={"tutorial": name}, timeout=10).json()
            game, token = started["game"]["id"], started["token"]
            version = started["game"]["version"]
            for move in tutorial.moves:
                if move.seat == tutorial.learner:
                    sent = requests.post(
                        f"{base}/games/{game}/commands",
                        json=wire_command(move.command),
                        headers={**bearer(token), "If-Match": f'"{version}"',
                                 "Idempotency-Key": str(uuid.uuid4())},
                        timeout=10,
                    )  # fmt: skip
                    assert sent.status_code == 200, sent.text
                    version = sent.json()["game"]["version"]
                    continue
                found = wait_for_move(base, game, token, version)
                played = found["played"]
                expected = wire_command(move.command)
                assert played["seat"] == move.seat, (name, move)
                assert played["card"] == expected["card"], (name, move)
                assert played["targets"] == expected.get("targets", []), (name, move)
                assert played["guess"] == expected.get("guess"), (name, move)
                version = requests.get(
                    f"{base}/games/{game}", headers=bearer(token), timeout=10
                ).json()["game"]["version"]

            seen = requests.get(f"{base}/games/{game}", headers=bearer(token), timeout=10).json()
            assert seen["game"]["status"] == "over", name
            assert seen["view"]["game_winners"] == [tutorial.learner]
            final = tutorial.scenario["steps"][-1]["expect"]
            players = tutorial.scenario["players"]
            assert [seat["tokens"] for seat in seen["view"]["seats"]] == [
                final["tokens"][player] for player in players
            ]
            listed = requests.get(f"{base}/games?status=over", timeout=10).json()["games"]
            assert game not in {line["id"] for line in listed}
            again = requests.post(f"{base}/games/{game}/rematch", headers=bearer(token), timeout=10)
            assert again.status_code == 422 and again.json()["type"].endswith("/tutorial-over"), (
                again.text
            )
            exported = requests.get(
                f"{base}/games/{game}/events", headers=bearer(token), timeout=10
            ).json()
            moves = [e for e in exported["events"] if e["type"] == "card_played"]
            assert [(e["seat"], e["card"]) for e in moves] == [
                (m.seat, wire_command(m.command)["card"]) for m in tutorial.moves
            ]
    finally:
        workers.stop()


def test_the_audit_reproduces_a_tutorials_deal_from_its_recorded_opening(
    client: FlaskClient,
) -> None:
    """The stored stream verifies: the opening command (with its deal, kept in the stream's
    meta, which no reader is sent) deals exactly the round the events hold."""
    started = client.post("/tutorials", json={"tutorial": "2019"}).json
    store = client.application.extensions["loveletter"].context.games.store
    stored = store.read(started["game"]["id"])
    opening = decode_command(stored[0].meta["command"])
    assert opening.tutorial == "2019" and opening.deal == TUTORIALS["2019"].deal
    records = [{"version": s.version, "event": s.event, "meta": s.meta} for s in stored]
    report = verify(records)
    assert report.ok, report.divergence
    events = client.get(
        f"/games/{started['game']['id']}/events", headers=bearer(started["token"])
    ).json
    assert all("deal" not in event and "meta" not in event for event in events["events"])
