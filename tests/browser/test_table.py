"""The table as a card table, in every language: the log follows the newest line after every
move unless the reader scrolled up (then a "newest" button brings it back); a move is made by
tapping a card of the hand, then a seat; a move that puts the seat out asks first; the hand and
the move fit a phone's first screen; the replay goes by round and turn."""

from __future__ import annotations

import json
import random
import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest
import requests
from playwright.sync_api import Page

from tests.browser.conftest import PHONE, Contexts, screenshot
from tests.browser.player import api_events, api_view, take_turn, wait_for_turn
from tests.browser.test_accessibility import violations
from tests.browser.test_replay import check_matches_the_api
from tests.e2e.conftest import Served
from tests.test_catalogues import LANGUAGES

LOCALES = {"en": "en-US", "ja": "ja-JP", "ko": "ko-KR", "vi": "vi-VN"}
MOVES = 10
SETTLE_S = 3.0  # how long a log may take to come to rest at its newest line
DEALS = 80  # deals tried until one has what a test needs

# How far the log's newest line is below what the log shows (0: at the bottom).
GAP = "() => { const log = document.querySelector('#log');"
GAP += " return Math.round(log.scrollHeight - log.scrollTop - log.clientHeight); }"


def create(base: str, edition: str, seats: list[str]) -> dict[str, Any]:
    """A game made through the API, ann (seat 0) to play first: its answer."""
    body = {"edition": edition, "seats": seats, "name": "ann", "first_player": 0}
    made = requests.post(f"{base}/games", json=body, timeout=10)
    assert made.status_code == 201, made.text
    answer: dict[str, Any] = made.json()
    return answer


def dealt(
    base: str, edition: str, seats: list[str], wanted: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """A game whose first answer to ann (her view and legal moves) is `wanted`: its answer."""
    for _ in range(DEALS):
        made = create(base, edition, seats)
        if wanted(api_view(base, made["game"]["id"], made["token"])):
            return made
    raise AssertionError(f"no deal of {DEALS} was the one wanted")


def hold(page: Page, base: str, made: dict[str, Any]) -> str:
    """This browser holds ann's seat; the game's id."""
    game = str(made["game"]["id"])
    held = {game: {"seat": made["seat"], "token": made["token"], "name": "ann", "at": 0}}
    page.goto(base + "/")
    page.evaluate("seats => localStorage.setItem('loveletter.seats', seats)", json.dumps(held))
    return game


def send(base: str, game: str, token: str, command: dict[str, Any]) -> int:
    """Send a command on the version seen now (again if a bot moved meanwhile); its status."""
    for _ in range(20):
        head = api_view(base, game, token)["game"]["version"]
        headers = {"Authorization": f"Bearer {token}", "If-Match": f'"{head}"',
                   "Idempotency-Key": uuid.uuid4().hex}  # fmt: skip
        sent = requests.post(f"{base}/games/{game}/commands", json=command, headers=headers,
                             timeout=10)  # fmt: skip
        if sent.status_code != 412:
            return sent.status_code
    return 412


def card_names(base: str, language: str, edition: str) -> dict[str, str]:
    """Each card's name in the language."""
    words = requests.get(f"{base}/editions?lang={language}", timeout=10).json()
    cards = next(found for found in words["editions"] if found["id"] == edition)["cards"]
    return {card["card"]: card["name"] for card in cards}


def gap_at_rest(page: Page) -> int:
    """The log's gap to its newest line once it stops changing (or after SETTLE_S)."""
    deadline = time.monotonic() + SETTLE_S
    gap = page.evaluate(GAP)
    while gap > 1 and time.monotonic() < deadline:
        page.wait_for_timeout(100)
        gap = page.evaluate(GAP)
    return int(gap)


def within_first_screen(page: Page, selector: str) -> bool:
    """Whether `selector` is wholly inside the viewport with the page scrolled to its top."""
    page.evaluate("window.scrollTo(0, 0)")
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]  # type: ignore[index]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_log_follows_the_newest_line_after_every_move(
    server: Served, contexts: Contexts, language: str
) -> None:
    """Against five bots (their moves arrive in bursts between ann's): after each of ann's moves
    the log shows its newest line; scrolled up, it stays where the reader is, and "newest"
    brings it back. On a phone the hand and the move fit the first screen, even holding the
    Bishop (the longest text in every language)."""
    page = contexts(locale=LOCALES[language]).page()
    made = dealt(server.base, "premium", ["human", *["heuristic"] * 5], holds_the_bishop)
    game = hold(page, server.base, made)
    page.goto(f"{server.base}/#/games/{game}")
    wait_for_turn(page)
    page.set_viewport_size(PHONE)
    assert within_first_screen(page, "[data-part='hand']"), "the hand is below a phone's screen"
    assert within_first_screen(page, "[data-part='move']"), "the move is below a phone's screen"
    screenshot(page, f"table-six-{language}")
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

    # Scrolled up to read, the log stays there as the game goes on, and offers the newest line.
    page.locator("#log").evaluate("log => log.scrollTo({top: 0})")
    newest = page.locator("[data-newest]")
    newest.wait_for()
    lines = page.locator("#log li").count()
    while page.locator("#log li").count() == lines and not page.locator("[data-game-over]").count():
        take_turn(page, rng)
        wait_for_turn(page)
    assert page.locator("#log").evaluate("log => log.scrollTop") == 0
    assert newest.is_visible()
    newest.click()
    assert gap_at_rest(page) == 0
    assert not newest.is_visible()


