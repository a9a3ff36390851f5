"""Who may act on a seat is decided with the table the command is applied to, through two real
API processes: a player who just left a seat can't act on it once someone else sat down there,
however its requests race the newcomer's join."""

from __future__ import annotations

import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from events.players import digest
from game.table import Table, evolve
from play.context import Context
from play.settings import Settings
from tests.api.conftest import APIs

pytestmark = [pytest.mark.redis, pytest.mark.slow]

ROUNDS = 12
LEAVES = 16  # parallel DELETEs of the leaver, per round
JOIN_SECONDS = 10.0  # how long the newcomer tries to sit down once the seat is free


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def spectator_feed(base: str, game: str) -> list[dict[str, Any]]:
    """Every event of the game as a spectator sees it."""
    answer = requests.get(f"{base}/games/{game}/events?after=0&limit=5000", timeout=10)
    assert answer.status_code == 200, answer.text
    events: list[dict[str, Any]] = answer.json()["events"]
    return events


def race_a_leave_and_a_join(bases: list[str], number: int) -> dict[str, Any]:
    """ann opens a 3-seat table, bob takes seat 1, then bob sends LEAVES parallel DELETEs of
    seat 1 over both processes while cy keeps trying to take seat 1 until she does. What
    happened: the game, the answers, cy's token."""
    body = {"edition": "classic", "seats": ["human"] * 3, "name": "ann"}
    created = requests.post(f"{bases[0]}/games", json=body, timeout=10)
    assert created.status_code == 201, created.text
    game = created.json()["game"]["id"]
    joined = requests.post(f"{bases[1]}/games/{game}/seats", json={"seat": 1, "name": "bob"},
                           timeout=10)  # fmt: skip
    assert joined.status_code == 201, joined.text
    bob = joined.json()["token"]
    start = threading.Barrier(LEAVES + 1)

    def leave(n: int) -> int:
        session = requests.Session()
        start.wait(timeout=30)
        url = f"{bases[n % 2]}/games/{game}/seats/1"
        return session.delete(url, headers=bearer(bob), timeout=30).status_code

    def join() -> requests.Response:
        session = requests.Session()
        start.wait(timeout=30)
        deadline = time.monotonic() + JOIN_SECONDS
        tried = None
        while time.monotonic() < deadline:
            tried = session.post(f"{bases[(number + 1) % 2]}/games/{game}/seats",
                                 json={"seat": 1, "name": "cy"}, timeout=30)  # fmt: skip
            if tried.status_code == 201:
                return tried
        raise AssertionError(f"cy never took seat 1 of {game}: {tried and tried.text}")

    with ThreadPoolExecutor(LEAVES + 1) as pool:
        sat = pool.submit(join)
        leaves = list(pool.map(leave, range(LEAVES)))
        cy = sat.result()
    return {"game": game, "leaves": leaves, "cy": cy.json()["token"]}


def test_a_leaver_racing_a_newcomer_never_unseats_her(start_apis: APIs) -> None:
    """Round after round, cy's `seat_taken` at seat 1 is never followed by a `seat_left` she
    did not send, her token still reads her seat, and exactly one of bob's DELETEs left."""
    bases = start_apis(2)
    for number in range(ROUNDS):
        raced = race_a_leave_and_a_join(bases, number)
        game = raced["game"]
        events = spectator_feed(bases[0], game)
        taken = [
            e["version"]
            for e in events
            if e["type"] == "seat_taken" and e["seat"] == 1 and e["name"] == "cy"
        ]
        assert len(taken) == 1, events
        after = [e for e in events if e["version"] > taken[0] and e["type"] == "seat_left"]
        assert after == [], f"round {number}: cy was unseated by bob's leave: {events}"
        ticket = requests.post(f"{bases[1]}/games/{game}/stream-tickets",
                               headers=bearer(raced["cy"]), timeout=10)  # fmt: skip
        assert ticket.status_code == 201, f"round {number}: cy's token: {ticket.text}"
        assert ticket.json()["seat"] == 1  # her token still holds her seat
        assert raced["leaves"].count(204) == 1, raced["leaves"]
        assert set(raced["leaves"]) <= {204, 401, 403}, raced["leaves"]


# Players racing over one table in two API processes (hypothesis): whatever they send, in
# whatever order the processes apply it, every seat is changed only by the one holding it at
# the version it changed. Checked from the stream: each append that changes a seat is folded
# onto the table before it, and the holder of that seat there must be the player (or seat
# token) whose request was answered with success, once per such answer.

MOVES = {"card_played", "chancellor_returned", "redraw_answered", "seat_forfeited"}
CHANGES = {"seat_left": "leave", "seat_taken_over": "abandon", "webhook_set": "webhook",
           "seat_taken": "join", **dict.fromkeys(MOVES, "command")}  # fmt: skip
