"""A player with three games going: "My games" shows whose turn it is in each and follows moves
made from another browser without a reload; a seat is left to a bot after a confirmation, and
the table shows who is here."""

from __future__ import annotations

import json
import random
from typing import Any

import requests
from playwright.sync_api import Page

from tests.browser.conftest import Contexts, screenshot
from tests.browser.player import take_turn, wait_for_turn
from tests.e2e.conftest import Served

MOST_MOVES_IN_A_ROW = 20  # far more than a 2-player classic game gives one seat in a row


def become_guest(page: Page, base: str, name: str) -> dict[str, Any]:
    """Play as a guest from "My games"; the player this browser keeps."""
    page.goto(base + "/#/me")
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Play as a guest").click()
    page.locator("#my-games").wait_for()
    player: dict[str, Any] = json.loads(
        page.evaluate("() => localStorage.getItem('loveletter.player')")
    )
    return player


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def game_of(base: str, ann: str, bob: str, first: int) -> str:
    """A started classic game of ann (seat 0) and bob, made with their player tokens."""
    body = {"edition": "classic", "seats": ["human", "human"], "first_player": first}
    created = requests.post(f"{base}/games", json=body, headers=bearer(ann), timeout=10)
    assert created.status_code == 201, created.text
    game = str(created.json()["game"]["id"])
    body = {"name": "bob"}
    joined = requests.post(f"{base}/games/{game}/seats", json=body, headers=bearer(bob), timeout=10)
    assert joined.status_code == 201, joined.text
    return game


def mine(base: str, token: str) -> dict[str, dict[str, Any]]:
    games = requests.get(f"{base}/players/me/games", headers=bearer(token), timeout=10).json()
    return {game["id"]: game for game in games["games"]}


def test_my_games_follows_moves_made_in_another_browser(server: Served, contexts: Contexts) -> None:
    ann_browser, bob_browser = contexts(), contexts()
    ann_page, bob_page = ann_browser.page(), bob_browser.page()
    ann = become_guest(ann_page, server.base, "ann")
    bob = become_guest(bob_page, server.base, "bob")
    games = [game_of(server.base, ann["token"], bob["token"], first) for first in (1, 1, 0)]
    ann_page.reload()
    for game in games:
        ann_page.locator(f"[data-game='{game}']").wait_for()
    items = ann_page.locator("#my-games > li")
    assert items.first.get_attribute("data-game") == games[2]  # mine to play first
    turns = [ann_page.locator(f"[data-game='{g}']").get_attribute("data-my-turn") for g in games]
    assert turns == ["false", "false", "true"]
    assert "Waiting for bob" in ann_page.locator(f"[data-game='{games[0]}']").inner_text()
    ann_page.locator("[data-live]", has_text="Live").wait_for()
    ann_page.evaluate("() => { window.notReloaded = true; }")
    screenshot(ann_page, "my-games")

    rng = random.Random(21)
    for game in games[:2]:  # bob moves in two of them, from his own browser
        bob_page.goto(f"{server.base}/#/games/{game}")
        # Bob moves until the game waits on ann (or ends): a round bob ends as its winner has
        # him begin the next one, and a move that leaves the turn with him tells ann nothing.
        for _ in range(MOST_MOVES_IN_A_ROW):
            wait_for_turn(bob_page)
            take_turn(bob_page, rng)
            truth = mine(server.base, ann["token"])[game]
            if truth["my_turn"] or truth["status"] == "over":
                break
        assert truth["my_turn"] or truth["status"] == "over", truth
        item = ann_page.locator(f"[data-game='{game}'][data-version='{truth['version']}']")
        item.wait_for()  # live, from ann's inbox
        assert item.get_attribute("data-my-turn") == ("true" if truth["my_turn"] else "false")
    assert ann_page.evaluate("() => window.notReloaded === true")
    truth = mine(server.base, ann["token"])
    shown = {g: ann_page.locator(f"[data-game='{g}']").get_attribute("data-my-turn") for g in games}
    assert shown == {g: "true" if truth[g]["my_turn"] else "false" for g in games}
    # No token went into an address.
    urls = ann_browser.urls + bob_browser.urls
    assert not [url for url in urls if ann["token"] in url or bob["token"] in url]


def test_leaving_a_game_to_a_bot_after_a_confirmation(server: Served, contexts: Contexts) -> None:
    ann_page, bob_page = contexts().page(), contexts().page()
    ann = become_guest(ann_page, server.base, "ann")
    bob = become_guest(bob_page, server.base, "bob")
    game = game_of(server.base, ann["token"], bob["token"], 1)
    bob_page.goto(f"{server.base}/#/games/{game}")
    bob_page.locator("#table[data-status='playing']").wait_for()
    ann_page.goto(f"{server.base}/#/games/{game}")  # ann's seat: her player's token binds it
    ann_page.locator("#table[data-status='playing']").wait_for()
    assert ann_page.locator("[data-presence='here']").count() == 2  # both had requests just now
    ann_page.get_by_role("button", name="Leave this game…").click()
    ann_page.get_by_role("button", name="No, stay").click()
    ann_page.get_by_role("button", name="Leave this game…").click()
    ann_page.locator("[data-abandon-confirm]").click()
    ann_page.locator("#my-games").wait_for()
    ann_page.locator(f"[data-game='{game}']", has_text="You left this game to a bot").wait_for()
    view = requests.get(f"{server.base}/games/{game}", timeout=10).json()
    assert view["game"]["seats"][0]["bot"] == "heuristic"
    # ann's seat keeps her name; the bot that plays it now is named by its level
    bob_page.locator("[data-board] [data-seat='0']", has_text="Bot · steady").wait_for()


def test_signing_out_ends_the_token_everywhere(server: Served, contexts: Contexts) -> None:
    page = contexts().page()
    ann = become_guest(page, server.base, "ann")
    assert requests.get(f"{server.base}/players/me", headers=bearer(ann["token"]),
                        timeout=10).status_code == 200  # fmt: skip
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.get_by_role("button", name="Sign out").click()
    assert asked and "ann" in asked[0]  # a confirmation first; dismissed, nothing changes
    assert requests.get(f"{server.base}/players/me", headers=bearer(ann["token"]),
                        timeout=10).status_code == 200  # fmt: skip

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Sign out").click()
    page.get_by_role("button", name="Play as a guest").wait_for()  # the guest form again
    assert page.evaluate("() => localStorage.getItem('loveletter.player')") is None
    assert (
        requests.get(
            f"{server.base}/players/me", headers=bearer(ann["token"]), timeout=10
        ).status_code
        == 401
    )  # the token acts no more, anywhere
