"""Whole games over HTTP against `loveletter serve` (gunicorn, an rq worker, embedded Redis)."""

from __future__ import annotations

import random
import re
import signal
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.e2e.conftest import Serve, Served

GAME_SECONDS = 120.0
POLL_SECONDS = 10
HUMAN, BOT = 0, 1
# Private fields of each event type, and the fields naming the seats that may see them (none:
# nobody until the round ends); round_started's hands are handled apart (each seat sees its own).
PRIVATE: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "game_started": (("seed",), ()),
    "round_started": (("set_aside", "deck", "salt"), ()),
    "turn_started": (("card",), ("seat",)),
    "card_drawn": (("card",), ("seat",)),
    "hand_seen": (("card",), ("viewer",)),
    "hands_compared": (("card", "target_card"), ("seat", "target")),
    "hands_swapped": (("seat_card", "other_card"), ("seat", "other")),
    "chancellor_drew": (("cards",), ("seat",)),
    "chancellor_returned": (("kept", "bottom"), ("seat",)),
}


@pytest.fixture(scope="module")
def server(serve: Serve) -> Iterator[Served]:
    """One server for the games of this module, stopped with SIGINT at the end (nothing left)."""
    served = serve("--workers", "1", "--threads", "4")
    yield served
    served.stop(signal.SIGINT)


def hidden(value: Any) -> bool:
    """True for a redacted value: None, or a list of Nones."""
    return value is None or (isinstance(value, list) and all(item is None for item in value))


def leaks(event: dict[str, Any], seat: int | None) -> list[str]:
    """The private fields of `event` that `seat` (None: a spectator) must not see but does."""
    found = []
    if event["type"] == "round_started":
        found += [f"hands[{i}]" for i, card in enumerate(event["hands"])
                  if i != seat and card is not None]  # fmt: skip
    fields, parties = PRIVATE.get(event["type"], ((), ()))
    if seat is None or all(event[party] != seat for party in parties):
        found += [name for name in fields if not hidden(event[name])]
    return found


class Client:
    """An HTTP client of one game, as a seat (with its token) or as a spectator."""

    def __init__(self, base: str, game: str, token: str | None = None) -> None:
        self.session = requests.Session()
        self.url = f"{base}/games/{game}"
        if token is not None:
            self.session.headers["Authorization"] = f"Bearer {token}"

    def look(self) -> requests.Response:
        """GET the game as this client sees it."""
        response = self.session.get(self.url, timeout=10)
        assert response.status_code == 200, response.text
        return response

    def send(self, command: dict[str, Any], etag: str) -> requests.Response:
        """POST a command decided on the version `etag`, with a fresh idempotency key."""
        headers = {"If-Match": etag, "Idempotency-Key": uuid.uuid4().hex}
        return self.session.post(f"{self.url}/commands", json=command, headers=headers, timeout=10)

    def feed(self, after: int = 0, wait: float = 0) -> dict[str, Any]:
        """The events after version `after`, waiting up to `wait` seconds for one."""
        response = self.session.get(
            f"{self.url}/events",
            params={"after": after, "wait": wait, "limit": 5000},
            timeout=wait + 10,
        )
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body


