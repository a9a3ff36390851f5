"""The event stream (server-sent events) through real gunicorn: every event once and in order,
redacted as the feed redacts it, resumed after Last-Event-ID, ended with the game; tickets;
and thousands of waiting clients hold neither threads nor Redis connections."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import requests
from flask import Flask
from flask.testing import FlaskClient

from bench.waiters import redis_connections
from events.connection import MAX_CONNECTIONS
from events.redis_server import free_port
from service.serve import Child, gunicorn_command
from tests.api.conftest import APIs, api_env, wait_healthy
from tests.api.players import new_game, two_humans
from tests.e2e.conftest import descendants
from tests.sse import EventStream, Message
from tests.waits import wait_for_waiters


class Seat:
    """A seat of a game played over HTTP."""

    def __init__(self, base: str, game: str, token: str | None) -> None:
        self.base, self.game, self.token = base, game, token
        self.keys = 0

    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def look(self) -> requests.Response:
        return requests.get(f"{self.base}/games/{self.game}", headers=self.auth(), timeout=10)

    def send(self, command: dict[str, Any]) -> requests.Response:
        """Send a command decided on the version seen now."""
        self.keys += 1
        headers = {
            **self.auth(),
            "If-Match": self.look().headers["ETag"],
            "Idempotency-Key": f"k-{self.keys}",
        }
        url = f"{self.base}/games/{self.game}/commands"
        return requests.post(url, json=command, headers=headers, timeout=10)

    def feed(self, after: int = 0) -> dict[str, Any]:
        url = f"{self.base}/games/{self.game}/events?after={after}"
        answer = requests.get(url, headers=self.auth(), timeout=10)
        assert answer.status_code == 200, answer.text
        body: dict[str, Any] = answer.json()
        return body

    def stream(self, path: str = "", headers: dict[str, str] | None = None) -> EventStream:
        """Open the game's stream (`path`: a query string) with this seat's token."""
        return EventStream(
            self.base, f"/games/{self.game}/stream{path}", {**self.auth(), **(headers or {})}
        )

    def ticket(self) -> requests.Response:
        url = f"{self.base}/games/{self.game}/stream-tickets"
        return requests.post(url, headers=self.auth(), timeout=10)


def two_seats(base: str) -> tuple[Seat, Seat]:
    """A 2019 game of two humans, started."""
    game, tokens = two_humans(base, "2019")
    return Seat(base, game, tokens[0]), Seat(base, game, tokens[1])


def play(seats: tuple[Seat, Seat], moves: int) -> None:
    """The seat to act sends its first legal command, `moves` times."""
    for _ in range(moves):
        for seat in seats:
            legal = seat.look().json()["legal"]
            if legal:
                answer = seat.send(legal[0])
                assert answer.status_code == 200, answer.text
                break
        else:
            raise AssertionError("nobody may act")


def as_feed(messages: list[Message]) -> list[dict[str, Any]]:
    """Stream messages as feed items (each checked to carry its version as its id)."""
    for message in messages:
        assert message.event == "message" and message.id == message.data["version"]
    return [message.data for message in messages]


def test_each_seat_streams_every_event_once_in_order_as_its_feed_shows_it(
    gunicorn_app: str,
) -> None:
    """Seat 0 with its token in the header, seat 1 with a stream ticket; then seat 0 drops
    its stream and resumes with Last-Event-ID."""
    ann, bob = two_seats(gunicorn_app)
    ticket = bob.ticket()
    assert ticket.status_code == 201, ticket.text
    assert ticket.json()["seat"] == 1 and ticket.json()["expires_in"] == 60
    assert bob.token not in ticket.json()["url"]
    with ann.stream() as ann_stream, EventStream(gunicorn_app, ticket.json()["url"]) as bob_stream:
        assert ann_stream.status == bob_stream.status == 200
        assert ann_stream.headers["Content-Type"].startswith("text/event-stream")
        play((ann, bob), 6)
        head = ann.feed()["version"]
        ann_seen = ann_stream.events(head)
        bob_seen = bob_stream.events(head)
    assert as_feed(ann_seen) == ann.feed()["events"]
    assert as_feed(bob_seen) == bob.feed()["events"]
    assert as_feed(ann_seen) != as_feed(bob_seen)  # each saw its own hand, not the other's
    play((ann, bob), 4)
    with ann.stream(headers={"Last-Event-ID": str(head)}) as resumed:
        rest = resumed.events(ann.feed()["version"] - head)
    assert as_feed(rest) == ann.feed(after=head)["events"]
    assert [m.id for m in ann_seen + rest] == list(range(1, ann.feed()["version"] + 1))


def test_a_stream_ends_with_the_game_and_a_finished_one_answers_204(gunicorn_app: str) -> None:
    ann, _ = two_seats(gunicorn_app)
    spectator = Seat(gunicorn_app, ann.game, None)
    with spectator.stream("?after=4") as watching:
        assert ann.send({"type": "forfeit"}).status_code == 200
        head = ann.feed()["version"]
        seen = watching.events(head - 4 + 1)
        assert watching.next() is None  # closed by the server
    assert [m.id for m in seen[:-1]] == list(range(5, head + 1))
    assert as_feed(seen[:-1]) == spectator.feed(after=4)["events"]
    assert seen[-1].event == "end" and seen[-1].data == {"version": head, "status": "over"}
    with spectator.stream(headers={"Last-Event-ID": str(head)}) as again:
        assert again.status == 204
    with ann.stream(f"?after={head - 1}") as late:  # a seat sees all once the game is over
        assert [m.id for m in late.events(2)] == [head, None]


def test_tickets_open_only_their_seats_stream_of_their_game(gunicorn_app: str) -> None:
    ann, _ = two_seats(gunicorn_app)
    other, _ = two_seats(gunicorn_app)
    ticket = ann.ticket().json()["ticket"]
    for path in (
        f"/games/{other.game}/stream?ticket={ticket}",
        f"/games/{ann.game}/stream?ticket=nope",
    ):
        answer = requests.get(gunicorn_app + path, timeout=10)
        assert answer.status_code == 401, answer.text
        assert answer.json()["type"].endswith("/unauthorized")
    for token in (None, other.token):
        refused = Seat(gunicorn_app, ann.game, token).ticket()
        assert refused.status_code == 401, refused.text
    with EventStream(gunicorn_app, f"/games/{ann.game}/stream?ticket={ticket}") as stream:
        first = stream.events(4)
    assert as_feed(first) == ann.feed()["events"][:4]


def test_a_quiet_stream_sends_heartbeats(start_apis: APIs) -> None:
    (base,) = start_apis(1, LOVELETTER_STREAM_HEARTBEAT_SECONDS="0.2")
    ann, _ = two_seats(base)
    head = ann.feed()["version"]
    with ann.stream(f"?after={head}") as quiet:
        started = time.monotonic()
        assert quiet.next() == Message(comment="heartbeat")
        assert quiet.next() == Message(comment="heartbeat")
        assert time.monotonic() - started < 5  # every 0.2 s, as set (not the default 15 s)
        assert quiet.retry is not None


@pytest.fixture
def one_worker(redis_url: str, namespace: str) -> Iterator[tuple[str, int]]:
    """The app under gunicorn with one worker (our config); its base URL and worker's pid."""
    env = api_env(redis_url, namespace)
    port = free_port()
    child = Child("api", gunicorn_command("service.wsgi:app", "127.0.0.1", port, 1, 4), env)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base, child)
        (worker,) = [
            pid for pid, line in descendants(child.process.pid).items() if "gunicorn" in line
        ]
        yield base, worker
    finally:
        child.stop()


