"""Two human seats follow their event streams through `loveletter serve` for a whole game."""

from __future__ import annotations

import signal
import threading
import time
from typing import Any

import pytest
import requests

from tests.e2e.conftest import Serve
from tests.e2e.test_full_game import leaks
from tests.sse import EventStream, Message

MOVES_BEFORE_RECONNECT = 8
TIMEOUT = 30


class Follower(threading.Thread):
    """Reads a seat's stream into `messages` until the stream ends (or `stop` is set)."""

    def __init__(self, base: str, path: str, headers: dict[str, str]) -> None:
        super().__init__(daemon=True)
        self.stream = EventStream(base, path, headers, timeout=TIMEOUT)
        assert self.stream.status == 200
        self.messages: list[Message] = []
        self.arrived: list[float] = []  # when each message came (time.monotonic)
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                message = self.stream.next()
            except (OSError, AttributeError, ValueError):  # hung up on by the test itself
                if self.stop.is_set():
                    return
                raise
            if message is None:
                return
            if message.comment is None:
                self.messages.append(message)
                self.arrived.append(time.monotonic())


def post(url: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
    answer = requests.post(url, json=body, headers=headers or {}, timeout=TIMEOUT)
    assert answer.status_code in (200, 201), answer.text
    return answer


@pytest.mark.slow
def test_two_seats_follow_their_streams_through_a_whole_game(serve: Serve) -> None:
    """Every event arrives once and in order, redacted for its seat while the game is played;
    seat 0 hangs up halfway and resumes with Last-Event-ID; both streams end with the game."""
    served = serve("--workers", "1")
    base = served.base
    try:
        created = post(f"{base}/games", {"edition": "2019", "seats": ["human", "human"],
                                         "name": "ann"}).json()  # fmt: skip
        game = created["game"]["id"]
        joined = post(f"{base}/games/{game}/seats", {"name": "bob"}).json()
        tokens = {created["seat"]: created["token"], joined["seat"]: joined["token"]}
        auth = {seat: {"Authorization": f"Bearer {token}"} for seat, token in tokens.items()}
        ticket = post(f"{base}/games/{game}/stream-tickets", headers=auth[1]).json()
        path = f"/games/{game}/stream"
        ann = Follower(base, path, auth[0])
        bob = Follower(base, ticket["url"], {})  # as a browser's EventSource would
        ann.start()
        bob.start()
        moves = 0
        first_half: list[Message] = []
        first_arrived: list[float] = []
        last_sent = 0.0  # when the move that ended the game was sent
        while True:
            views = {
                seat: requests.get(f"{base}/games/{game}", headers=auth[seat], timeout=TIMEOUT)
                for seat in (0, 1)
            }
            if views[0].json()["game"]["status"] == "over":
                break
            seat = next(seat for seat, view in views.items() if view.json()["legal"])
            headers = {**auth[seat], "If-Match": views[seat].headers["ETag"],
                       "Idempotency-Key": f"move-{moves}"}  # fmt: skip
            last_sent = time.monotonic()
            post(f"{base}/games/{game}/commands", views[seat].json()["legal"][0], headers)
            moves += 1
            if moves == MOVES_BEFORE_RECONNECT:  # ann hangs up and comes back
                ann.stop.set()
                ann.stream.close()
                ann.join(TIMEOUT)
                first_half, first_arrived = ann.messages, ann.arrived
                resume = {**auth[0], "Last-Event-ID": str(first_half[-1].id)}
                ann = Follower(base, path, resume)
                ann.start()
        for follower in (ann, bob):
            follower.join(TIMEOUT)
            assert not follower.is_alive(), "the stream did not end with the game"
        head = views[0].json()["game"]["version"]
        streams = {0: first_half + ann.messages, 1: bob.messages}
        arrivals = {0: first_arrived + ann.arrived, 1: bob.arrived}
        for seat, messages in streams.items():
            *events, end = messages
            assert end.event == "end" and end.data == {"version": head, "status": "over"}
            assert [message.id for message in events] == list(range(1, head + 1)), seat
            assert all(message.id == message.data["version"] for message in events)
            # Events the stream reads once the game is over are shown whole, as the seat's
            # feed shows them from then on; before the last move was sent, nothing leaks.
            read = requests.get(f"{base}/games/{game}/events", headers=auth[seat],
                                params={"limit": 5000}, timeout=TIMEOUT)  # fmt: skip
            afterwards = read.json()["events"]
            for message, arrived in zip(events, arrivals[seat][:-1], strict=True):
                found = leaks(message.data, seat)
                assert not found or arrived > last_sent, (seat, message.data, found)
                assert not found or message.data == afterwards[message.id - 1], seat
            assert sum(arrived < last_sent for arrived in arrivals[seat][:-1]) > head / 2, seat
        types = [[message.data["type"] for message in streams[seat][:-1]] for seat in (0, 1)]
        assert types[0] == types[1]
        assert streams[0][:-1] != streams[1][:-1]  # each saw its own hand
    finally:
        served.stop(signal.SIGINT)
