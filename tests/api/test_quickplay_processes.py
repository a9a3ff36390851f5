"""Two API processes (real gunicorn) matching one crowd at once: no player matched twice, every
game's seats are its entries' players, and a cancel racing a match is one or the other."""

from __future__ import annotations

import random
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import requests

from tests.api.conftest import APIs


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def guests(base: str, count: int) -> list[str]:
    tokens = []
    for n in range(count):
        made = requests.post(f"{base}/players", json={"name": f"p{n}"}, timeout=10)
        assert made.status_code == 201, made.text
        tokens.append(made.json()["token"])
    return tokens


def test_two_processes_matching_one_crowd_seat_no_player_twice(start_apis: APIs) -> None:
    bases = start_apis(2)
    tokens = guests(bases[0], 80)
    rng = random.Random(11)
    wishes = [sorted(rng.sample([2, 3, 4], rng.randint(1, 3))) for _ in tokens]

    def enter(n: int) -> tuple[int, str, dict[str, Any]]:
        base = bases[n % 2]
        body = {"edition": "2019", "seats": wishes[n]}
        answer = requests.post(f"{base}/queue", json=body, headers=bearer(tokens[n]), timeout=30)
        assert answer.status_code == 201, answer.text
        return n, base, answer.json()

    with ThreadPoolExecutor(16) as pool:
        entered = list(pool.map(enter, range(len(tokens))))
    final = {}
    for n, base, first in entered:
        found = requests.get(f"{base}/queue/{first['id']}", headers=bearer(tokens[n]), timeout=10)
        assert found.status_code == 200
        final[n] = found.json()
    matched = {n: e for n, e in final.items() if e["state"] == "matched"}
    assert len(matched) >= 70, Counter(e["state"] for e in final.values())
    assert {e["state"] for e in final.values()} <= {"matched", "waiting"}
    games: dict[str, dict[int, int]] = {}
    for n, shown in matched.items():
        assert shown["seat"] not in games.setdefault(shown["game"], {})
        games[shown["game"]][shown["seat"]] = n
        assert shown["seats"] == wishes[n], (n, shown)  # the player's own entry, as asked
    for game, seated in games.items():
        table = requests.get(f"{bases[0]}/games/{game}", timeout=10).json()["game"]
        assert table["status"] == "playing" and len(table["seats"]) == len(seated)
        assert all(len(table["seats"]) in wishes[n] for n in seated.values())
        for seat, n in seated.items():
            mine = requests.get(f"{bases[1]}/games/{game}", headers=bearer(tokens[n]), timeout=10)
            assert mine.json()["view"]["you"] == seat  # the player's own token holds it
    # each player seated once, in one game
    assert sum(len(seated) for seated in games.values()) == len(matched)


def test_a_cancel_racing_a_match_in_another_process_is_one_or_the_other(
    start_apis: APIs,
) -> None:
    first, second = start_apis(2)
    tokens = guests(first, 40)
    outcomes = Counter()
    for ann, bob in zip(tokens[::2], tokens[1::2], strict=True):
        body = {"edition": "classic", "seats": [2]}
        waiting = requests.post(f"{first}/queue", json=body, headers=bearer(ann), timeout=10).json()
        entry = waiting["id"]
        with ThreadPoolExecutor(2) as pool:
            cancelled = pool.submit(
                requests.delete, f"{first}/queue/{entry}", headers=bearer(ann), timeout=10
            )
            entered = pool.submit(
                requests.post, f"{second}/queue", json=body, headers=bearer(bob), timeout=10
            )
        gone, came = cancelled.result(), entered.result().json()
        mine = requests.get(f"{second}/queue/{entry}", headers=bearer(ann), timeout=10).json()
        if gone.status_code == 200:
            assert gone.json()["state"] == mine["state"] == "cancelled"
            assert came["state"] == "waiting"  # never matched with a cancelled entry
            requests.delete(f"{second}/queue/{came['id']}", headers=bearer(bob), timeout=10)
        else:
            assert gone.status_code == 409 and gone.json()["type"].endswith("/queue-entry-matched")
            assert mine["state"] == "matched" and mine["game"] == came["game"]
        outcomes[mine["state"]] += 1
    assert sum(outcomes.values()) == 20
