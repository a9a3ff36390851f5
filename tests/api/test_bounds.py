"""Every player endpoint is bounded, through real gunicorn processes on real Redis: inbox streams
hold a waiter's place and count as reads, "my games" counts as a read, guests per address per
hour, tables of thinking bots per address and per player, and a command budget per seat."""

from __future__ import annotations

import hashlib
import time
import uuid
from contextlib import ExitStack
from typing import Any

import requests

from events.connection import RedisClient
from tests.api.conftest import APIs
from tests.sse import EventStream

PROBLEM = "application/problem+json"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def guest(base: str, name: str, **headers: str) -> str:
    made = requests.post(f"{base}/players", json={"name": name}, headers=headers, timeout=10)
    assert made.status_code == 201, made.text
    return str(made.json()["token"])


def too_many(answer: requests.Response, slug: str) -> dict[str, Any]:
    streaming = answer.headers.get("Content-Type", "").startswith("text/event-stream")
    assert answer.status_code == 429, "a stream opened" if streaming else answer.text
    assert answer.headers["Content-Type"] == PROBLEM and int(answer.headers["Retry-After"]) >= 1
    body: dict[str, Any] = answer.json()
    assert body["type"].endswith(f"/{slug}"), body
    return body


def two_players_game(base: str, host: str, guest_token: str, **options: Any) -> dict[str, Any]:
    """A started 2019 game the `host` player created and the other joined; the create answer."""
    body = {"edition": "2019", "seats": ["human", "human"], **options}
    created = requests.post(f"{base}/games", json=body, headers=bearer(host), timeout=10)
    assert created.status_code == 201, created.text
    game = created.json()["game"]["id"]
    joined = requests.post(f"{base}/games/{game}/seats", json={"name": "bob"},
                           headers=bearer(guest_token), timeout=10)  # fmt: skip
    assert joined.status_code == 201, joined.text
    return dict(created.json())


def test_inbox_streams_hold_a_waiters_place_like_game_streams(start_apis: APIs) -> None:
    """Finding 4: with 5 waiters per address, 5 streams open (inboxes and a game's, over two
    API processes) and the sixth of either kind is 429 `too-many-waiters`; closing one frees
    its place."""
    first, second = start_apis(
        2, LOVELETTER_WAITERS_PER_ADDRESS="5", LOVELETTER_STREAM_HEARTBEAT_SECONDS="0.5"
    )
    ann, bob = guest(first, "ann"), guest(first, "bob")
    game = two_players_game(first, ann, bob)["game"]["id"]
    with ExitStack() as opened:
        streams = [
            opened.enter_context(EventStream(base, "/players/me/stream", bearer(token)))
            for base, token in ((first, ann), (second, ann), (first, bob), (second, bob))
        ]
        streams.append(opened.enter_context(EventStream(first, f"/games/{game}/stream")))
        assert [stream.status for stream in streams] == [200] * 5
        for base, path in ((first, "/players/me/stream"), (second, "/players/me/stream"),
                           (second, f"/games/{game}/stream")):  # fmt: skip
            with requests.get(base + path, headers=bearer(ann), timeout=10, stream=True) as refused:
                too_many(refused, "too-many-waiters")
        streams[0].close()
        deadline = time.monotonic() + 15  # the hang-up is seen at the next heartbeat's write
        while True:
            again = requests.get(first + "/players/me/stream", headers=bearer(ann), timeout=10,
                                 stream=True)  # fmt: skip
            again.close()
            if again.status_code == 200:
                break
            assert time.monotonic() < deadline, "the closed inbox stream's place was not freed"
            time.sleep(0.2)


def test_inbox_streams_and_my_games_count_as_reads(start_apis: APIs) -> None:
    """Findings 4 and 5: with reads limited to 30 a minute, 40 calls of my games pass 30 and are
    refused after; the inbox stream is refused too once the address's reads are spent."""
    (base,) = start_apis(1, LOVELETTER_RATE_LIMIT_READS="30/minute")
    ann = guest(base, "ann")
    answers = [
        requests.get(f"{base}/players/me/games", headers=bearer(ann), timeout=10).status_code
        for _ in range(40)
    ]
    assert answers == [200] * 30 + [429] * 10, answers
    with requests.get(f"{base}/players/me/stream", headers=bearer(ann), timeout=10,
                      stream=True) as refused:  # fmt: skip
        too_many(refused, "rate-limited")
    other = EventStream(base, "/players/me/stream", bearer(ann))  # still refused: no stream
    assert other.status == 429
    other.close()


def test_guests_per_address_per_hour(
    start_apis: APIs, redis_client: RedisClient, namespace: str
) -> None:
    """Finding 8: three guests an hour from an address; the fourth is 429 and nothing of it is
    written; another address (behind a trusted proxy) still makes guests."""
    (base,) = start_apis(1, LOVELETTER_GUESTS_PER_HOUR="3", LOVELETTER_TRUSTED_PROXIES="1")
    here = {"X-Forwarded-For": "203.0.113.7"}
    for name in ("ann", "bob", "cy"):
        guest(base, name, **here)
    players = set(redis_client.scan_iter(match=f"{namespace}:*player*"))
    refused = requests.post(f"{base}/players", json={"name": "dee"}, headers=here, timeout=10)
    body = too_many(refused, "rate-limited")
    assert "3 guest players per 3600 s per address" in body["detail"]
    assert set(redis_client.scan_iter(match=f"{namespace}:*player*")) == players
    guest(base, "dee", **{"X-Forwarded-For": "198.51.100.9"})


