"""Leaderboards and players' records through the API: ranked games played to their end by
players move ratings; the pages, the minimum of games, and the 404s of unknown names."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.records import PLAYED_TURNS
from tests.api.conftest import AppFactory
from tests.api.test_errors import problem
from tests.api.test_players import bearer, guest


def ranked_game(client: FlaskClient, tokens: list[str], loser: int) -> str:
    """A ranked 2019 game of these players, played (each seat makes PLAYED_TURNS turns of its
    own, its first legal command) until the seat `loser` forfeits on its turn: it places last,
    and the game counts for everyone."""
    body = {"edition": "2019", "seats": ["human"] * len(tokens), "ranked": True,
            "first_player": loser}  # fmt: skip
    created = client.post("/games", json=body, headers=bearer(tokens[0]))
    assert created.status_code == 201, created.json
    game = created.json["game"]["id"]
    for n, token in enumerate(tokens[1:], start=1):
        joined = client.post(f"/games/{game}/seats", json={"name": f"p{n}"}, headers=bearer(token))
        assert joined.status_code == 201, joined.json
    turns = [0] * len(tokens)
    for _ in range(200):
        look = client.get(f"/games/{game}")
        seat = look.json["view"]["current"]
        ready = min(turns) >= PLAYED_TURNS and seat == loser
        legal = client.get(f"/games/{game}", headers=bearer(tokens[seat])).json["legal"]
        command = {"type": "forfeit"} if ready else legal[0]
        headers = {**bearer(tokens[seat]), "If-Match": look.headers["ETag"],
                   "Idempotency-Key": uuid4().hex}  # fmt: skip
        sent = client.post(f"/games/{game}/commands", json=command, headers=headers)
        assert sent.status_code == 200, sent.json
        turns[seat] += command["type"] == "play"
        if ready:
            break
    assert client.get(f"/games/{game}").json["game"]["status"] == "over"
    return game


def player_id(client: FlaskClient, token: str) -> str:
    return str(client.get("/players/me", headers=bearer(token)).json["id"])


def test_ranked_games_make_a_leaderboard_and_records(make_app: AppFactory) -> None:
    """ann beats bob three times (bob leaves first) with a minimum of 2 games: both are on the
    board, ann first; their records count games, wins, abandons and a history per game."""
    client = make_app({"LOVELETTER_LEADERBOARD_MIN_GAMES": "2"}).test_client()
    ann, bob, cy = (guest(client, name) for name in ("ann", "bob", "cy"))
    for _ in range(3):
        ranked_game(client, [ann, bob], loser=1)
    ranked_game(client, [cy, ann], loser=0)  # cy: one game, below the minimum
    board = client.get("/leaderboards/2019")
    assert board.status_code == 200, board.json
    assert board.json["min_games"] == 2
    names = [line["name"] for line in board.json["players"]]
    assert names == ["ann", "bob"]
    assert [line["rank"] for line in board.json["players"]] == [1, 2]
    first = board.json["players"][0]["rating"]
    assert first["games"] == 4 and abs(first["score"] - (first["mu"] - 3 * first["sigma"])) < 1e-9
    page = client.get("/leaderboards/2019?offset=1&limit=1").json["players"]
    assert [(line["rank"], line["name"]) for line in page] == [(2, "bob")]
    record = client.get(f"/players/{player_id(client, bob)}")
    assert record.status_code == 200, record.json
    body = record.json
    assert (body["name"], body["games"], body["wins"], body["abandons"]) == ("bob", 3, 0, 3)
    (edition,) = body["editions"]
    assert edition["edition"] == "2019" and len(edition["history"]) == 3
    assert edition["rating"]["mu"] == edition["history"][-1]["mu"] < 25
    assert edition["win_rate"] == 0.0
    ann_record = client.get(f"/players/{player_id(client, ann)}").json
    assert (ann_record["games"], ann_record["wins"], ann_record["abandons"]) == (4, 4, 0)
    assert client.get("/leaderboards/classic").json["players"] == []


def test_the_leaderboard_says_where_the_player_asked_for_stands(make_app: AppFactory) -> None:
    """With `player`, the answer adds that player's standing: their rank even beyond the page,
    no rank below the minimum of games (their rating still given), nothing before any rated
    game; without it, no standing at all."""
    client = make_app({"LOVELETTER_LEADERBOARD_MIN_GAMES": "2"}).test_client()
    ann, bob, cy, dan = (guest(client, name) for name in ("ann", "bob", "cy", "dan"))
    for _ in range(2):
        ranked_game(client, [ann, bob], loser=1)
    ranked_game(client, [cy, ann], loser=0)  # cy: one rated game, below the minimum

    def standing(token: str, **query: Any) -> dict[str, Any]:
        asked = {"player": player_id(client, token), **query}
        answer = client.get("/leaderboards/2019", query_string=asked)
        assert answer.status_code == 200, answer.json
        found: dict[str, Any] = answer.json["standing"]
        assert found["player"] == player_id(client, token)
        return found

    assert standing(ann)["rank"] == 1 and standing(ann)["rating"]["games"] == 3
    second = standing(bob, limit=1)  # bob is on the board, past the page asked for
    assert second["rank"] == 2 and second["rating"]["games"] == 2
    provisional = standing(cy)
    assert provisional["rank"] is None and provisional["rating"]["games"] == 1
    assert standing(dan) == {"player": player_id(client, dan), "rating": None, "rank": None}
    assert "standing" not in client.get("/leaderboards/2019").json
    problem(client.get("/leaderboards/2019?player=not%20an%20id"), 422, "validation-error")


def test_unknown_editions_and_players_are_404(client: FlaskClient) -> None:
    problem(client.get("/leaderboards/deluxe"), 404, "edition-not-found")
    problem(client.get("/players/nobody-here"), 404, "player-not-found")
    problem(client.get("/players/not%20an%20id"), 404, "not-found")  # no id by its pattern
    problem(client.get("/leaderboards/2019?limit=0"), 422, "validation-error")


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    st.dictionaries(
        st.sampled_from(["limit", "offset", "player", "x"]),
        st.one_of(st.integers(-5, 300_000), st.text(max_size=5)),
        max_size=3,
    )
)
def test_any_leaderboard_query_is_a_page_or_a_problem(
    client: FlaskClient, query: dict[str, Any]
) -> None:
    """Whatever the query, a page (200) or a validation problem (422), never a 500."""
    answer = client.get("/leaderboards/2019", query_string=query)
    assert answer.status_code in (200, 422), answer.json
    if answer.status_code == 422:
        problem(answer, 422, "validation-error")
    else:
        assert answer.json["players"] == []
        assert ("standing" in answer.json) == ("player" in query)