def hang(base: str, path: str, token: str | None = None) -> socket.socket:
    """Send a GET and leave its answer unread."""
    host, port = base.removeprefix("http://").split(":")
    connection = socket.create_connection((host, int(port)))
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    connection.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n{auth}\r\n".encode())
    return connection


@pytest.mark.slow
def test_hundreds_of_waiting_clients_hold_no_thread_and_no_redis_connection(
    one_worker: tuple[str, int], redis_url: str
) -> None:
    """One worker: 300 long polls and 300 streams wait on 30 games; health checks and
    commands still answer, the worker's Redis connections stay bounded, and one command wakes
    every waiter of its game. (How quickly they answer meanwhile is `bench waiters`' to
    measure.)"""
    base, worker = one_worker
    games = [two_seats(base) for _ in range(30)]
    heads = [ann.feed()["version"] for ann, _ in games]
    waiting: list[socket.socket] = []
    try:
        for number in range(300):
            ann, bob = games[number % 30]
            head = heads[number % 30]  # nothing after it yet: every poll and stream waits
            waiting.append(hang(base, f"/games/{ann.game}/events?after={head}&wait=60", ann.token))
            waiting.append(hang(base, f"/games/{bob.game}/stream?after={head}", bob.token))
        wait_for_waiters(base, len(waiting))  # every poll and stream waits on its game
        assert requests.get(base + "/healthz", timeout=10).status_code == 200
        play(games[0], 1)
        redis_port = int(redis_url.rsplit(":", 1)[1].split("/")[0])
        assert 0 < redis_connections(worker, redis_port) <= MAX_CONNECTIONS + 1  # + the hub's
        woken = [connection for number, connection in enumerate(waiting) if number % 60 in (0, 1)]
        for connection in woken:
            connection.settimeout(5)
            assert connection.recv(65536).startswith(b"HTTP/1.1 200"), "a waiter was not woken"
    finally:
        for connection in waiting:
            connection.close()


def test_stream_requests_are_checked(make_app: Callable[..., Flask]) -> None:
    """Bad Last-Event-ID: 400; bad `after`: 422; unknown game: 404; CORS headers; the ticket's
    answer."""
    app = make_app({"LOVELETTER_CORS_ORIGINS": "https://play.example"})
    client: FlaskClient = app.test_client()
    game, players = new_game(client, "2019", ["human", "human"])
    stream = f"/games/{game}/stream"
    assert client.get(stream, headers={"Last-Event-ID": "x"}).status_code == 400
    assert client.get(stream + "?after=-1").status_code == 422
    assert client.get("/games/nope/stream").status_code == 404
    assert client.get(stream, headers={"Authorization": "Bearer nope"}).status_code == 401
    opened = client.get(stream, headers={"Origin": "https://play.example"}, buffered=False)
    assert opened.status_code == 200
    assert opened.headers["Access-Control-Allow-Origin"] == "https://play.example"
    assert opened.headers["Cache-Control"] == "no-cache"
    opened.close()
    ticket = client.post(f"/games/{game}/stream-tickets", headers=players[1].auth())
    assert ticket.status_code == 201
    assert set(ticket.json) == {"ticket", "seat", "expires_in", "url"}
