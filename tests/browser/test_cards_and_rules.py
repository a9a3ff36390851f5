"""Card art and the rules pages: every character of every edition has its own picture; the hand,
the discard piles and the replay show the cards' pictures with their numbers and the names of
the page's language; the rules pages tell how a round and a game go and show every card of each
edition with its picture and effect, in every language, reachable from the lobby, the table and
a card's own address."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest
import requests
from playwright.sync_api import Page

from game.cards import CARDS
from game.editions import EDITIONS
from tests.browser.conftest import SCREENSHOTS, Contexts, screenshot
from tests.browser.player import api_view, take_turn, wait_for_turn
from tests.browser.test_accessibility import create, hold
from tests.browser.test_languages import english_left
from tests.e2e.conftest import Served
from tests.test_catalogues import LANGUAGES, catalogue

LOCALES = {"en": "en-US", "ja": "ja-JP", "ko": "ko-KR", "vi": "vi-VN"}
PLAYERS = {"en": "ann", "ja": "さくら", "ko": "민준", "vi": "Lan"}
MOVES = 10  # far more than it takes to see a discard pile with a card at one's turn

# Each card the page may draw, drawn by art.js: its picture's SVG, and whether it has its own.
DRAWN = """async (ids) => {
  const art = await import('/web/js/art.js');
  const drawn = (id) => ({
    own: art.hasArt(id),
    picture: art.cardFace({ card: id, rank: 0, name: id }).querySelector('.art-picture').innerHTML,
  });
  return Object.fromEntries([...ids, 'no-such-card'].map((id) => [id, drawn(id)]));
}"""


def words(base: str, language: str) -> dict[str, dict[str, Any]]:
    """Every edition as GET /editions?lang= answers it, by id."""
    answer = requests.get(f"{base}/editions", params={"lang": language}, timeout=10)
    assert answer.status_code == 200, answer.text
    return {edition["id"]: edition for edition in answer.json()["editions"]}


def test_every_character_of_every_edition_has_a_picture_of_its_own(
    server: Served, contexts: Contexts
) -> None:
    """The 19 characters of the four editions' decks each have a drawing, all different, and
    none is the figure drawn for an unknown card."""
    page = contexts().page()
    page.goto(server.base + "/#/nowhere")
    page.locator("main h1").wait_for()
    decks = {card for edition in EDITIONS.values() for card in edition.deck}
    assert decks == set(CARDS) and len(decks) == 19
    drawn = page.evaluate(DRAWN, sorted(decks))
    unknown = drawn.pop("no-such-card")
    assert not unknown["own"]
    assert {card for card, found in drawn.items() if found["own"]} == decks
    pictures = [found["picture"] for found in drawn.values()]
    assert len(set(pictures)) == len(pictures) and unknown["picture"] not in pictures


def test_a_card_at_high_resolution(server: Served, contexts: Contexts) -> None:
    """One card alone, at three times the pixels (the README's picture of a card)."""
    page = contexts(device_scale_factor=3).page()
    page.goto(server.base + "/#/rules/2019#princess")
    card = page.locator("#card-princess .card-face")
    card.wait_for()
    assert card.inner_text().split() == ["9", "Princess"]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    card.screenshot(path=str(SCREENSHOTS / "card.png"), animations="disabled")
    size = card.bounding_box()
    assert size is not None and size["width"] >= 120, size  # a card, not a speck


def in_view(page: Page, selector: str) -> bool:
    """Whether the top of the element is within the window."""
    return bool(page.evaluate(
        "s => { const box = document.querySelector(s).getBoundingClientRect();"
        " return box.top >= -1 && box.top < window.innerHeight; }", selector))  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_pages_show_every_card_in(
    server: Served, contexts: Contexts, language: str
) -> None:
    page = contexts(locale=LOCALES[language]).page()
    messages = catalogue(language)
    editions = words(server.base, language)

    # From the lobby: the game in a minute, then each edition.
    page.goto(server.base + "/")
    page.locator("#lobby [data-rules]").click()
    page.locator("#rules h1").wait_for()
    assert page.locator("#rules h1").inner_text() == messages["rules.heading"]
    shown = [item.get_attribute("data-edition") for item in page.locator("[data-edition]").all()]
    assert shown == list(EDITIONS)
    if language != "en":
        assert english_left(page, language, []) == []
    screenshot(page, f"rules-{language}")

    for edition, found in editions.items():
        page.locator(f".rules-edition[href='#/rules/{edition}']").click()
        page.locator(f"#rules[data-edition='{edition}']").wait_for()
        assert messages[f"edition.{edition}"] in page.locator("#rules h1").inner_text()
        for card in found["cards"]:
            item = page.locator(f"#card-{card['card']}")
            assert item.locator(".face-name").inner_text() == card["name"], card
            assert item.locator(".face-number").inner_text() == str(card["rank"]), card
            assert item.locator(".effect").inner_text() == card["effect"], card
            assert item.locator("svg.art .art-picture").count() == 1
        cells = page.locator("table.rules-tokens tbody td").all_inner_texts()
        targets = [str(row[key]) for row in found["tokens_to_win"] for key in ("players", "tokens")]
        assert cells == targets
        if language != "en":
            assert english_left(page, language, []) == []
        page.go_back()
        page.locator("#rules .rules-editions").wait_for()

    # Premium's extra cards have their section: those the classic deck has not.
    page.goto(f"{server.base}/#/rules/premium")
    extra = page.locator("section[aria-labelledby='extra-title'] [data-card]")
    extra.first.wait_for()
    expected = [c["card"] for c in editions["premium"]["cards"]
                if c["card"] not in {k["card"] for k in editions["classic"]["cards"]}]  # fmt: skip
    assert [item.get_attribute("data-card") for item in extra.all()] == expected
    assert len(expected) == 9
    screenshot(page, f"rules-premium-{language}")

    # A card's own address (a link the tutorial can give) opens the page at that card.
    page.goto(f"{server.base}/#/rules/2019#chancellor")
    page.locator("#card-chancellor").wait_for()
    deadline = time.monotonic() + 5
    while page.evaluate("document.activeElement?.id") != "card-chancellor":
        assert time.monotonic() < deadline, "the card's address did not lead to the card"
        page.wait_for_timeout(50)
    assert in_view(page, "#card-chancellor")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_hand_the_piles_and_the_replay_show_the_cards_pictures_in(
    server: Served, contexts: Contexts, language: str
) -> None:
    """A 2-player 2019 game where both seats played a card: the hand shows each card's face
    (picture, number, name of the language), the piles and the face-up cards small pictures
    named by card and number, and the replay the same; the table links to its edition's rules."""
    page = contexts(locale=LOCALES[language]).page()
    made = create(server.base, "2019", ["human", "easy"], PLAYERS[language], first_player=0)
    game, token = made["game"]["id"], made["token"]
    hold(page, server.base, {game: {"seat": 0, "token": token, "name": PLAYERS[language],
                                    "at": time.time() * 1000}})  # fmt: skip
    cards = {c["card"]: c for c in words(server.base, language)["2019"]["cards"]}
    page.goto(f"{server.base}/#/games/{game}")
    page.locator("#moves [data-choice]").first.wait_for()
    # Play until, at ann's turn, some discard pile holds a card (a round may end on a play).
    rng = random.Random(language)
    for _ in range(MOVES):
        view = api_view(server.base, game, token)["view"]
        if any(seat["discards"] for seat in view["seats"]) and len(view["hand"]) == 2:
            break
        take_turn(page, rng)
        wait_for_turn(page)
    else:
        raise AssertionError(f"no card was discarded in {MOVES} moves")

    faces = page.locator("[data-hand] .card-face")
    assert faces.count() == len(view["hand"]) == 2
    for face, card in zip(faces.all(), view["hand"], strict=True):
        assert face.locator(".face-name").inner_text() == cards[card]["name"]
        assert face.locator(".face-number").inner_text() == str(cards[card]["rank"])
        assert face.locator("svg.art").count() == 1
    for seat in (seat for seat in view["seats"] if seat["discards"]):
        pile = page.locator(f"[data-pile-of='{seat['seat']}'] .card-small")
        assert pile.count() == len(seat["discards"])
        for small, card in zip(pile.all(), seat["discards"], strict=True):
            name = small.get_attribute("aria-label") or ""
            assert small.get_attribute("role") == "img"
            assert cards[card]["name"] in name and str(cards[card]["rank"]) in name
    for card in view["face_up"]:
        named = re.compile(re.escape(cards[card]["name"]))
        assert page.locator("[data-face-up]").get_by_role("img", name=named).count()
    rules = page.locator("[data-rules]")
    assert rules.get_attribute("href") == "#/rules/2019"
    screenshot(page, f"table-cards-{language}")

    version = api_view(server.base, game, token)["game"]["version"]
    page.goto(f"{server.base}/#/games/{game}/replay/{version}")
    page.locator(f"#replay[data-version='{version}'] [data-hand] .card-face").first.wait_for()
    assert [face.get_attribute("data-art") for face in faces.all()] == view["hand"]
    shown = page.locator("#replay [data-pile-of] .card-small")
    assert shown.count() == sum(len(seat["discards"]) for seat in view["seats"])
    page.locator("#replay details.reference summary").click()
    page.locator("#replay [data-rules]").click()
    page.locator("#rules[data-edition='2019']").wait_for()
