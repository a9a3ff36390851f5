"""A client that sends its player's bearer everywhere can watch: through a real gunicorn, a
player's token on a game where it holds no seat reads that game as a spectator does (view,
replay, feed, stream), the same bytes an anonymous reader gets; a seat token of another game
still gets 401."""

from __future__ import annotations

from typing import Any

import pytest
import requests

from tests.api.players import two_humans
from tests.sse import EventStream

pytestmark = [pytest.mark.redis, pytest.mark.slow]

READS = ("", "/versions/3", "/events?after=0")


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def guest(base: str, name: str) -> str:
    made = requests.post(f"{base}/players", json={"name": name}, timeout=10)
    assert made.status_code == 201, made.text
    return str(made.json()["token"])


def read(base: str, game: str, path: str, token: str | None) -> requests.Response:
    return requests.get(f"{base}/games/{game}{path}", headers=bearer(token), timeout=10)


def public(answer: requests.Response) -> Any:
    """An answer's body without the presence of seats (who is here changes by itself)."""
    body = answer.json()
    for seat in body.get("game", {}).get("seats", []):
        seat.pop("presence", None)
    return body


def test_a_players_bearer_without_a_seat_reads_as_a_spectator(gunicorn_app: str) -> None:
    base = gunicorn_app
    game, tokens = two_humans(base, "2019")
    watcher = guest(base, "dee")
    for path in READS:
        anonymous = read(base, game, path, None)
        watching = read(base, game, path, watcher)
        assert anonymous.status_code == 200, anonymous.text
        assert watching.status_code == 200, f"{path}: {watching.text}"
        assert public(watching) == public(anonymous), path
    seat_view = read(base, game, "", tokens[0]).json()
    assert seat_view["view"] != read(base, game, "", watcher).json()["view"]  # no hand shown
    stream = EventStream(base, f"/games/{game}/stream?after=0", bearer(watcher))
    try:
        assert stream.status == 200
        sent = stream.events(3)
        assert [message.id for message in sent] == [1, 2, 3]
        shown = read(base, game, "/events?after=0", None).json()["events"][:3]
        assert [message.data for message in sent] == shown
    finally:
        stream.connection.close()
    _, other_tokens = two_humans(base, "2019")
    for path in READS:  # a seat token is one game's: elsewhere it is refused
        refused = read(base, game, path, other_tokens[0])
        assert refused.status_code == 401, path
        assert refused.headers["Content-Type"] == "application/problem+json"
    assert read(base, game, "", "plr_" + "x" * 43).status_code == 401  # no such player


def test_a_player_who_left_its_seat_watches_the_table_it_left(gunicorn_app: str) -> None:
    base = gunicorn_app
    ann, bob = guest(base, "ann"), guest(base, "bob")
    body = {"edition": "classic", "seats": ["human", "human", "human"]}
    created = requests.post(f"{base}/games", json=body, headers=bearer(ann), timeout=10)
    game = created.json()["game"]["id"]
    joined = requests.post(f"{base}/games/{game}/seats", json={"name": "bob"},
                           headers=bearer(bob), timeout=10)  # fmt: skip
    seat = joined.json()["seat"]
    left = requests.delete(f"{base}/games/{game}/seats/{seat}", headers=bearer(bob), timeout=10)
    assert left.status_code == 204, left.text
    watching = read(base, game, "", bob)
    assert watching.status_code == 200, watching.text
    assert watching.json()["legal"] == []
    again = requests.delete(f"{base}/games/{game}/seats/{seat}", headers=bearer(bob), timeout=10)
    assert again.status_code == 401  # watching is not acting