def aims_at_two(answer: dict[str, Any]) -> bool:
    """ann may play a card on either other player (chosen by tapping a seat)."""
    return any(
        {tuple(c.get("targets", [])) for c in answer["legal"] if c.get("card") == card}
        >= {(1,), (2,)}
        for card in answer["view"]["hand"]
    ) and not answer["puts_you_out"]  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_move_is_made_by_tapping_a_card_then_a_seat(
    server: Served, contexts: Contexts, language: str
) -> None:
    page = contexts(locale=LOCALES[language]).page()
    made = dealt(server.base, "2019", ["human", "heuristic", "heuristic"], aims_at_two)
    game = hold(page, server.base, made)
    answer = api_view(server.base, game, made["token"])
    legal = answer["legal"]
    card = next(c["card"] for c in legal if c.get("targets") == [2])
    page.goto(f"{server.base}/#/games/{game}")
    offered = page.locator("[data-hand] [data-choice='card']")
    offered.first.wait_for()
    playable = {c["card"] for c in legal}
    assert sorted(b.get_attribute("data-value") or "" for b in offered.all()) == sorted(
        json.dumps(c) for c in answer["view"]["hand"] if c in playable
    )  # each card in the hand that may be played (both, when two are alike), and those alone

    page.locator(f"[data-hand] [data-card='{card}'] button").first.click()
    choosable = page.locator(".seat.choosable")
    choosable.first.wait_for()
    assert {s.get_attribute("data-seat") for s in choosable.all()} == {
        str(c["targets"][0]) for c in legal if c["card"] == card and len(c.get("targets", [])) == 1
    }
    assert violations(page) == []
    screenshot(page, f"table-choosing-{language}")

    page.evaluate(ARRIVALS)
    with page.expect_request("**/commands") as sending:
        page.locator("[data-seat='2']").click()  # the seat itself, not a button
        if page.locator("[data-step='guess']").count():
            page.locator("[data-choice='guess']").first.click()
    sent = json.loads(sending.value.post_data or "{}")
    assert sent["card"] == card and sent["targets"] == [2], sent
    # The card lands on ann's discard pile with a motion.
    page.wait_for_function("() => window.arrivals.length > 0")
    assert ["0", card, "card-arrives"] in page.evaluate("window.arrivals")


# Every card that arrives on a discard pile from now on: [seat, card, its animation].
ARRIVALS = """() => {
  window.arrivals = [];
  new MutationObserver(() => {
    const arrived = '[data-pile-of] .card-small.arrived:not([data-seen])';
    for (const chip of document.querySelectorAll(arrived)) {
      chip.dataset.seen = '';
      window.arrivals.push([chip.closest('[data-pile-of]').dataset.pileOf, chip.dataset.card,
        getComputedStyle(chip).animationName]);
    }
  }).observe(document.body, { childList: true, subtree: true });
}"""


def holds_the_bishop(answer: dict[str, Any]) -> bool:
    return "bishop" in answer["view"]["hand"]


