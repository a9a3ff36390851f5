"""Leaderboards and players' records through two real API processes (gunicorn): ranked games
played to their end through one process, read from the other, agree with each other and with
what `loveletter rebuild` writes again from the games' streams."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any
from uuid import uuid4

import requests

from tests.api.conftest import APIs, api_env

LOVELETTER = str(Path(sys.executable).with_name("loveletter"))
GAMES = [("ann", "bob"), ("bob", "cy"), ("cy", "ann"), ("ann", "bob", "cy")]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def play_ranked_game(base: str, tokens: list[str], rng: random.Random) -> None:
    """A ranked 2019 game of these players, each seat sending one of its legal commands until
    the game is over (nobody leaves)."""
    body = {"edition": "2019", "seats": ["human"] * len(tokens), "ranked": True}
    created = requests.post(f"{base}/games", json=body, headers=bearer(tokens[0]), timeout=10)
    assert created.status_code == 201, created.text
    game = created.json()["game"]["id"]
    for n, token in enumerate(tokens[1:], start=1):
        joined = requests.post(f"{base}/games/{game}/seats", json={"name": f"p{n}"},
                               headers=bearer(token), timeout=10)  # fmt: skip
        assert joined.status_code == 201, joined.text
    for _ in range(1000):
        for token in tokens:
            look = requests.get(f"{base}/games/{game}", headers=bearer(token), timeout=10)
            assert look.status_code == 200, look.text
            if look.json()["game"]["status"] == "over":
                return
            legal = look.json()["legal"]
            if not legal:
                continue
            headers = {**bearer(token), "If-Match": look.headers["ETag"],
                       "Idempotency-Key": uuid4().hex}  # fmt: skip
            sent = requests.post(f"{base}/games/{game}/commands", json=rng.choice(legal),
                                 headers=headers, timeout=10)  # fmt: skip
            assert sent.status_code == 200, sent.text
    raise AssertionError(f"{game} is not over after 1000 looks round the table")


def pages(base: str, players: dict[str, str]) -> tuple[Any, dict[str, Any]]:
    """The 2019 leaderboard and every player's record, as one process answers them."""
    board = requests.get(f"{base}/leaderboards/2019", timeout=10)
    assert board.status_code == 200, board.text
    records = {}
    for name, player in players.items():
        record = requests.get(f"{base}/players/{player}", timeout=10)
        assert record.status_code == 200, record.text
        records[name] = record.json()
    return board.json(), records


def test_ranked_games_read_from_another_process_agree_and_survive_a_rebuild(
    start_apis: APIs, redis_url: str, namespace: str
) -> None:
    settings = {"LOVELETTER_LEADERBOARD_MIN_GAMES": "0"}
    playing, reading = start_apis(2, **settings)
    tokens, players = {}, {}
    for name in ("ann", "bob", "cy"):
        made = requests.post(f"{playing}/players", json={"name": name}, timeout=10)
        assert made.status_code == 201, made.text
        tokens[name], players[name] = made.json()["token"], made.json()["player"]["id"]
    rng = random.Random(5)
    for names in GAMES:
        play_ranked_game(playing, [tokens[name] for name in names], rng)

    board, records = pages(reading, players)
    played = {name: sum(name in names for names in GAMES) for name in players}
    lines = {line["name"]: line for line in board["players"]}
    assert set(lines) == set(players)
    assert [line["rank"] for line in board["players"]] == [1, 2, 3]
    scores = [line["rating"]["score"] for line in board["players"]]
    assert scores == sorted(scores, reverse=True)
    for name, record in records.items():
        (edition,) = record["editions"]
        assert record["games"] == edition["games"] == played[name]
        assert record["abandons"] == 0 and len(edition["history"]) == played[name]
        assert edition["rating"] == lines[name]["rating"]  # the record and the board agree
        assert edition["rating"]["games"] == played[name]
        assert edition["history"][-1]["mu"] == edition["rating"]["mu"]
    assert sum(record["wins"] for record in records.values()) >= len(GAMES)  # played to a win
    assert pages(playing, players) == (board, records)  # both processes say the same

    rebuilt = subprocess.run([LOVELETTER, "rebuild"], env=api_env(redis_url, namespace),
                             capture_output=True, text=True, timeout=120)  # fmt: skip
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert pages(reading, players) == (board, records)
