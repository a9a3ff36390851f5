"""Chat reaches an away player's inbox once per game per away spell, and never pushes a notice
out of it, through two real gunicorn processes: 60 guests posting 5 lines each at a table with
spectator chat leave the away player's `game_started` where it was and one `chat` entry; once
the player is back (seen by a process) and away again, the next line is told again."""

from __future__ import annotations

from typing import Any

import requests

from events.connection import RedisClient
from events.players import PlayerStore
from tests.api.conftest import APIs


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def guest(base: str, name: str) -> tuple[str, str]:
    made = requests.post(f"{base}/players", json={"name": name}, timeout=10)
    assert made.status_code == 201, made.text
    return str(made.json()["token"]), str(made.json()["player"]["id"])


def test_chat_is_told_once_per_away_spell_and_pushes_no_notice_out(
    start_apis: APIs, redis_client: RedisClient, namespace: str
) -> None:
    first, second = start_apis(2, LOVELETTER_CHAT_RATE="5/10s")
    (ann, _), (bob, bob_id) = guest(first, "ann"), guest(first, "bob")
    body = {"edition": "classic", "seats": ["human", "human"], "spectator_chat": True}
    game = requests.post(f"{first}/games", json=body, headers=bearer(ann), timeout=10).json()
    game_id = game["game"]["id"]
    joined = requests.post(f"{first}/games/{game_id}/seats", json={"name": "bob"},
                           headers=bearer(bob), timeout=10)  # fmt: skip
    assert joined.status_code == 201, joined.text
    players = PlayerStore(redis_client, namespace=namespace)

    def kinds() -> list[str]:
        return [entry.data["type"] for entry in players.inbox(bob_id, count=1000)]

    def away() -> None:  # a minute went by without bob
        redis_client.delete(f"{namespace}:here:{bob_id}")

    told = kinds()
    assert "game_started" in told
    away()
    for n in range(60):
        token, _ = guest(first, f"guest {n}")
        for line in range(5):
            said = requests.post(f"{first}/games/{game_id}/chat", json={"text": f"hi {line}"},
                                 headers=bearer(token), timeout=10)  # fmt: skip
            assert said.status_code == 201, said.text
    chats = requests.get(f"{first}/games/{game_id}/chat?limit=500", headers=bearer(ann),
                         timeout=10).json()["messages"]  # fmt: skip
    assert len(chats) == 300
    after: list[Any] = kinds()
    assert after[: len(told)] == told  # every notice still there, in its place
    assert after[len(told) :] == ["chat"]  # one chat entry for the whole spell
    me = requests.get(f"{second}/players/me", headers=bearer(bob), timeout=10)
    assert me.status_code == 200  # bob is back: a process that had not seen him sees him
    away()
    token, _ = guest(first, "late")
    said = requests.post(f"{first}/games/{game_id}/chat", json={"preset": "hello"},
                         headers=bearer(token), timeout=10)  # fmt: skip
    assert said.status_code == 201
    assert kinds()[len(told) :] == ["chat", "chat"]  # a new spell: told again, once
