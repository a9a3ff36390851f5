"""A move the rules refuse is said in the page's language (the catalogue's message for the rule's
`code`; the API's English `detail` kept beside it), changes nothing, and play goes on."""

from __future__ import annotations

import json
import random

import pytest
from playwright.sync_api import Route

from tests.browser.conftest import Contexts
from tests.browser.player import api_view, compose, create_game, held_seats, take_turn
from tests.e2e.conftest import Served
from tests.test_catalogues import catalogue


@pytest.mark.parametrize("locale", ["en-GB", "ko-KR"])
def test_a_refused_move_is_said_in_the_pages_language(
    server: Served, contexts: Contexts, locale: str
) -> None:
    browser = contexts(locale=locale)
    page = browser.page()
    game = create_game(page, server.base, "ann", "2019", ["human", "heuristic"])
    token = held_seats(page)[game]["token"]
    page.locator("#moves [data-choice]").first.wait_for()
    before = api_view(server.base, game, token)
    hand = before["view"]["hand"]
    absent = next(card for card in ("princess", "countess", "king", "baron") if card not in hand)

    # The client offers only legal moves, so the refusal is made on the way: the move the page
    # sends is swapped for one with a card the seat does not hold.
    def tamper(route: Route) -> None:
        route.continue_(post_data=json.dumps({"type": "play", "card": absent}))

    page.route("**/commands", tamper)
    browser.allow(r"status of 422")  # Chromium's own note of the refused request
    rng = random.Random(5)
    with page.expect_response("**/commands") as answered:
        compose(page, rng)  # sent as soon as it is whole
    refusal = answered.value.json()
    assert answered.value.status == 422
    assert refusal["code"] == "card-not-in-hand" and refusal["detail"]
    message = catalogue(locale[:2])["problem.card-not-in-hand"]
    notice = page.get_by_role("alert").filter(has_text=message)
    notice.wait_for()
    assert notice.inner_text().strip() == message
    assert notice.get_attribute("data-code") == refusal["code"]
    assert notice.get_attribute("data-detail") == refusal["detail"]
    after = api_view(server.base, game, token)
    assert after["game"]["version"] == before["game"]["version"]  # nothing was appended

    page.unroute("**/commands", tamper)
    page.locator("#moves [data-choice]").first.wait_for()
    take_turn(page, rng)
    assert api_view(server.base, game, token)["game"]["version"] > before["game"]["version"]
    assert page.locator("#notice").inner_text() == ""
