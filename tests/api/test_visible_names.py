"""Names and chat lines are seen as they are written, through real gunicorn: a name of only the
Hangul filler (U+3164), `ann` + U+3164 beside `ann`, and a line of 199 combining accents are
refused as problems, with nothing written; accented names, Vietnamese and emoji still pass."""

from __future__ import annotations

from typing import Any

import pytest
import requests

from events.connection import RedisClient
from tests.api.conftest import APIs

PROBLEM = "application/problem+json"
FILLER = "\u3164"  # HANGUL FILLER: a letter (Lo) that draws nothing
ACCENTS = "e" + "\u0301" * 199  # one letter under 199 combining acute accents


def refused(answer: requests.Response, *words: str) -> dict[str, Any]:
    """A 422 validation problem whose detail names what was wrong."""
    assert answer.status_code == 422, answer.text
    assert answer.headers["Content-Type"] == PROBLEM
    body: dict[str, Any] = answer.json()
    assert body["type"].endswith("/validation-error")
    text = str(body["errors"])
    assert all(word in text for word in words), text
    return body


def keys(redis_client: RedisClient, namespace: str) -> set[bytes]:
    return set(redis_client.scan_iter(match=f"{namespace}:*"))  # type: ignore[arg-type]


@pytest.fixture
def api(start_apis: APIs) -> str:
    (base,) = start_apis(1)
    return base


def test_invisible_and_filler_names_are_refused_everywhere_a_name_is_given(
    api: str, redis_client: RedisClient, namespace: str
) -> None:
    ann = requests.post(f"{api}/players", json={"name": "ann"}, timeout=10)
    assert ann.status_code == 201, ann.text
    token = ann.json()["token"]
    body = {"edition": "classic", "seats": ["human", "human", "human"], "name": "ann"}
    created = requests.post(f"{api}/games", json=body, timeout=10)
    assert created.status_code == 201, created.text
    game = created.json()["game"]["id"]
    before = keys(redis_client, namespace)
    for name in (FILLER, "ann" + FILLER, "\u115f", "a\u200bnn", "ann\u034f", "\u0301ann",
                 "a" + "\u0300\u0301\u0302\u0303\u0304", "a\u0301\u0301"):  # fmt: skip
        refused(requests.post(f"{api}/players", json={"name": name}, timeout=10), "name")
        refused(requests.post(f"{api}/games", json={**body, "name": name}, timeout=10), "name")
        joined = requests.post(f"{api}/games/{game}/seats", json={"name": name}, timeout=10)
        refused(joined, "name")
    u3164 = requests.post(f"{api}/players", json={"name": "ann" + FILLER}, timeout=10)
    assert "U+3164" in str(u3164.json()["errors"])
    assert keys(redis_client, namespace) - before == set()  # nothing written, no player made
    seats = requests.get(f"{api}/games/{game}", timeout=10).json()["game"]["seats"]
    assert [seat["name"] for seat in seats] == ["ann", None, None]
    for name in ("Nguyễn Thị Ánh", "Zoë", "さくら", "नमस्ते", "a\u0301\u0302"):
        made = requests.post(f"{api}/players", json={"name": name}, timeout=10)
        assert made.status_code == 201, (name, made.text)
    me = requests.get(f"{api}/players/me", headers={"Authorization": f"Bearer {token}"},
                      timeout=10)  # fmt: skip
    assert me.json()["name"] == "ann"


def test_invisible_lines_and_piles_of_accents_are_refused_in_chat(api: str) -> None:
    body = {"edition": "classic", "seats": ["human", "human"], "name": "ann"}
    created = requests.post(f"{api}/games", json=body, timeout=10).json()
    game, token = created["game"]["id"], created["token"]
    joined = requests.post(f"{api}/games/{game}/seats", json={"name": "bob"}, timeout=10)
    assert joined.status_code == 201
    auth = {"Authorization": f"Bearer {token}"}

    def post(text: str) -> requests.Response:
        return requests.post(f"{api}/games/{game}/chat", json={"text": text}, headers=auth,
                             timeout=10)  # fmt: skip

    refused(post(ACCENTS), "accents")
    for text in (FILLER, "hi " + FILLER, "\u2800", "ok\u2800", "a\ufe0fb"[1:], "\u034f!"):
        refused(post(text), "text")
    chat = requests.get(f"{api}/games/{game}/chat", headers=auth, timeout=10).json()
    assert chat["messages"] == []
    for text in ("❤️ gg", "1️⃣", "Chúc mừng!", "よろしく", "e\u0301\u0301"[:2]):
        assert post(text).status_code == 201, text
