"""Two API processes (real gunicorn) racing commands to one game, as clients behind a load
balancer do: the seat to act sends its command to both processes with one key, and another
command with another key, and one decided on a stale version, while the other seat sends one
too; exactly one is applied per version, every other answer is the first answer again or the
documented 409/412, and afterwards the stream, the feed and the views agree."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pytest
import requests

from events.audit import export_lines, verify_lines
from events.connection import RedisClient
from events.store import EventStore
from tests.api.players import two_humans
from tests.sse import EventStream

pytestmark = [pytest.mark.redis, pytest.mark.slow]

RACES = 15


@dataclass(frozen=True)
class Racer:
    """One request of a race: who sends what, to which process, decided on which version."""

    role: str
    token: str
    base: str
    command: dict[str, Any]
    version: int
    key: str


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def look(base: str, game: str, token: str) -> requests.Response:
    answer = requests.get(f"{base}/games/{game}", headers=auth(token), timeout=10)
    assert answer.status_code == 200, answer.text
    return answer


def racers(
    race: int, apis: tuple[str, str], game: str, tokens: dict[int, str]
) -> list[Racer] | None:
    """The race's requests, from the view of the seat to act (None: the game is over)."""
    first, second = apis
    views = {seat: look(first, game, token).json() for seat, token in tokens.items()}
    if views[0]["game"]["status"] != "playing":
        return None
    actor = next(seat for seat, view in views.items() if view["legal"])
    version = views[actor]["game"]["version"]
    legal = views[actor]["legal"]
    mine, idle = tokens[actor], tokens[1 - actor]
    return [
        Racer("same key", mine, first, legal[0], version, f"r{race}-same"),
        Racer("same key", mine, second, legal[0], version, f"r{race}-same"),
        Racer("another key", mine, second, legal[-1], version, f"r{race}-other"),
        Racer("another key", mine, first, legal[len(legal) // 2], version, f"r{race}-third"),
        Racer("stale If-Match", mine, second, legal[0], version - 1, f"r{race}-stale"),
        Racer("the other seat", idle, first, legal[0], version, f"r{race}-idle"),
    ]


def race(game: str, entrants: list[Racer]) -> list[requests.Response]:
    """Send every request at once (a barrier), each on its own connection."""
    barrier = threading.Barrier(len(entrants))

    def send(racer: Racer) -> requests.Response:
        headers = {
            **auth(racer.token),
            "If-Match": f'"{racer.version}"',
            "Idempotency-Key": racer.key,
        }
        barrier.wait(timeout=10)
        return requests.post(
            f"{racer.base}/games/{game}/commands", json=racer.command, headers=headers, timeout=10
        )

    with ThreadPoolExecutor(len(entrants)) as pool:
        return list(pool.map(send, entrants))


def test_commands_raced_through_two_processes_apply_once_per_version(
    two_apis: tuple[str, str], redis_client: RedisClient, namespace: str
) -> None:
    first, second = two_apis
    game, tokens = two_humans(first, "2019")
    store = EventStore(redis_client, namespace=namespace)
    outcomes: dict[tuple[str, int], int] = {}
    with EventStream(first, f"/games/{game}/stream?after=0", auth(tokens[0])) as stream:
        for number in range(RACES):
            entrants = racers(number, two_apis, game, tokens)
            if entrants is None:
                break
            version = entrants[0].version
            answers = race(game, entrants)
            head = store.version(game)
            appended = [item for item in store.read(game, version + 1) if item.meta]
            assert len(appended) == 1, [item.meta for item in appended]  # one command applied
            won = appended[0].meta
            assert won is not None
            for racer, answer in zip(entrants, answers, strict=True):
                outcomes[racer.role, answer.status_code] = (
                    outcomes.get((racer.role, answer.status_code), 0) + 1
                )
                if answer.status_code == 200:  # the applied one, or its first answer again
                    assert racer.key == won["key"], (racer, answer.text)
                    assert answer.headers["ETag"] == f'"{head}"'
                    body, now = answer.json(), look(racer.base, game, racer.token).json()
                    assert (body["view"], body["legal"]) == (now["view"], now["legal"])
                elif answer.status_code == 412:  # the version it was decided on had passed
                    moved = {version, head} if racer.version < version else {head}
                    assert answer.json()["current_version"] in moved, (racer, answer.text)
                else:
                    assert answer.status_code == 409, (racer, answer.status_code, answer.text)
                    assert answer.json()["type"].endswith("/not-your-turn"), answer.text
            same = [a for r, a in zip(entrants, answers, strict=True) if r.role == "same key"]
            assert same[0].status_code == same[1].status_code, [a.text for a in same]
        head = store.version(game)
        seen = stream.events(head)
    assert number >= 5, "the game ended before the races had begun"
    assert {status for role, status in outcomes if role == "stale If-Match"} == {412}
    assert outcomes.get(("same key", 200), 0) >= 2  # a race that one key won on both processes
    feed = requests.get(
        f"{second}/games/{game}/events?after=0", headers=auth(tokens[0]), timeout=10
    ).json()
    assert [message.data for message in seen] == feed["events"]
    assert [message.id for message in seen] == list(range(1, head + 1))
    for token in tokens.values():
        views = [look(base, game, token) for base in two_apis]
        assert [view.headers["ETag"] for view in views] == [f'"{head}"'] * 2
        assert views[0].json() == views[1].json()
    report = verify_lines(export_lines(store, game))
    assert report.ok, report.divergence  # nothing applied twice, nothing out of the rules