def create(base: str, seats: list[str], **settings: Any) -> dict[str, Any]:
    """POST /games; the created game, seat and token."""
    response = requests.post(
        f"{base}/games", json={"edition": "2019", "seats": seats, **settings}, timeout=10
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def commands_counted(base: str, result: str) -> float:
    """The value of loveletter_commands_total for `result` in /metrics (0 when absent)."""
    response = requests.get(f"{base}/metrics", timeout=10)
    assert response.status_code == 200
    pattern = rf'^loveletter_commands_total\{{result="{result}"\}} ([0-9.e+]+)$'
    found = re.search(pattern, response.text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


def assert_over(body: dict[str, Any]) -> dict[str, Any]:
    """Check a finished game's view has winners holding enough tokens; the view."""
    assert body["game"]["status"] == "over"
    seen: dict[str, Any] = body["view"]
    assert seen["phase"] == "over" and seen["game_winners"], seen
    tokens = {seat["seat"]: seat["tokens"] for seat in seen["seats"]}
    assert all(tokens[w] >= seen["tokens_to_win"] for w in seen["game_winners"]), seen
    assert body["legal"] == []
    return seen


@pytest.mark.slow
def test_a_human_plays_a_whole_game_against_a_bot(server: Served) -> None:
    """The seat plays its legal moves, the worker plays the bot's, until the game is over."""
    created = create(server.base, ["human", "heuristic"], name="ann")
    game = created["game"]["id"]
    assert created["seat"] == HUMAN
    before = commands_counted(server.base, "ok")
    me = Client(server.base, game, created["token"])
    spectator = Client(server.base, game)
    rng = random.Random(game)
    seen_by: dict[str, list[dict[str, Any]]] = {"me": [], "spectator": []}
    sent = bot_turns = 0
    deadline = time.monotonic() + GAME_SECONDS
    while True:
        assert time.monotonic() < deadline, f"not over after {GAME_SECONDS}s"
        # Read before the look: if the game is still on then, it was on for these reads.
        fresh: dict[str, list[dict[str, Any]]] = {}
        for name, client in (("me", me), ("spectator", spectator)):
            seen = seen_by[name]
            fresh[name] = client.feed(after=seen[-1]["version"] if seen else 0)["events"]
            seen += fresh[name]
        looked = me.look()
        body, etag = looked.json(), looked.headers["ETag"]
        version = body["game"]["version"]
        if body["game"]["status"] == "over":
            break
        for event in fresh["me"]:
            assert not leaks(event, HUMAN), event
            assert event["type"] != "round_started" or event["hands"][HUMAN] is not None
        assert body["game"]["status"] == "playing"
        current = body["view"]["current"]
        assert bool(body["legal"]) == (current == HUMAN), body
        if current == HUMAN:
            answer = me.send(rng.choice(body["legal"]), etag)
            assert answer.status_code == 200, answer.text
            assert int(answer.headers["ETag"].strip('"')) > version
            sent += 1
        else:  # the bot's turn: its move comes from the worker
            moved = me.feed(after=version, wait=POLL_SECONDS)
            assert moved["version"] > version, "the bot did not move"
            bot_turns += 1

    final = assert_over(me.look().json())
    assert sent > 0 and bot_turns > 0
    assert commands_counted(server.base, "ok") >= before + sent

    # The feeds were complete; the spectator never saw a hand; over, the seat sees it all.
    for name, client in (("me", me), ("spectator", spectator)):
        seen_by[name] += client.feed(after=seen_by[name][-1]["version"])["events"]
    versions = [event["version"] for event in seen_by["me"]]
    assert versions == list(range(1, len(versions) + 1))
    assert [e["version"] for e in seen_by["spectator"]] == versions
    for event in seen_by["spectator"]:
        assert not leaks(event, None), event
    everything = me.feed()["events"]
    rounds = [event for event in everything if event["type"] == "round_started"]
    assert len(rounds) == final["round"]
    assert any(leaks(event, None) for event in everything)  # the check above can fail
    for event in rounds:
        assert None not in event["hands"] and event["set_aside"] is not None, event
        assert event["deck"] and None not in event["deck"], event
    played = {e["seat"] for e in everything if e["type"] == "card_played"}
    assert played == {HUMAN, BOT}
    for event in spectator.feed()["events"]:
        assert not leaks(event, None), event

    health = requests.get(f"{server.base}/healthz", timeout=10)
    assert health.status_code == 200 and health.json() == {"status": "ok"}


@pytest.mark.slow
def test_two_bots_play_a_whole_game_through_the_worker(server: Served) -> None:
    """A table of bots only starts at once and is played to the end by the worker alone."""
    created = create(server.base, ["heuristic", "heuristic"])
    assert created["seat"] is None and created["token"] is None
    assert created["game"]["status"] == "playing"
    spectator = Client(server.base, created["game"]["id"])
    deadline = time.monotonic() + GAME_SECONDS
    while (body := spectator.look().json())["game"]["status"] != "over":
        assert time.monotonic() < deadline, f"not over after {GAME_SECONDS}s"
        version = body["game"]["version"]
        assert spectator.feed(after=version, wait=POLL_SECONDS)["version"] > version, "stuck"
    assert_over(body)
    events = spectator.feed()["events"]
    assert {e["seat"] for e in events if e["type"] == "card_played"} == {0, 1}
    for event in events:
        assert not leaks(event, None), event
