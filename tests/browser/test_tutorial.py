"""The tutorial (docs/tutorial.md), played as a newcomer plays it: from the lobby's "Learn to
play", each tutorial to its end in English, Japanese, Korean and Vietnamese, reading the guide
bubble by bubble and making every move at the table; one move off the story per tutorial is
explained and not sent (a card of the hand the rules forbid, too, in the classic one); axe finds
nothing serious on the page; screenshots at 375 and 1280 px; no English left in the other
languages. The game behind it is the real one: its moves are the story's, it is over with the
learner its winner, it is marked as a tutorial and listed nowhere."""

from __future__ import annotations

import json
from typing import Any

import pytest
import requests
from playwright.sync_api import Page

from tests.browser.conftest import Contexts, screenshot
from tests.browser.player import api_events, api_view
from tests.browser.test_accessibility import violations
from tests.browser.test_languages import LOCALES, english_left
from tests.e2e.conftest import Served

LANGUAGE_LOCALES = {"en": "en-US", **LOCALES}
TUTORIALS = ("2019", "classic")
BOT_MOVE_MS = 20_000  # a bot's move comes from an RQ worker of the shared serve
# A move off each story, and the step it is tried at (the learner's first or last move).
WRONG = {
    "2019": (4, {"type": "play", "card": "guard", "targets": [1], "guess": "priest"}),
    "classic": (0, {"type": "play", "card": "princess"}),
}


def story(base: str, name: str) -> dict[str, Any]:
    found: dict[str, Any] = requests.get(f"{base}/tutorials/{name}", timeout=10).json()
    return found


def make_move(page: Page, command: dict[str, Any]) -> None:
    """Make a move on the table as a player does (the one place that knows how): tap the card in
    the hand, then its player and the card it names where the table asks; the table sends a
    whole move at once, or asks first when it would put the seat out (then: yes)."""
    card = json.dumps(command["card"])
    page.locator(f"[data-part='hand'] [data-choice='card'][data-value='{card}']").click()
    move = page.locator('[data-part="move"]')
    for field in ("targets", "guess"):
        if field in command:
            value = json.dumps(command[field])
            choice = move.locator(f"[data-choice={field}][data-value='{value}']")
            if choice.count():
                choice.click()
    if move.locator("[data-confirm]").count():
        move.locator("[data-confirm]").click()


def read_on(page: Page) -> int:
    """Read the guide's bubbles with Next until one asks for a move or ends; how many."""
    page.locator(
        '#guide [data-next], #guide [data-kind="instruction"], #guide [data-final]'
    ).first.wait_for(timeout=BOT_MOVE_MS)
    read = 1
    while page.locator("#guide [data-next]").count():
        page.locator("#guide [data-next]").click()
        read += 1
    return read


def table_version(page: Page) -> int:
    return int(page.locator("#table").get_attribute("data-version") or 0)


def guide_says(page: Page) -> str:
    return page.locator("#guide [data-bubble]").inner_text()


