"""Two people at one table, each in their own browser: invitation, seats, a whole classic game."""

from __future__ import annotations

import random

from tests.browser.conftest import Contexts, screenshot
from tests.browser.player import api_view, create_game, held_seats, play_to_the_end
from tests.e2e.conftest import Served


def test_a_classic_game_between_two_browsers(server: Served, contexts: Contexts) -> None:
    ann_browser, bob_browser = contexts(), contexts()
    ann, bob = ann_browser.page(), bob_browser.page()
    game = create_game(ann, server.base, "ann", "classic", ["human", "human"])
    ann.locator("#table[data-status='open']").wait_for()
    invitation = ann.get_by_label("Invitation link", exact=False).input_value()
    assert invitation.endswith(f"/#/join/{game}")

    bob.goto(invitation)
    bob.get_by_label("Your name").fill("bob")
    bob.get_by_role("button", name="Take a seat").click()
    bob.locator("#table[data-status='playing']").wait_for()
    ann.locator("#table[data-status='playing']").wait_for()  # live: the seat taken started it
    tokens = {held_seats(ann)[game]["token"], held_seats(bob)[game]["token"]}
    assert len(tokens) == 2
    screenshot(bob, "table-classic")

    play_to_the_end([ann, bob], random.Random(16))

    final = api_view(server.base, game, None)
    assert final["game"]["status"] == "over"
    winners = [final["view"]["players"][seat] for seat in final["view"]["game_winners"]]
    assert winners
    for page in (ann, bob):
        banner = page.locator("[data-game-over] h2").inner_text()
        assert all(name in banner for name in winners), (banner, winners)
    # A seat's token went only into headers, never into an address.
    urls = ann_browser.urls + bob_browser.urls
    assert not [url for url in urls for token in tokens if token in url]


def test_join_from_the_lobby_and_leave_before_the_start(server: Served, contexts: Contexts) -> None:
    ann, bob = contexts().page(), contexts().page()
    game = create_game(ann, server.base, "ann", "2019", ["human", "human", "human"])
    bob.goto(server.base + "/")
    bob.get_by_label("Your name").fill("bob")
    row = bob.locator(f"[data-game='{game}']")
    assert "ann" in row.inner_text() and "open seat" in row.inner_text()
    screenshot(bob, "lobby")
    # The button names the game by its edition and players, not by its id.
    row.get_by_role("button", name="Join 2019: ann and 2 open seats").click()
    bob.locator("#table[data-status='open']").wait_for()
    ann.locator(".seat-list", has_text="bob").wait_for()  # ann's waiting room sees bob sit down
    screenshot(ann, "waiting")
    assert api_view(server.base, game, None)["game"]["open_seats"] == 1

    bob.get_by_role("button", name="Leave my seat").click()
    bob.locator("#lobby").wait_for()
    assert game not in held_seats(bob)
    assert api_view(server.base, game, None)["game"]["open_seats"] == 2
    ann.locator(".seat-list", has_text="bob").wait_for(state="detached")