SUCCESS = {"join": 201, "leave": 204, "abandon": 200, "webhook": 200, "command": 200}
ANSWERS = {200, 201, 204, 401, 403, 404, 409, 412, 422, 503}  # never a 500
HOOK = "http://127.0.0.1:9/turns"  # nobody listens: deliveries fail, later, in no one's way


SEAT_PATHS = {  # a seat's own requests: method, path after the seat, body
    "leave": ("DELETE", "", None),
    "abandon": ("POST", "/abandon", None),
    "webhook": ("PUT", "/webhook", {"url": HOOK}),
}


class Racer:
    """One person at the table: a player with devices (tokens), or a seat token alone."""

    def __init__(self, bases: list[str], name: str, player: bool) -> None:
        self.bases, self.name = bases, name
        self.devices: list[str] = [guest(bases[0], name)] if player else []  # its tokens
        self.player = player_id(bases[0], self.devices[0]) if player else None
        self.seat_tokens: list[str] = []  # the tokens its joins were answered (a seat token's)
        self.joined: int | None = None  # the seat its last join was given
        self.revoked: dict[str, float] = {}  # a device's token -> when its revocation answered
        self.sent: list[dict[str, Any]] = []

    def bearer(self, device: int) -> str | None:
        if self.devices:
            return self.devices[device % len(self.devices)]
        return self.seat_tokens[-1] if self.seat_tokens else None

    def note(self, kind: str, seat: Any, token: str | None, started: float, status: int) -> None:
        self.sent.append({"kind": kind, "seat": seat, "token": token, "started": started,
                          "status": status})  # fmt: skip

    def act(self, game: str, step: tuple[Any, ...], number: int) -> None:
        """Send the request(s) of `step` to the processes; note what was answered."""
        kind, seat, device, burst = step
        if seat == "own":  # the seat its last join was given (it may have lost it since)
            seat = self.joined
        base, token = self.bases[number % 2], self.bearer(device)
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        url, started = f"{base}/games/{game}", time.monotonic()
        if kind in SEAT_PATHS and seat is not None:  # `burst` times at once, as impatient
            method, path, body = SEAT_PATHS[kind]  # clients and several tabs send it

            def send(n: int) -> tuple[float, int]:
                at, where = time.monotonic(), self.bases[(number + n) % 2]
                return at, requests.request(
                    method,
                    f"{where}/games/{game}/seats/{seat}{path}",
                    json=body,
                    headers=headers,
                    timeout=30,
                ).status_code

            with ThreadPoolExecutor(burst) as pool:
                for at, status in pool.map(send, range(burst)):
                    self.note(kind, seat, token, at, status)
        elif kind == "join":  # with a burst: again and again until it sits, as a player
            body = {"name": f"{self.name}{number}", **({} if seat is None else {"seat": seat})}
            for _ in range(burst * 25):  # waiting for a seat to open does
                started = time.monotonic()
                answer = requests.post(f"{url}/seats", json=body, headers=headers, timeout=30)
                if answer.status_code == 201:
                    self.seat_tokens.append(answer.json()["token"])
                    seat = self.joined = answer.json()["seat"]
                self.note(kind, seat, token, started, answer.status_code)
                if answer.status_code != 422 or burst == 1:
                    break
        elif kind == "command":  # the first legal one of what this bearer sees (or giving up)
            view = requests.get(url, headers=headers, timeout=30)
            seen = view.json() if view.status_code == 200 else {}
            command = (seen.get("legal") or [{"type": "forfeit"}])[0]
            tag = {"If-Match": view.headers.get("ETag", '"1"'), "Idempotency-Key": f"k{number}"}
            answer = requests.post(f"{url}/commands", json=command, headers={**headers, **tag},
                                   timeout=30)  # fmt: skip
            you = (seen.get("view") or {}).get("you")
            self.note(kind, you, token, started, answer.status_code)
        elif kind == "transfer" and self.devices:
            answer = requests.post(f"{base}/players/me/transfer-codes", headers=headers,
                                   timeout=30)  # fmt: skip
            if answer.status_code == 201:
                other = self.bases[(number + 1) % 2]
                made = requests.post(f"{other}/players/tokens",
                                     json={"code": answer.json()["code"]}, timeout=30)  # fmt: skip
                assert made.status_code == 201, made.text
                self.devices.append(made.json()["token"])
            self.note(kind, None, token, started, answer.status_code)
        elif kind == "revoke" and self.devices:  # one of its devices (this one, if it has one)
            victim = self.devices[(device + 1) % len(self.devices)]
            mine = requests.get(f"{base}/players/me/devices", headers=bearer(victim), timeout=30)
            gone = [d["id"] for d in mine.json()["devices"] if d["current"]] if mine.ok else []
            answer = requests.delete(f"{base}/players/me/devices/{(gone or ['0' * 16])[0]}",
                                     headers=headers, timeout=30)  # fmt: skip
            if answer.status_code == 204:
                self.revoked[victim] = time.monotonic()
            self.note(kind, None, token, started, answer.status_code)