@pytest.mark.parametrize("name", TUTORIALS)
@pytest.mark.parametrize("language", sorted(LANGUAGE_LOCALES))
def test_a_newcomer_plays_the_tutorial_to_its_end(
    server: Served, contexts: Contexts, language: str, name: str
) -> None:
    page = contexts(locale=LANGUAGE_LOCALES[language]).page()
    told = story(server.base, name)
    learner = told["learner"]
    page.goto(server.base + "/")
    page.locator("#learn").wait_for()
    page.locator(f'#learn [data-tutorial="{name}"]').click()
    page.locator('#guide [data-bubble="welcome"]').wait_for()
    page.locator("#table[data-status='playing']").wait_for()
    game = page.evaluate(f"JSON.parse(localStorage.getItem('loveletter.tutorials'))['{name}'].game")
    seats = api_view(server.base, game, None)["game"]["seats"]
    names = [seat["name"] for seat in seats]

    # Before the first move: the welcome, the face-up cards (each explained), the hand.
    page.locator("#guide [data-next]").click()
    assert page.locator("#guide [data-bubble='face-up'] [data-guide-card]").count() == 3
    assert violations(page) == [], language
    assert english_left(page, language, names) == []
    screenshot(page, f"tutorial-{name}-{language}-cards")

    wrong_at, wrong = WRONG[name]
    for index, move in enumerate(told["moves"]):
        if move["seat"] != learner:
            continue
        read_on(page)
        page.locator(f'#guide [data-bubble="do-{index}"][data-kind="instruction"]').wait_for()
        assert page.locator(
            f'[data-part="hand"] [data-card="{move["command"]["card"]}"][data-coach]'
        ).count()
        if index == 0 and name == "2019":
            screenshot(page, f"tutorial-{name}-{language}-move")
        if index == wrong_at:  # a move off the story: explained, not sent
            before = table_version(page)
            make_move(page, wrong)
            word = page.locator("#guide [data-word]")
            word.wait_for()
            assert word.get_attribute("data-said") == f"{move['coach']}.why"
            assert word.inner_text().strip()
            assert table_version(page) == before
            assert api_view(server.base, game, None)["game"]["version"] == before
            assert english_left(page, language, names) == []
        if name == "classic" and move["coach"] == "countess":  # a card the rules forbid now
            page.locator('[data-part="hand"] [data-card="princess"]').click()
            assert page.locator("#guide [data-word]").get_attribute("data-said") == "tap_forced"
        before = table_version(page)
        make_move(page, move["command"])
        page.locator(f"#table:not([data-version='{before}'])").wait_for()

    # The end: the story's last word, then the real game's next step.
    read_on(page)
    final = page.locator("#guide [data-final]")
    final.wait_for()
    assert page.locator("#guide [data-rules]").get_attribute("href") == f"#/rules/{told['edition']}"
    assert english_left(page, language, names) == []
    if name == "2019":  # the end's page is drawn alike in both tutorials
        assert violations(page) == [], language
    screenshot(page, f"tutorial-{name}-{language}-end")

    # The game behind it: the story's moves, the learner its winner, a tutorial, unlisted.
    seen = api_view(server.base, game, None)
    assert seen["game"]["status"] == "over" and seen["game"]["tutorial"] == name
    assert seen["view"]["game_winners"] == [learner]
    played = [e for e in api_events(server.base, game) if e["type"] == "card_played"]
    assert [e["seat"] for e in played] == [m["seat"] for m in told["moves"]]
    for event, move in zip(played, told["moves"], strict=True):
        if move["seat"] == learner:
            assert event["card"] == move["command"]["card"]
    listed = requests.get(f"{server.base}/games?status=over&limit=200", timeout=10).json()
    assert game not in {line["id"] for line in listed["games"]}
    assert page.evaluate("localStorage.getItem('loveletter.seats')") in (None, "{}")


def test_a_tutorial_left_half_played_is_taken_up_again(server: Served, contexts: Contexts) -> None:
    """A reload (or coming back later) finds the same game where it was, the guide there too;
    Play now takes the learner to quick play; once over, the tutorial deals a new game, which
    the learner may give up."""
    page = contexts().page()
    told = story(server.base, "2019")
    page.goto(server.base + "/#/tutorial/2019")
    page.locator('#guide [data-bubble="welcome"]').wait_for()
    game = page.evaluate("JSON.parse(localStorage.getItem('loveletter.tutorials'))['2019'].game")
    read_on(page)
    make_move(page, told["moves"][0]["command"])
    page.locator('#guide [data-bubble="do-2"]').or_(
        page.locator('#guide [data-bubble="said-1"]')
    ).wait_for(timeout=BOT_MOVE_MS)
    page.reload()
    page.locator('#guide [data-bubble="said-1"]').wait_for()  # what the bot did, then on
    assert (
        page.evaluate("JSON.parse(localStorage.getItem('loveletter.tutorials'))['2019'].game")
        == game
    )
    assert "named the Prince" in guide_says(page)
    for index, move in enumerate(told["moves"]):
        if index >= 2 and move["seat"] == told["learner"]:
            read_on(page)
            page.locator(f'#guide [data-bubble="do-{index}"]').wait_for()
            before = table_version(page)
            make_move(page, move["command"])
            page.locator(f"#table:not([data-version='{before}'])").wait_for()
    read_on(page)
    page.locator("#guide [data-final]").wait_for()

    page.locator("#tutorial-name").fill("Robin")
    page.locator("#guide [data-play-now]").click()
    page.locator("#queue").wait_for()
    page.locator("#queue-cancel").click()
    page.locator("#queue[aria-busy='false']").wait_for()

    page.goto(server.base + "/#/tutorial/2019")  # over: a new game is dealt
    page.locator('#guide [data-bubble="welcome"]').wait_for()
    again = page.evaluate("JSON.parse(localStorage.getItem('loveletter.tutorials'))['2019'].game")
    assert again != game
    assert api_view(server.base, again, None)["game"]["status"] == "playing"

    # Giving up is the learner's own choice: not a move off the story, and the guide says so.
    page.locator("[data-forfeit]").click()
    page.locator("[data-forfeit-confirm]").click()
    page.locator('#guide [data-bubble="end"]').wait_for()
    assert guide_says(page).startswith("The bot won this round")
    assert api_view(server.base, again, None)["game"]["status"] == "over"
