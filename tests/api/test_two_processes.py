"""Through real API processes (gunicorn), as a load balancer would spread a client's calls: an
idempotency key belongs to its caller and is bound to its request; a version other than the
stream's is always a 412, whichever process answers; rate limits hold under concurrency."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests

from service.ratelimit import ALLOWANCE_SHARE
from tests.api.conftest import APIs
from tests.api.players import two_humans

pytestmark = [pytest.mark.redis, pytest.mark.slow]


class Seat:
    """One seat of a game, holding its token, calling whichever API it is given."""

    def __init__(self, game: str, token: str) -> None:
        self.game, self.token = game, token

    def look(self, base: str) -> requests.Response:
        """The seat's view, from `base`."""
        return requests.get(f"{base}/games/{self.game}", headers=self.auth(), timeout=10)

    def send(self, base: str, command: dict[str, Any], version: int, key: str) -> requests.Response:
        """POST a command decided on `version` with an idempotency key, to `base`."""
        headers = {**self.auth(), "If-Match": f'"{version}"', "Idempotency-Key": key}
        return requests.post(
            f"{base}/games/{self.game}/commands", json=command, headers=headers, timeout=10
        )

    def auth(self) -> dict[str, str]:
        """This seat's Authorization header."""
        return {"Authorization": f"Bearer {self.token}"}


def two_seats(base: str) -> list[Seat]:
    """A started 2-player classic game between two humans; its seats in seat order."""
    game, tokens = two_humans(base, "classic")
    return [Seat(game, tokens[0]), Seat(game, tokens[1])]


def to_act(seats: list[Seat], base: str) -> tuple[Seat, Seat, dict[str, Any], int]:
    """The seat whose turn it is, the other one, its first legal command and the version."""
    for seat in seats:
        view = seat.look(base)
        if view.json()["legal"]:
            other = seats[1 - seats.index(seat)]
            return seat, other, view.json()["legal"][0], int(view.headers["ETag"].strip('"'))
    raise AssertionError("nobody may act")


def other_to_act(seats: list[Seat], base: str, seat: Seat) -> tuple[Seat, dict[str, Any], int]:
    """Play on (first legal commands, fresh keys) until a seat other than `seat` must act: a
    round that ends may deal its winner the first turn again. That seat, its command, the
    version."""
    for number in range(50):
        actor, _, command, version = to_act(seats, base)
        if actor is not seat:
            return actor, command, version
        assert actor.send(base, command, version, f"on-{number}").status_code == 200
    raise AssertionError("the turn never passed")


def test_the_same_key_from_two_seats_is_two_commands(two_apis: tuple[str, str]) -> None:
    """Both seats follow the README and send `move-1`: each command is applied."""
    first_api, second_api = two_apis
    seats = two_seats(first_api)
    mover, _, command, version = to_act(seats, first_api)
    played = mover.send(first_api, command, version, "move-1")
    assert played.status_code == 200, played.text
    other, reply, after = other_to_act(seats, second_api, mover)
    answered = other.send(second_api, reply, after, "move-1")
    assert answered.status_code == 200, answered.text
    assert int(answered.headers["ETag"].strip('"')) > after  # appended, not seat 1's old answer


def test_a_key_sent_again_with_another_command_is_refused(two_apis: tuple[str, str]) -> None:
    """The same seat reusing its key for another command: 422, and nothing is appended."""
    first_api, second_api = two_apis
    seats = two_seats(first_api)
    mover, _, command, version = to_act(seats, first_api)
    assert mover.send(first_api, command, version, "mine").status_code == 200
    head = int(mover.look(second_api).headers["ETag"].strip('"'))
    for base in two_apis:  # at the old version and at the current one, on either process
        for at in (version, head):
            again = mover.send(base, {"type": "forfeit"}, at, "mine")
            assert again.status_code == 422, again.text
            assert again.json()["type"].endswith("/idempotency-key-reused")
    assert int(mover.look(first_api).headers["ETag"].strip('"')) == head


def test_the_same_request_again_gets_the_first_answer(two_apis: tuple[str, str]) -> None:
    """A retry (same key, same command, same If-Match) on the other process, after the game
    moved on: the first status, body and ETag again."""
    first_api, second_api = two_apis
    seats = two_seats(first_api)
    mover, _, command, version = to_act(seats, first_api)
    first = mover.send(first_api, command, version, "retry-me")
    assert first.status_code == 200, first.text
    other, reply, after = other_to_act(seats, second_api, mover)
    assert other.send(second_api, reply, after, "reply").status_code == 200
    again = mover.send(second_api, command, version, "retry-me")
    assert (again.status_code, again.headers["ETag"]) == (first.status_code, first.headers["ETag"])
    assert again.json() == first.json()


def test_a_stale_if_match_is_412_on_a_process_that_cached_it(two_apis: tuple[str, str]) -> None:
    """The second process caches the game at v; the first applies a move; the seat now to act
    sends to the second process, decided on v: 412 with the current version, never 409."""
    first_api, second_api = two_apis
    seats = two_seats(first_api)
    mover, _, command, version = to_act(seats, second_api)  # the second process caches v
    assert mover.send(first_api, command, version, "a").status_code == 200
    other, reply, current = other_to_act(seats, first_api, mover)
    stale = other.send(second_api, reply, version, "b")  # not its turn on the cached head
    assert stale.status_code == 412, stale.text
    assert stale.json()["current_version"] == current
    assert int(other.look(second_api).headers["ETag"].strip('"')) == current  # nothing appended


def test_sixty_concurrent_clients_of_one_address_get_their_limit(start_apis: APIs) -> None:
    """720 creates from 60 concurrent clients of one address, spread over two processes, with
    600 a minute allowed: at most 600 are created, and no more than (2 - 1) sixteenths of the
    limit are refused early."""
    bases = start_apis(2, LOVELETTER_RATE_LIMIT_ADDRESS="600/minute")
    body = {"edition": "2019", "seats": ["human", "human"]}
    barrier = threading.Barrier(60)

    def client(number: int) -> list[int]:
        session = requests.Session()
        barrier.wait()
        base = bases[number % 2]
        return [session.post(f"{base}/games", json=body, timeout=30).status_code for _ in range(12)]

    with ThreadPoolExecutor(60) as pool:
        statuses = [status for answers in pool.map(client, range(60)) for status in answers]
    assert set(statuses) <= {201, 429}
    assert 600 - 600 / ALLOWANCE_SHARE <= statuses.count(201) <= 600


def test_the_lobby_listing_is_rate_limited(start_apis: APIs) -> None:
    """`GET /games` counts against the address's limit like every other lobby call."""
    (base,) = start_apis(1, LOVELETTER_RATE_LIMIT_ADDRESS="5/minute")
    statuses = [requests.get(f"{base}/games", timeout=10).status_code for _ in range(7)]
    assert statuses == [200] * 5 + [429] * 2
