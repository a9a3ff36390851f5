"""Ranked games played to their end move ratings: the leaderboard lists the players best first,
and a player's page shows their record and the rating's history as a chart."""

from __future__ import annotations

import uuid
from typing import Any

import requests

from game.records import PLAYED_TURNS
from tests.browser.conftest import Contexts, screenshot
from tests.e2e.conftest import Served

RANKED_GAMES = 5  # the leaderboard's default minimum


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def guest(base: str, name: str) -> dict[str, Any]:
    """A guest player: {"id", "token"}."""
    made = requests.post(f"{base}/players", json={"name": name}, timeout=10)
    assert made.status_code == 201, made.text
    return {"id": made.json()["player"]["id"], "token": made.json()["token"]}


def ranked_win(base: str, winner: dict[str, Any], loser: dict[str, Any]) -> None:
    """A ranked 2019 game really played (each seat makes PLAYED_TURNS turns of its own, its
    first legal command), then the loser forfeits on its turn."""
    body = {"edition": "2019", "seats": ["human", "human"], "ranked": True, "first_player": 1}
    created = requests.post(f"{base}/games", json=body, headers=bearer(winner["token"]), timeout=10)
    assert created.status_code == 201, created.text
    game = created.json()["game"]["id"]
    joined = requests.post(f"{base}/games/{game}/seats", json={"name": "x"},
                           headers=bearer(loser["token"]), timeout=10)  # fmt: skip
    assert joined.status_code == 201, joined.text
    tokens, turns = [winner["token"], loser["token"]], [0, 0]
    for _ in range(200):
        look = requests.get(f"{base}/games/{game}", timeout=10)
        seat = look.json()["view"]["current"]
        ready = min(turns) >= PLAYED_TURNS and seat == 1
        mine = requests.get(f"{base}/games/{game}", headers=bearer(tokens[seat]), timeout=10)
        command = {"type": "forfeit"} if ready else mine.json()["legal"][0]
        headers = {**bearer(tokens[seat]), "If-Match": look.headers["ETag"],
                   "Idempotency-Key": uuid.uuid4().hex}  # fmt: skip
        sent = requests.post(f"{base}/games/{game}/commands", json=command, headers=headers,
                             timeout=10)  # fmt: skip
        assert sent.status_code == 200, sent.text
        turns[seat] += command["type"] == "play"
        if ready:
            break
    over = requests.get(f"{base}/games/{game}", timeout=10).json()["game"]["status"]
    assert over == "over", f"the ranked game {game} did not end with the forfeit"


def rated_pair(base: str, winner: str, loser: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two guests who played RANKED_GAMES ranked games, the first winning every one."""
    first, second = guest(base, winner), guest(base, loser)
    for _ in range(RANKED_GAMES):
        ranked_win(base, first, second)
    return first, second


def test_the_leaderboard_and_a_players_rating_history(server: Served, contexts: Contexts) -> None:
    """Una beats Vic five times: Una is above Vic on the 2019 board; her page names her, counts
    five games and five wins, and draws five points of her rating's history."""
    watched = contexts()
    page = watched.page()
    una, vic = rated_pair(server.base, "Una", "Vic")
    page.goto(server.base + "/#/leaderboards/2019")
    table = page.locator("#leaderboard")
    table.wait_for()
    rows = page.locator("#leaderboard tbody tr")
    order = [rows.nth(i).get_attribute("data-player") for i in range(rows.count())]
    assert order.index(una["id"]) < order.index(vic["id"])
    screenshot(page, "leaderboard")
    page.locator(f"#leaderboard tr[data-player='{una['id']}'] a").click()
    page.locator("#player-record").wait_for()
    assert page.locator("#player-title").inner_text() == "Una"
    section = page.locator("[data-edition='2019']")
    assert "100%" in section.inner_text()
    assert section.locator("svg.rating-chart circle").count() == RANKED_GAMES
    assert (section.locator("svg.rating-chart > title").text_content() or "").startswith("Rating")
    screenshot(page, "player record")
    watched.allow(r"status of 404")  # Chromium's own note of the unknown player's answer
    page.goto(server.base + "/#/players/nobody-at-all")
    page.get_by_role("alert").wait_for()
    assert "no such player" in page.get_by_role("alert").inner_text().lower()
