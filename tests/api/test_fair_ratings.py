"""Ratings can't be farmed with a second account, through a real gunicorn process, a real RQ
worker (the bot that takes the left seat over) and `loveletter rebuild`: a second account that
joins ann's ranked tables and abandons at once, ten times, moves ann's rating by nothing and
takes ten losses; its abandon rate shows on its record; quick play's `reliable_only` keeps it
away from ann."""

from __future__ import annotations

import random
import subprocess
import time
from typing import Any
from uuid import uuid4

import requests

from tests.api.conftest import APIs, api_env
from tests.api.test_ratings_processes import LOVELETTER, play_ranked_game
from tests.integration.workers import WorkerProcess
from tests.waits import wait_until

GAME_SECONDS = 120  # a 2019 game of ann against the takeover bot, played to its end


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def guest(base: str, name: str) -> tuple[str, str]:
    made = requests.post(f"{base}/players", json={"name": name}, timeout=10)
    assert made.status_code == 201, made.text
    return str(made.json()["token"]), str(made.json()["player"]["id"])


def joined_and_abandoned(base: str, host: str, second: str) -> str:
    """A ranked 2019 table `host` opens; `second` joins and leaves its seat to the bot at
    once; `host` plays its first legal command at each of its turns until the game is over."""
    body = {"edition": "2019", "seats": ["human", "human"], "ranked": True}
    created = requests.post(f"{base}/games", json=body, headers=bearer(host), timeout=10)
    assert created.status_code == 201, created.text
    game = created.json()["game"]["id"]
    joined = requests.post(f"{base}/games/{game}/seats", json={"name": "zed"},
                           headers=bearer(second), timeout=10)  # fmt: skip
    assert joined.status_code == 201, joined.text
    left = requests.post(f"{base}/games/{game}/seats/{joined.json()['seat']}/abandon",
                         headers=bearer(second), timeout=10)  # fmt: skip
    assert left.status_code == 200, left.text
    deadline = time.monotonic() + GAME_SECONDS
    version = 0
    while True:
        look = requests.get(f"{base}/games/{game}", headers=bearer(host), timeout=10)
        if look.json()["game"]["status"] == "over":
            return game
        assert time.monotonic() < deadline, f"{game} was not over after {GAME_SECONDS} s"
        version = int(look.headers["ETag"].strip('"'))
        legal = look.json()["legal"]
        if not legal:  # the bot's turn: wait for its move
            requests.get(f"{base}/games/{game}/events?after={version}&wait=5", timeout=15)
            continue
        headers = {**bearer(host), "If-Match": look.headers["ETag"],
                   "Idempotency-Key": uuid4().hex}  # fmt: skip
        sent = requests.post(f"{base}/games/{game}/commands", json=legal[0], headers=headers,
                             timeout=10)  # fmt: skip
        assert sent.status_code in (200, 412), sent.text  # 412: the bot moved meanwhile


def record(base: str, player: str) -> dict[str, Any]:
    found = requests.get(f"{base}/players/{player}", timeout=10)
    assert found.status_code == 200, found.text
    return dict(found.json())


def played(base: str, player: str, games: int) -> dict[str, Any]:
    """The player's record once it counts `games` games (empty before)."""
    found = record(base, player)
    return found if found["games"] == games else {}


def test_a_second_account_that_joins_and_abandons_ten_times_moves_nothing(
    start_apis: APIs, redis_url: str, namespace: str
) -> None:
    (base,) = start_apis(1, LOVELETTER_LEADERBOARD_MIN_GAMES="0", LOVELETTER_RATE_LIMIT_SEAT="off")
    env = {"REDIS_URL": redis_url, "LOVELETTER_NAMESPACE": namespace,
           "LOVELETTER_QUEUE": namespace, "LOVELETTER_BOT_BUDGET_MS": "20"}  # fmt: skip
    worker = WorkerProcess(redis_url, namespace, env)
    try:
        (ann, ann_id), (bob, bob_id), (zed, zed_id) = (
            guest(base, n) for n in ("ann", "bob", "zed")
        )
        play_ranked_game(base, [ann, bob], random.Random(3))  # a real game: ann has a rating
        # A game is recorded right after its last append, by whoever made it: wait for it.
        before = wait_until(lambda: played(base, ann_id, 1), "ann's first game recorded")
        (rated,) = before["editions"]
        assert rated["rating"] is not None and rated["rating"]["games"] == 1

        for _ in range(10):
            joined_and_abandoned(base, ann, zed)

        after = wait_until(lambda: played(base, ann_id, 11), "ann's eleven games recorded")
        assert after["editions"][0]["rating"] == rated["rating"]  # not moved at all
        assert after["editions"][0]["history"] == rated["history"]
        assert (after["games"], after["abandons"], after["abandon_rate"]) == (11, 0, 0.0)
        zeds = wait_until(lambda: played(base, zed_id, 10), "zed's ten games recorded")
        (edition,) = zeds["editions"]
        mus = [entry["mu"] for entry in edition["history"]]
        assert len(mus) == 10 and all(b < a for a, b in zip([25.0, *mus], mus, strict=False))
        assert (zeds["games"], zeds["abandons"], zeds["abandon_rate"]) == (10, 10, 1.0)
        me = requests.get(f"{base}/players/me", headers=bearer(zed), timeout=10).json()
        assert me["abandon_rate"] == 1.0
        board = requests.get(f"{base}/leaderboards/2019", timeout=10).json()["players"]
        assert [line["name"] for line in board][-1] == "zed"  # ten losses: last

        rebuilt = subprocess.run([LOVELETTER, "rebuild"], env=api_env(redis_url, namespace),
                                 capture_output=True, text=True, timeout=120)  # fmt: skip
        assert rebuilt.returncode == 0, rebuilt.stderr
        assert record(base, ann_id) == after and record(base, zed_id) == zeds
        assert requests.get(f"{base}/leaderboards/2019", timeout=10).json()["players"] == board

        entries = {}
        for token, name in ((ann, "ann"), (zed, "zed"), (bob, "bob")):
            body = {"edition": "2019", "seats": [2], "reliable_only": name == "ann"}
            entered = requests.post(f"{base}/queue", json=body, headers=bearer(token), timeout=10)
            assert entered.status_code == 201, entered.text
            entries[name] = entered.json()
            assert entries[name]["reliable_only"] == (name == "ann")
        states = {
            name: requests.get(
                f"{base}/queue/{entry['id']}", headers=bearer(token), timeout=10
            ).json()
            for (name, entry), token in zip(entries.items(), (ann, zed, bob), strict=True)
        }
        assert states["zed"]["state"] == "waiting"  # ann asked for reliable players only
        assert states["ann"]["state"] == states["bob"]["state"] == "matched"
        assert states["ann"]["game"] == states["bob"]["game"]
        assert bob_id != zed_id
    finally:
        worker.stop()
