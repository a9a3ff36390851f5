"""Whole games played by clicking: 2019 against the heuristic bot, and premium with five bots."""

from __future__ import annotations

import random

from playwright.sync_api import Page

from tests.browser.conftest import Contexts, screenshot
from tests.browser.player import (
    TURN_TIMEOUT_MS,
    api_view,
    create_game,
    held_seats,
    my_turn,
    play_to_the_end,
    shown_cards,
    shown_name,
    take_turn,
    version,
    wait_for_turn,
)
from tests.e2e.conftest import Served


def test_a_2019_game_against_the_heuristic_bot_is_played_to_the_end(
    server: Served, page: Page
) -> None:
    game = create_game(page, server.base, "ann", "2019", ["human", "heuristic"])
    token = held_seats(page)[game]["token"]
    page.locator("#moves [data-choice]").first.wait_for()
    answer = api_view(server.base, game, token)
    # The hand shown is the API's, each card with its name, number and effect in this edition.
    assert shown_cards(page, "[data-hand]") == answer["view"]["hand"]
    first = answer["view"]["hand"][0]
    tile = page.locator(f"[data-hand] [data-card='{first}']").first
    assert tile.locator(".effect").inner_text().strip()
    assert tile.locator(".rank").inner_text().strip().isdigit()
    # The offered cards are exactly the legal ones.
    offered = {
        button.get_attribute("data-value")
        for button in page.locator("#moves [data-choice='card']").all()
    }
    assert offered == {f'"{command["card"]}"' for command in answer["legal"]}
    screenshot(page, "table")

    # A move made with the keyboard alone: each choice puts the focus on the next question. It
    # starts from a card whose play is not certain to put me out: on such a card (the Princess)
    # the page asks "are you sure?" with the focus on "No", so Enter alone never sends it.
    risky = {answer["legal"][index]["card"] for index in answer["puts_you_out"]}
    safe = next((card for card in answer["view"]["hand"] if card not in risky), None)
    assert safe, "a first hand of two cards that surely put me out"
    before = version(page)
    page.locator(f"#moves [data-choice='card'][data-value='\"{safe}\"']").first.focus()
    moves = page.locator("#moves")
    for _ in range(10):  # card, player, name: at most a few presses
        page.keyboard.press("Enter")
        page.wait_for_timeout(100)
        if moves.locator("[data-sending]").count() or version(page) != before:
            break
    # Sent: the table moves on once the answer is in (the bot's turn may come first).
    page.locator(f"#table:not([data-version='{before}'])").wait_for(timeout=TURN_TIMEOUT_MS)
    moves = play_to_the_end([page], random.Random(2019))

    final = api_view(server.base, game, token)
    assert final["game"]["status"] == "over"
    winners = [shown_name(final["view"]["players"][seat]) for seat in final["view"]["game_winners"]]
    banner = page.locator("[data-game-over] h2").inner_text()
    assert all(name in banner for name in winners), (banner, winners)
    assert moves > 0
    # The log says what happened in plain words, and every ended round's deal is verified.
    assert "played the" in page.locator("#log").inner_text()
    rounds = page.locator("[data-round]").count()
    verified = page.locator("[data-verified='true']")
    verified.nth(rounds - 1).wait_for()
    assert verified.count() == rounds
    screenshot(page, "table-over")


def test_a_premium_game_with_five_bots_is_played_to_the_end(
    server: Served, contexts: Contexts
) -> None:
    page = contexts().page()
    bots = ["heuristic", "random", "heuristic", "random", "heuristic"]
    game = create_game(page, server.base, "ann", "premium", ["human", *bots])
    token = held_seats(page)[game]["token"]
    answer = api_view(server.base, game, token)
    assert len(answer["view"]["seats"]) == 6
    assert page.locator("#table .seat").count() == 6
    rng = random.Random(8)
    wait_for_turn(page)
    if my_turn(page):
        take_turn(page, rng)
    screenshot(page, "table-premium")
    play_to_the_end([page], rng)
    assert api_view(server.base, game, token)["game"]["status"] == "over"
    assert page.locator("[data-game-over]").is_visible()
