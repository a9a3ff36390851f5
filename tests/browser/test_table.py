"""The table as a card table, in every language: the log follows the newest line after every
move unless the reader scrolled up (then a "newest" button brings it back)."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
import requests
from playwright.sync_api import Page

from tests.browser.conftest import Contexts
from tests.browser.player import take_turn, wait_for_turn
from tests.e2e.conftest import Served
from tests.test_catalogues import LANGUAGES

LOCALES = {"en": "en-US", "ja": "ja-JP", "ko": "ko-KR", "vi": "vi-VN"}
MOVES = 10
SETTLE_S = 3.0  # how long a log may take to come to rest at its newest line

# How far the log's newest line is below what the log shows (0: at the bottom).
GAP = "() => { const log = document.querySelector('#log');"
GAP += " return Math.round(log.scrollHeight - log.scrollTop - log.clientHeight); }"


def seated(page: Page, base: str, edition: str, seats: list[str], **settings: Any) -> str:
    """A game made through the API with this browser holding seat 0 ("ann"); its id."""
    body = {"edition": edition, "seats": seats, "name": "ann", **settings}
    made = requests.post(f"{base}/games", json=body, timeout=10)
    assert made.status_code == 201, made.text
    answer = made.json()
    game = str(answer["game"]["id"])
    held = {game: {"seat": answer["seat"], "token": answer["token"], "name": "ann", "at": 0}}
    page.goto(base + "/")
    page.evaluate("seats => localStorage.setItem('loveletter.seats', seats)", json.dumps(held))
    return game


def gap_at_rest(page: Page) -> int:
    """The log's gap to its newest line once it stops changing (or after SETTLE_S)."""
    deadline = time.monotonic() + SETTLE_S
    gap = page.evaluate(GAP)
    while gap > 1 and time.monotonic() < deadline:
        page.wait_for_timeout(100)
        gap = page.evaluate(GAP)
    return int(gap)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_log_follows_the_newest_line_after_every_move(
    server: Served, contexts: Contexts, language: str
) -> None:
    """Against five bots (their moves arrive in bursts between ann's): after each of ann's
    moves the log shows its newest line."""
    page = contexts(locale=LOCALES[language]).page()
    game = seated(page, server.base, "premium", ["human", *["heuristic"] * 5], first_player=0)
    page.goto(f"{server.base}/#/games/{game}")
    rng = random.Random(language)
    gaps = []
    for _ in range(MOVES):
        wait_for_turn(page)
        if page.locator("[data-game-over]").count():
            break
        take_turn(page, rng)
        wait_for_turn(page)
        gaps.append(gap_at_rest(page))
    assert len(gaps) >= 3, gaps
    assert gaps == [0] * len(gaps), f"the log's gap to its newest line after each move: {gaps}"