def player_id(base: str, token: str) -> str:
    found = requests.get(f"{base}/players/me", headers=bearer(token), timeout=10)
    assert found.status_code == 200, found.text
    return str(found.json()["id"])


def guest(base: str, name: str) -> str:
    made = requests.post(f"{base}/players", json={"name": name}, timeout=10)
    assert made.status_code == 201, made.text
    return str(made.json()["token"])


STEPS = st.tuples(
    st.sampled_from(["join", "join", "leave", "abandon", "webhook", "command", "command",
                     "transfer", "revoke"]),
    st.sampled_from([None, 0, 1, 2, "own", "own", "own"]),
    st.integers(0, 3),
    st.sampled_from([1, 1, 16]),
)  # fmt: skip
PROGRAMS = st.lists(st.lists(STEPS, min_size=2, max_size=8), min_size=4, max_size=4)


def holder_of(seat: Any, racers: list[Racer]) -> Racer | None:
    """The racer holding a table's seat: by its player, or by a seat token its join got."""
    if seat.bot is not None or seat.open:
        return None
    for racer in racers:
        if seat.player is not None and seat.player == racer.player:
            return racer
        if seat.player is None and seat.token_hash in {digest(t) for t in racer.seat_tokens}:
            return racer
    raise AssertionError(f"nobody we know holds {seat}")


Change = tuple[str, str, int]  # who, what, at which seat


def changes_by_holder(ctx: Context, game: str, racers: list[Racer]) -> Counter[Change]:
    """From the stream: (who, what, seat) of each append that changed a seat, `who` being the
    holder of that seat in the table just before it (the joiner, for a join)."""
    decoded = ctx.games.vocabulary.decoded
    found: Counter[Change] = Counter()
    table: Table | None = None
    for item in ctx.games.read(game):
        event = decoded(item)
        kind = CHANGES.get(event.type) if item.meta is not None else None
        if kind == "join":
            after = evolve(table, event)
            who = holder_of(after.seats[event.seat], racers)
            assert who is not None
            found[(who.name, kind, event.seat)] += 1
        elif kind is not None and table is not None:
            who = holder_of(table.seats[event.seat], racers)
            if who is not None:  # else a bot's move (no worker runs here: none is made)
                found[(who.name, kind, event.seat)] += 1
        table = evolve(table, event)
    return found


@pytest.fixture
def racing_apis(start_apis: APIs) -> list[str]:
    return start_apis(2, LOVELETTER_WEBHOOK_ALLOW_PRIVATE="1")


# The race the review found, every time: bob leaves seat 1 in a burst while cy waits for it.
LEAVER_AND_NEWCOMER = [
    [("transfer", None, 0, 1)],
    [("join", 1, 0, 1), ("leave", "own", 0, 16), ("leave", "own", 1, 16)],
    [("transfer", None, 0, 1), ("join", 1, 0, 8), ("webhook", "own", 0, 1)],
    [("join", 0, 0, 1)],
]


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@example(programs=LEAVER_AND_NEWCOMER, seats=3)
@given(programs=PROGRAMS, seats=st.sampled_from([2, 3]))
def test_no_seat_is_changed_but_by_its_holder(
    racing_apis: list[str], redis_url: str, namespace: str, programs: list[list[Any]], seats: int
) -> None:
    """Three players (with devices they add and revoke) and a seat token alone join, leave,
    abandon, set webhooks and play on one table at once, over two processes."""
    bases = racing_apis
    racers = [Racer(bases, name, player) for name, player in
              (("ann", True), ("bob", True), ("cy", True), ("dan", False))]  # fmt: skip
    body = {"edition": "2019", "seats": ["human"] * seats}
    created = requests.post(f"{bases[0]}/games", json=body, timeout=10)
    assert created.status_code == 201, created.text
    game = created.json()["game"]["id"]
    start = threading.Barrier(len(racers))

    def run(racer: Racer, program: list[Any]) -> None:
        start.wait(timeout=30)
        for number, step in enumerate(program):
            racer.act(game, step, number)

    with ThreadPoolExecutor(len(racers)) as pool:
        list(pool.map(run, racers, programs))
    answered: Counter[Change] = Counter()
    for racer in racers:
        for sent in racer.sent:
            assert sent["status"] in ANSWERS, sent
            if sent["kind"] == "command" and sent["status"] == 200:
                assert sent["seat"] is not None, sent
            revoked = racer.revoked.get(sent["token"])
            if revoked is not None and sent["started"] > revoked:
                assert sent["status"] == 401, sent  # a revoked token acts no more
            if sent["status"] == SUCCESS.get(sent["kind"]):
                answered[(racer.name, sent["kind"], sent["seat"])] += 1
    ctx = Context.from_settings(Settings.load({"REDIS_URL": redis_url,
                                               "LOVELETTER_NAMESPACE": namespace}))  # fmt: skip
    assert changes_by_holder(ctx, game, racers) == answered