def holds_the_princess(answer: dict[str, Any]) -> bool:
    return "princess" in answer["view"]["hand"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_move_that_puts_you_out_asks_first(
    server: Served, contexts: Contexts, language: str
) -> None:
    watched = contexts(locale=LOCALES[language])
    page = watched.page()
    made = dealt(server.base, "2019", ["human", "heuristic"], holds_the_princess)
    game = hold(page, server.base, made)
    before = api_view(server.base, game, made["token"])["game"]["version"]
    princess = card_names(server.base, language, "2019")["princess"]
    page.goto(f"{server.base}/#/games/{game}")
    page.locator("[data-hand] [data-choice='card']").first.wait_for()
    asked = page.locator("[data-out]")

    page.locator("[data-hand] [data-card='princess'] button").click()
    asked.wait_for()
    assert princess in asked.inner_text()
    assert asked.get_by_role("alert").count() == 1
    assert violations(page) == []
    screenshot(page, f"table-out-{language}")
    page.locator("[data-cancel]").click()  # choose again: nothing is sent
    asked.wait_for(state="detached")
    page.locator("[data-hand] [data-choice='card']").first.wait_for()
    assert not [url for url in watched.urls if url.endswith("/commands")]
    assert api_view(server.base, game, made["token"])["game"]["version"] == before

    page.locator("[data-hand] [data-card='princess'] button").click()
    with page.expect_response("**/commands") as answered:
        page.locator("[data-confirm]").click()
    assert answered.value.status == 200
    assert answered.value.json()["view"]["round_winners"] == [1]  # ann was out: the bot won


def a_finished_game(base: str) -> tuple[str, str]:
    """A 2019 game against the heuristic bot played by random moves into its third round, then
    given up: its id and ann's token."""
    made = create(base, "2019", ["human", "heuristic"])
    game, token = str(made["game"]["id"]), str(made["token"])
    rng = random.Random(game)
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "the game did not reach its third round"
        seen = api_view(base, game, token)
        if seen["game"]["status"] == "over":
            return game, token
        if seen["view"]["round"] >= 3:
            break
        if seen["legal"]:
            send(base, game, token, rng.choice(seen["legal"]))
        else:
            time.sleep(0.05)  # the bot's turn
    assert send(base, game, token, {"type": "forfeit"}) == 200
    return game, token


def turns(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The replay's steps as the events give them: each round's deal, then each turn (from its
    turn_started to the event before the next step, or the game's end)."""
    steps: list[dict[str, Any]] = []
    step: dict[str, Any] | None = None
    for event in events:
        if event["type"] == "round_started":
            step = {"round": event["round"], "turn": 0, "last": event["version"]}
            steps.append(step)
        elif event["type"] == "turn_started" and step is not None:
            step = {"round": step["round"], "turn": step["turn"] + 1, "last": event["version"]}
            steps.append(step)
        elif step is not None:
            step["last"] = event["version"]
            if event["type"] == "game_ended":
                step = None
    return steps


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_replay_goes_by_round_and_turn(
    server: Served, contexts: Contexts, language: str
) -> None:
    page = contexts(locale=LOCALES[language]).page()
    game, token = a_finished_game(server.base)
    hold(page, server.base, {"game": {"id": game}, "seat": 0, "token": token})
    steps = turns(api_events(server.base, game, token))
    at = {(s["round"], s["turn"]): s["last"] for s in steps}
    replay = f"{server.base}/#/games/{game}/replay"

    def shown(round_: int, turn: int) -> None:
        """The page shows that turn: its address, its last version, the API's view then."""
        page.locator(f"#replay[data-step='r{round_}/t{turn}']").wait_for()
        assert page.url.endswith(f"/replay/r{round_}/t{turn}")
        assert int(page.locator("#replay").get_attribute("data-version") or 0) == at[(round_, turn)]
        check_matches_the_api(page, server.base, game, token)

    page.goto(replay)
    shown(1, 0)  # the first deal
    assert int(page.locator("#step").get_attribute("max") or 0) == len(steps) - 1
    page.locator("nav [data-round-link='r2']").click()  # the round jump
    shown(2, 0)
    played = max(turn for round_, turn in at if round_ == 2)
    for turn in range(1, min(played, 3) + 1):  # a play and all it caused is one step
        page.locator("[data-step-to='next']").click()
        shown(2, turn)
    screenshot(page, f"replay-turns-{language}")
    # A round's summary goes to its deal; a log line to its turn.
    page.locator(".rounds [data-round-link='1']").click()
    shown(1, 0)
    page.goto(f"{replay}/r2/t{played}")  # the address to share: opened anew, the same turn
    shown(2, played)
    first = next(index for index, s in enumerate(steps) if (s["round"], s["turn"]) == (1, 1))
    page.locator(f"#log a[data-step='{first}']").first.click()
    shown(1, 1)
    # An address naming a version still shows that version.
    middle = steps[len(steps) // 2]["last"] - 1
    page.goto(f"{replay}/{middle}")
    page.locator(f"#replay[data-version='{middle}']").wait_for()
    check_matches_the_api(page, server.base, game, token)
