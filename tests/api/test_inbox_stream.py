"""A player's inbox as server-sent events through two real API processes: entries written by
moves made on the other process arrive live; a client resumes after Last-Event-ID with nothing
lost or repeated; a ticket opens the stream for browsers, and nothing else."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
import requests

from tests.sse import EventStream

pytestmark = [pytest.mark.redis, pytest.mark.slow]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def guest(base: str, name: str) -> str:
    made = requests.post(f"{base}/players", json={"name": name}, timeout=10)
    assert made.status_code == 201, made.text
    return str(made.json()["token"])


def play_until_turn_passes(base: str, game: str, tokens: dict[int, str]) -> None:
    """The seat to act sends its first legal command (once)."""
    for token in tokens.values():
        looked = requests.get(f"{base}/games/{game}", headers=bearer(token), timeout=10)
        legal: list[dict[str, Any]] = looked.json()["legal"]
        if legal:
            headers = {**bearer(token), "If-Match": looked.headers["ETag"],
                       "Idempotency-Key": str(uuid.uuid4())}  # fmt: skip
            sent = requests.post(
                f"{base}/games/{game}/commands", json=legal[0], headers=headers, timeout=10
            )
            assert sent.status_code == 200, sent.text
            return
    raise AssertionError("nobody may act")


def my_turn(base: str, token: str, game: str) -> bool:
    """Whether the player must act in the game now (or it is over), as "my games" says."""
    mine = requests.get(f"{base}/players/me/games", headers=bearer(token), timeout=10).json()
    found = next(entry for entry in mine["games"] if entry["id"] == game)
    return bool(found["my_turn"]) or found["status"] == "over"


def test_the_inbox_streams_live_across_processes_and_resumes_after_the_last_id(
    two_apis: tuple[str, str],
) -> None:
    one, two = two_apis
    ann, bob = guest(one, "ann"), guest(one, "bob")
    with EventStream(one, "/players/me/stream", bearer(ann), timeout=30) as stream:
        assert stream.status == 200
        body = {"edition": "classic", "seats": ["human", "human"], "first_player": 1}
        created = requests.post(f"{two}/games", json=body, headers=bearer(ann), timeout=10)
        game = created.json()["game"]["id"]
        join = {"name": "bob"}
        requests.post(f"{two}/games/{game}/seats", json=join, headers=bearer(bob), timeout=10)
        started = stream.events(1)[0]
        assert started.data["type"] == "game_started" and started.data["game"] == game
        assert started.id == started.data["id"] and started.data["seat"] == 0
        # bob moves until it is ann's turn: a first move that ends the round (one time in
        # ten or so in `classic`) makes bob the first of the next one.
        for _ in range(20):
            play_until_turn_passes(two, game, {1: bob})
            if my_turn(two, ann, game):
                break
        turn = stream.events(1)[0]
        assert (turn.data["type"], turn.data["game"], turn.data["seat"]) == ("your_turn", game, 0)
    # Meanwhile (no stream open) ann moves, then whoever must act until it is her turn again (a
    # round bob wins, he begins the next one).
    play_until_turn_passes(one, game, {0: ann, 1: bob})
    for _ in range(50):
        play_until_turn_passes(one, game, {0: ann, 1: bob})
        if my_turn(one, ann, game):
            break
    assert my_turn(one, ann, game)
    after = {"Last-Event-ID": str(turn.id)}
    with EventStream(two, "/players/me/stream", {**bearer(ann), **after}, timeout=30) as again:
        missed = again.events(1)[0]
    assert missed.data["type"] in ("your_turn", "game_over")
    assert missed.id != turn.id and missed.data["version"] > turn.data["version"]


def test_a_ticket_opens_the_inbox_stream_and_bad_ones_are_refused(
    two_apis: tuple[str, str],
) -> None:
    one, two = two_apis
    ann = guest(one, "ann")
    ticket = requests.post(f"{one}/players/me/stream-tickets", headers=bearer(ann), timeout=10)
    assert ticket.status_code == 201
    url = ticket.json()["url"]
    with EventStream(two, url + "&after=0-0", timeout=30) as stream:
        assert stream.status == 200
        requests.post(f"{one}/games", json={"edition": "classic", "seats": ["human", "random"]},
                      headers=bearer(ann), timeout=10)  # fmt: skip
        assert stream.events(1)[0].data["type"] == "game_started"
    refused = requests.get(f"{two}/players/me/stream?ticket=not-a-ticket", timeout=10)
    assert refused.status_code == 401
    assert refused.headers["Content-Type"] == "application/problem+json"
    bad = requests.get(
        f"{two}/players/me/stream", headers={**bearer(ann), "Last-Event-ID": "x"}, timeout=10
    )
    assert bad.status_code == 400
    game_ticket = requests.get(f"{two}/games/whatever/stream?ticket={url.split('=')[-1]}",
                               timeout=10)  # fmt: skip
    assert game_ticket.status_code in (401, 404)  # an inbox ticket opens nothing else
