"""Webhooks through real gunicorn, real RQ workers and real Redis: a receiver that trickles an
endless answer is cut off at the delivery's deadline and never delays a bot, and addresses that
the IANA registries keep from the Internet are refused, however written."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.api.conftest import APIs, api_env
from tests.integration.workers import WorkerProcess

pytestmark = [pytest.mark.redis, pytest.mark.slow]


class Trickler:
    """A loopback HTTP receiver that answers 200 with a body it never finishes: a byte every
    0.2 s. It notes when each connection opened and when its client went away."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.connections: list[dict[str, float]] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self._trickle, args=(client,), daemon=True).start()

    def _trickle(self, client: socket.socket) -> None:
        seen = {"opened": time.monotonic()}
        self.connections.append(seen)
        try:
            client.recv(65536)
            client.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000000\r\n\r\n")
            while True:
                client.sendall(b"x")
                time.sleep(0.2)
        except OSError:
            seen["closed"] = time.monotonic()
        finally:
            client.close()

    def close(self) -> None:
        self.server.close()


@pytest.fixture
def trickler() -> Iterator[Trickler]:
    server = Trickler()
    yield server
    server.close()


def legal_seat(base: str, game: str, tokens: dict[int, str]) -> tuple[int, dict[str, Any]]:
    """The seat that must act and its first legal command."""
    for seat, token in tokens.items():
        view = requests.get(f"{base}/games/{game}", headers=auth(token), timeout=10).json()
        if view["legal"]:
            return seat, view["legal"][0]
    raise AssertionError("nobody may act")


def human_plays_until_the_bot_must(base: str, game: str, token: str) -> int:
    """The human sends its first legal command until its answer (the seat's view at the version
    written) leaves it nothing to do: a Chancellor's play leaves the human a second choice. The
    version the bot must answer."""
    view = requests.get(f"{base}/games/{game}", headers=auth(token), timeout=10)
    seen, version = view.json(), view.headers["ETag"]
    for move in range(10):
        if not seen["legal"]:
            return int(version.strip('"'))
        sent = requests.post(
            f"{base}/games/{game}/commands",
            json=seen["legal"][0],
            headers={**auth(token), "If-Match": version, "Idempotency-Key": f"m{move}"},
            timeout=10,
        )
        assert sent.status_code == 200, sent.text
        seen, version = sent.json(), sent.headers["ETag"]
    raise AssertionError("the human never had to wait for the bot")


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_trickling_receiver_is_cut_off_and_never_delays_a_bot(
    start_apis: APIs, redis_url: str, namespace: str, trickler: Trickler
) -> None:
    """Finding 3: seat 0's receiver trickles an endless answer. The delivery ends at its
    deadline (2 s), and meanwhile a bot at another table answers its human at once: the bots'
    queue is not the webhooks'."""
    settings = {
        "LOVELETTER_WEBHOOK_ALLOW_PRIVATE": "1",
        "LOVELETTER_WEBHOOK_TIMEOUT": "2",
        "LOVELETTER_WEBHOOK_RETRIES": "600",
        "LOVELETTER_BOT_BUDGET_MS": "20",
    }
    (base,) = start_apis(1, **settings)
    env = api_env(redis_url, namespace, **settings)
    workers = WorkerProcess(redis_url, namespace, env, f"{namespace}-webhooks")
    try:
        created = requests.post(
            f"{base}/games",
            json={"edition": "2019", "seats": ["human", "human"], "name": "ann"},
            timeout=10,
        ).json()
        game = created["game"]["id"]
        joined = requests.post(f"{base}/games/{game}/seats", json={"name": "bob"}, timeout=10)
        tokens = {created["seat"]: created["token"], joined.json()["seat"]: joined.json()["token"]}
        seat, _ = legal_seat(base, game, tokens)
        hook = requests.put(
            f"{base}/games/{game}/seats/{seat}/webhook",
            json={"url": f"http://127.0.0.1:{trickler.port}/turn"},
            headers=auth(tokens[seat]),
            timeout=10,
        )
        assert hook.status_code == 200, hook.text
        deadline = time.monotonic() + 30
        while not trickler.connections:  # the delivery started
            assert time.monotonic() < deadline, "no delivery came"
            time.sleep(0.05)

        bot = requests.post(
            f"{base}/games",
            json={"edition": "2019", "seats": ["human", "heuristic"], "name": "cy",
                  "first_player": 0},
            timeout=10,
        ).json()  # fmt: skip
        bot_game, cy = bot["game"]["id"], bot["token"]
        after = human_plays_until_the_bot_must(base, bot_game, cy)
        started = time.monotonic()
        answer = requests.get(
            f"{base}/games/{bot_game}/events?after={after}&wait=20", headers=auth(cy), timeout=30
        ).json()
        assert answer["events"], "the bot did not answer"
        assert time.monotonic() - started < 10

        first = trickler.connections[0]
        while "closed" not in first:
            assert time.monotonic() - first["opened"] < 10, "the delivery was never cut off"
            time.sleep(0.05)
        assert first["closed"] - first["opened"] < 2 + 5  # cut at its 2 s deadline
    finally:
        workers.stop()


@pytest.mark.parametrize(
    "host",
    [
        "[64:ff9b:1::a00:1]",  # local-use NAT64 prefix
        "[64:ff9b:1::808:808]",
        "[::10.0.0.1]",  # IPv4-compatible
        "[::127.0.0.1]",
        "[3fff::1]",  # documentation (2024)
        "192.88.99.1",  # deprecated 6to4 relay anycast
    ],
)
def test_webhook_addresses_of_special_purpose_blocks_are_refused(
    start_apis: APIs, host: str
) -> None:
    """Finding 8: these were accepted; each is refused (422) and nothing is appended."""
    (base,) = start_apis(1)
    created = requests.post(
        f"{base}/games",
        json={"edition": "2019", "seats": ["human", "human"], "name": "ann"},
        timeout=10,
    ).json()
    game, token = created["game"]["id"], created["token"]
    version = requests.get(f"{base}/games/{game}", timeout=10).headers["ETag"]
    answer = requests.put(
        f"{base}/games/{game}/seats/0/webhook",
        json={"url": f"http://{host}/turn"},
        headers=auth(token),
        timeout=10,
    )
    assert answer.status_code == 422, answer.text
    assert answer.json()["type"].endswith("/webhook-url-refused")
    assert requests.get(f"{base}/games/{game}", timeout=10).headers["ETag"] == version