def test_tables_of_thinking_bots_per_address_and_per_player(start_apis: APIs) -> None:
    """Finding 10: two tables with search or hard bots an hour per address, and per player
    from any address; heuristic tables are not counted; nothing is opened when refused."""
    (base,) = start_apis(1, LOVELETTER_BOT_TABLES="2/hour", LOVELETTER_TRUSTED_PROXIES="1")
    first, second, third = ({"X-Forwarded-For": f"203.0.113.{n}"} for n in (1, 2, 3))

    def open_table(seats: list[str], headers: dict[str, str], **options: Any) -> Any:
        body = {"edition": "classic", "seats": seats, **options}
        return requests.post(f"{base}/games", json=body, headers=headers, timeout=10)

    def lobby() -> int:
        return len(requests.get(f"{base}/games?limit=100", timeout=10).json()["games"])

    assert open_table(["search", "search"], first).status_code == 201
    assert open_table(["hard", "hard", "hard"], first).status_code == 201
    assert open_table(["heuristic", "random"], first).status_code == 201
    before = lobby()
    refused = open_table(["search", "heuristic"], first)
    assert "tables with search or hard bots" in too_many(refused, "rate-limited")["detail"]
    too_many(open_table(["human", "medium"], first, takeover_bot="hard"), "rate-limited")
    assert lobby() == before
    ann = guest(base, "ann", **second)
    assert open_table(["human", "search"], {**second, **bearer(ann)}).status_code == 201
    assert open_table(["human", "hard"], {**second, **bearer(ann)}).status_code == 201
    refused = open_table(["human", "hard"], {**third, **bearer(ann)})  # ann's, from elsewhere
    assert too_many(refused, "rate-limited")["scope"] == "player"
    queued = requests.post(f"{base}/queue", json={"edition": "classic", "seats": [2],
                           "bots_after": 5, "bot": "hard"}, headers={**third, **bearer(ann)},
                           timeout=10)  # fmt: skip
    too_many(queued, "rate-limited")
    assert open_table(["search", "search"], third).status_code == 201  # another address
    assert lobby() == before + 3


def test_the_command_budget_is_the_seats_whichever_token_acts(start_apis: APIs) -> None:
    """A player's commands in one game don't spend its budget in another; a seat's own token
    and its player's share that seat's budget (3 a minute here)."""
    (base,) = start_apis(1, LOVELETTER_RATE_LIMIT_SEAT="3/minute")
    ann, bob = guest(base, "ann"), guest(base, "bob")
    first = two_players_game(base, ann, bob, first_player=1)
    second = two_players_game(base, ann, bob, first_player=1)

    def send(created: dict[str, Any], token: str) -> requests.Response:
        game = created["game"]["id"]
        version = requests.get(f"{base}/games/{game}", timeout=10).headers["ETag"]
        headers = {**bearer(token), "If-Match": version, "Idempotency-Key": uuid.uuid4().hex}
        command = {"type": "play", "card": "handmaid"}
        return requests.post(f"{base}/games/{game}/commands", json=command, headers=headers,
                             timeout=10)  # fmt: skip

    for _ in range(3):  # not ann's turn: refused by the rules, counted all the same
        assert send(first, ann).status_code == 409
    too_many(send(first, ann), "rate-limited")
    too_many(send(first, first["token"]), "rate-limited")  # the seat's own token: same seat
    assert send(second, ann).status_code == 409  # another game, another seat's budget


def test_a_guest_never_seated_is_forgotten_and_a_seated_one_kept(
    start_apis: APIs, redis_client: RedisClient, namespace: str
) -> None:
    """Finding 8: a guest who never takes a seat (at a table, or matched by quick play) is
    forgotten, record and tokens, after LOVELETTER_UNSEATED_GUEST_SECONDS (2 s here); one who
    took a seat is kept, with every token it has (one redeemed from a transfer code too)."""
    (base,) = start_apis(1, LOVELETTER_UNSEATED_GUEST_SECONDS="2")
    idle, idle_id = (lambda made: (made["token"], made["player"]["id"]))(
        requests.post(f"{base}/players", json={"name": "idle"}, timeout=10).json()
    )
    ann, bob = guest(base, "ann"), guest(base, "bob")
    code = requests.post(f"{base}/players/me/transfer-codes", headers=bearer(ann), timeout=10)
    phone = requests.post(f"{base}/players/tokens", json={"code": code.json()["code"]}, timeout=10)
    assert phone.status_code == 201, phone.text
    two_players_game(base, ann, bob)  # ann and bob take seats: kept
    deadline = time.monotonic() + 15
    while requests.get(f"{base}/players/me", headers=bearer(idle), timeout=10).status_code != 401:
        assert time.monotonic() < deadline, "the guest never seated was not forgotten"
        time.sleep(0.2)
    left = [
        k for k in redis_client.scan_iter(match=f"{namespace}:*{idle_id}*") if b":here:" not in k
    ]
    assert left == []  # (its presence, written by the last request, lasts a minute on its own)
    assert not redis_client.exists(
        f"{namespace}:player-token:{hashlib.sha256(idle.encode()).hexdigest()}"
    )
    time.sleep(2.5)  # past the time an unseated guest lives
    for token in (ann, bob, phone.json()["token"]):
        assert requests.get(f"{base}/players/me", headers=bearer(token), timeout=10).ok
    assert all(
        redis_client.ttl(key) == -1 for key in redis_client.scan_iter(match=f"{namespace}:*token*")
    )
