"""A player at the web client: creates games through the lobby's form and plays by clicking."""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

import requests
from playwright.sync_api import Page

from tests.test_catalogues import catalogue

TURN_TIMEOUT_MS = 20_000
GAME_SECONDS = 150.0


def create_game(page: Page, base: str, name: str, edition: str, seats: list[str]) -> str:
    """Fill the lobby's form (name, edition, seats) and create the game; its id. The fields are
    found by their ids, so this works in every language of the page."""
    page.goto(base + "/")
    page.locator("#player-name").fill(name)
    page.locator("#edition").select_option(edition)
    page.locator("#seat-count").select_option(str(len(seats)))
    for index, kind in enumerate(seats):
        page.locator(f"#seat-{index}").select_option(kind)
    page.locator("#create [type=submit]").click()
    page.locator("#table").wait_for()
    return game_id(page)


def game_id(page: Page) -> str:
    """The game the page shows (from its address: #/games/<id>...)."""
    return page.url.split("#/games/", 1)[1].split("/", 1)[0]


def held_seats(page: Page) -> dict[str, Any]:
    """The seats this browser holds ({game: {seat, token, name}}), from its storage."""
    stored = page.evaluate("() => localStorage.getItem('loveletter.seats')")
    found: dict[str, Any] = json.loads(stored) if stored else {}
    return found


def version(page: Page) -> int:
    """The version the table shows."""
    return int(page.locator("#table").get_attribute("data-version") or 0)


# A choice of a move to make (a card of the hand, a player, a name...), the confirmation of a
# move that puts the seat out, or the game's end.
CHOICES = "#moves [data-choice], #moves [data-confirm]"
READY = f"{CHOICES}, [data-game-over]"


def my_turn(page: Page) -> bool:
    """Whether the page offers a move now."""
    return page.locator(CHOICES).count() > 0


def wait_for_turn(page: Page) -> None:
    """Wait until the page offers a move or shows the game's end."""
    page.locator(READY).first.wait_for(timeout=TURN_TIMEOUT_MS)


def over(page: Page) -> bool:
    """Whether the page shows the game's end."""
    return page.locator("[data-game-over]").count() > 0


def compose(page: Page, rng: random.Random) -> None:
    """Tap the offered choices at random (cards of the hand, players, names) until the move is
    whole: the page sends it then, or asks first when it puts the seat out (then: yes)."""
    moves = page.locator("#moves")
    before = version(page)
    deadline = time.monotonic() + TURN_TIMEOUT_MS / 1000
    while not moves.locator("[data-sending]").count() and version(page) == before:
        assert time.monotonic() < deadline, "the move was never sent"
        if moves.locator("[data-confirm]").count():
            moves.locator("[data-confirm]").click()
            return
        choices = moves.locator("[data-choice]")
        count = choices.count()
        if not count:
            return  # sent and answered already: the page shows the next state
        choices.nth(rng.randrange(count)).click()


def take_turn(page: Page, rng: random.Random) -> None:
    """Compose a move (it is sent once whole) and wait for the table to move on."""
    before = version(page)
    compose(page, rng)
    page.locator(f"#table:not([data-version='{before}'])").wait_for()


def play_to_the_end(pages: list[Page], rng: random.Random) -> int:
    """Play every page's seat by clicking until the game is over on all of them; moves made."""
    moves = 0
    deadline = time.monotonic() + GAME_SECONDS
    while not all(over(page) for page in pages):
        assert time.monotonic() < deadline, f"the game did not end in {GAME_SECONDS} s"
        acting = [page for page in pages if my_turn(page)]
        if not acting:
            pages[0].wait_for_timeout(50)
            continue
        take_turn(acting[0], rng)
        moves += 1
    return moves


BOT_SEAT = re.compile(r"(?P<kind>[a-z]+)-bot-\d+")  # how the service names a table's bots


def shown_name(name: str, language: str = "en") -> str:
    """The name the page gives the seat the API names `name`: a bot by its level ("Bot ·
    hard", as the language's catalogue says it), a person by their name."""
    found = BOT_SEAT.fullmatch(name)
    return catalogue(language).get(f"bot.{found['kind']}", name) if found else name


def api_view(base: str, game: str, token: str | None, at: int | None = None) -> dict[str, Any]:
    """The API's answer for the game (at version `at`) as `token`'s seat, or a spectator."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    path = f"/games/{game}" if at is None else f"/games/{game}/versions/{at}"
    response = requests.get(base + path, headers=headers, timeout=10)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def api_events(base: str, game: str, token: str | None = None) -> list[dict[str, Any]]:
    """Every event of the game as `token`'s seat (or a spectator) may see it."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = requests.get(f"{base}/games/{game}/events?limit=5000", headers=headers, timeout=10)
    assert response.status_code == 200, response.text
    events: list[dict[str, Any]] = response.json()["events"]
    return events


def shown_cards(page: Page, selector: str) -> list[str]:
    """The card ids shown inside `selector`, in order."""
    return [
        str(card.get_attribute("data-card"))
        for card in page.locator(f"{selector} [data-card]").all()
    ]
