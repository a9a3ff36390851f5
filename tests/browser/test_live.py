"""Live updates: a move made while the table is loading still reaches the page."""

from __future__ import annotations

import json
import re
import uuid

import requests
from playwright.sync_api import Route

from tests.api.players import two_humans
from tests.browser.conftest import Contexts
from tests.browser.player import api_view, wait_for_turn
from tests.e2e.conftest import Served


def bob_plays(base: str, game: str, token: str) -> None:
    """bob sends his first legal move."""
    seen = api_view(base, game, token)
    headers = {
        "Authorization": f"Bearer {token}",
        "If-Match": f'"{seen["game"]["version"]}"',
        "Idempotency-Key": uuid.uuid4().hex,
    }
    url = f"{base}/games/{game}/commands"
    moved = requests.post(url, json=seen["legal"][0], headers=headers, timeout=10)
    assert moved.status_code == 200, moved.text


def test_a_move_made_while_the_table_loads_is_not_missed(
    server: Served, contexts: Contexts
) -> None:
    """bob moves after ann's page read the view but before it read the events: her page
    still follows the game to her turn (it follows from the view's version)."""
    game, tokens = two_humans(server.base, "2019", first_player=1)
    ann_token, bob_token = tokens[0], tokens[1]
    assert api_view(server.base, game, bob_token)["view"]["current"] == 1

    def bob_moves_meanwhile(route: Route) -> None:
        answer = route.fetch()  # ann's view: bob's turn
        bob_plays(server.base, game, bob_token)
        route.fulfill(response=answer)

    page = contexts().page()
    page.goto(server.base + "/")
    seats = {game: {"seat": 0, "token": ann_token, "name": "ann", "at": 0}}
    page.evaluate("seats => localStorage.setItem('loveletter.seats', seats)", json.dumps(seats))
    page.route(f"**/games/{game}", bob_moves_meanwhile, times=1)
    page.goto(f"{server.base}/#/games/{game}")
    page.locator("#table").wait_for()
    # bob's move may have won him the round, and the next one starts with him: he plays on.
    while api_view(server.base, game, ann_token)["view"]["current"] != 0:
        bob_plays(server.base, game, bob_token)
    wait_for_turn(page)
    assert page.locator("#moves [data-choice], #moves [data-confirm]").count()


def test_the_table_follows_the_game_by_its_event_stream(server: Served, contexts: Contexts) -> None:
    """ann's table hears bob's move over the event stream, opened with a stream ticket: no
    long poll waits, and no token is ever in an address."""
    game, tokens = two_humans(server.base, "classic", first_player=1)
    ann_token, bob_token = tokens[0], tokens[1]
    page = contexts().page()
    addresses: list[str] = []
    page.on("request", lambda request: addresses.append(request.url))
    page.goto(server.base + "/")
    seats = {game: {"seat": 0, "token": ann_token, "name": "ann", "at": 0}}
    page.evaluate("seats => localStorage.setItem('loveletter.seats', seats)", json.dumps(seats))
    page.goto(f"{server.base}/#/games/{game}")
    page.locator("#table").wait_for()
    for _ in range(100):  # the table opens its stream (a request seen by `addresses`)
        if any("/stream?" in url for url in addresses):
            break
        page.wait_for_timeout(100)
    while api_view(server.base, game, ann_token)["view"]["current"] != 0:
        bob_plays(server.base, game, bob_token)
    wait_for_turn(page)
    streams = [url for url in addresses if f"/games/{game}/stream?" in url]
    assert streams and all("ticket=" in url for url in streams), addresses
    assert not [url for url in addresses if re.search(r"wait=[1-9]", url)], addresses
    assert not [url for url in addresses if ann_token in url or bob_token in url]
