"""Replay: every turn shows what the API's view at its version shows, for each audience; an
address naming a version shows that version."""

from __future__ import annotations

import random

from playwright.sync_api import Page

from tests.browser.conftest import Contexts, screenshot
from tests.browser.player import (
    api_events,
    api_view,
    create_game,
    held_seats,
    over,
    shown_cards,
    take_turn,
    wait_for_turn,
)
from tests.e2e.conftest import Served

MOVES = 8


def shown_version(page: Page) -> int:
    """The version the replay shows, once it is rendered."""
    page.locator("#replay[data-version]").wait_for()
    return int(page.locator("#replay").get_attribute("data-version") or 0)


def at(page: Page, version: int) -> None:
    """Wait until the replay shows `version`."""
    page.locator(f"#replay[data-version='{version}']").wait_for()


def check_matches_the_api(page: Page, base: str, game: str, token: str | None) -> int:
    """The shown hands and discard piles are the API's at the shown version; that version."""
    version = shown_version(page)
    view = api_view(base, game, token, version)["view"]
    if view is None:
        assert page.locator("[data-hand]").count() == 0
        return version
    if view["hand"] is None:
        assert page.locator("[data-hand]").count() == 0, version
    else:
        assert shown_cards(page, "[data-hand]") == view["hand"], version
    for seat in view["seats"]:
        assert shown_cards(page, f"[data-pile-of='{seat['seat']}']") == seat["discards"], version
    if view["hands"] is not None:
        for seat, hand in enumerate(view["hands"]):
            assert shown_cards(page, f"[data-hand-of='{seat}']") == hand, (version, seat)
    return version


def test_replay_shows_the_api_view_at_every_step(server: Served, contexts: Contexts) -> None:
    page = contexts().page()
    game = create_game(page, server.base, "ann", "2019", ["human", "random"])
    token = held_seats(page)[game]["token"]
    rng = random.Random(4)
    moves = 0
    while True:  # until MOVES are made and the bot has answered the last (or the game is over)
        wait_for_turn(page)
        if moves == MOVES or over(page):
            break
        take_turn(page, rng)
        moves += 1
    head = api_view(server.base, game, token)["game"]["version"]

    # As ann's seat, while the game goes on: step a turn at a time, then scrub with the keyboard.
    dealt = next(e["version"] for e in api_events(server.base, game, token)
                 if e["type"] == "round_started")  # fmt: skip
    page.get_by_role("link", name="Replay").first.click()
    assert shown_version(page) == dealt  # the first deal
    check_matches_the_api(page, server.base, game, token)
    seen = set()
    for _ in range(6):
        before = shown_version(page)
        page.get_by_role("button", name="Next turn").click()
        page.locator(f"#replay:not([data-version='{before}'])").wait_for()
        assert shown_version(page) > before
        seen.add(check_matches_the_api(page, server.base, game, token))
    slider = page.get_by_label("Turn", exact=True)
    slider.focus()
    page.keyboard.press("End")
    at(page, head)  # the last turn runs to the game's newest version
    seen.add(check_matches_the_api(page, server.base, game, token))
    for _ in range(3):
        before = shown_version(page)
        page.keyboard.press("ArrowLeft")
        page.locator(f"#replay:not([data-version='{before}'])").wait_for()
        assert shown_version(page) < before
        seen.add(check_matches_the_api(page, server.base, game, token))
    middle = rng.randrange(2, head)
    page.goto(f"{server.base}/#/games/{game}/replay/{middle}")
    at(page, middle)
    check_matches_the_api(page, server.base, game, token)
    assert len(seen) == 10
    screenshot(page, "replay")

    # As a spectator: no hand, the same piles.
    page.get_by_label("a spectator").check()
    page.locator("#replay[data-audience='spectator']").wait_for()
    check_matches_the_api(page, server.base, game, None)
    assert page.locator("[data-hand]").count() == 0

    # After the end (ann gives up), ann's seat sees every card.
    page.goto(f"{server.base}/#/games/{game}")
    page.locator("#table").wait_for()
    if not over(page):  # (the random bot may have won already)
        page.get_by_role("button", name="Give the game up…").click()
        page.get_by_role("button", name="Yes, give up").click()
    page.locator("[data-game-over]").wait_for()
    final = api_view(server.base, game, token)["game"]["version"]
    page.get_by_role("link", name="Replay the game").click()
    page.get_by_label("ann: the game is over, so every card").wait_for()
    for step in (1, 4, middle, final - 1, final):
        page.goto(f"{server.base}/#/games/{game}/replay/{step}")
        at(page, step)
        check_matches_the_api(page, server.base, game, token)
    # Every deal dealt is checked: the ended ones verified by the browser, the last one too.
    ended = [e for e in api_events(server.base, game, token) if e["type"] == "round_ended"]
    assert ended
    verified = page.locator("[data-verified='true']")
    verified.nth(len(ended) - 1).wait_for()
    assert verified.count() == len(ended)
    assert page.locator("[data-verified='false']").count() == 0
