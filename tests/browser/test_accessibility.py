"""Pages anyone can use: axe-core (axe-playwright-python) finds no serious or critical violation
on any of our pages in any language; a whole game is played with the keyboard alone; cards and
seats have accessible names; the focus is visible; motion follows prefers-reduced-motion.
(/docs and /redoc are third-party pages, not checked here.)"""

from __future__ import annotations

import json
import random
import re
import time
import uuid
from typing import Any

import pytest
import requests
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

from tests.browser.conftest import Contexts
from tests.browser.player import GAME_SECONDS, api_view, game_id, over, shown_name, version
from tests.browser.test_ratings import rated_pair
from tests.e2e.conftest import Served
from tests.test_catalogues import LANGUAGES

AXE = Axe()
SERIOUS = ("serious", "critical")


def violations(page: Page) -> list[str]:
    """The serious and critical axe violations of the page as it is now."""
    found = AXE.run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:4]}"
        for v in found
        if v["impact"] in SERIOUS
    ]


def create(base: str, edition: str, seats: list[str], name: str, **settings: Any) -> dict[str, Any]:
    """A game made through the API: its answer (game, seat, token)."""
    body = {"edition": edition, "seats": seats, "name": name, **settings}
    created = requests.post(f"{base}/games", json=body, timeout=10)
    assert created.status_code == 201, created.text
    answer: dict[str, Any] = created.json()
    return answer


def forfeit(base: str, game: str, token: str) -> None:
    """The seat gives the game up (so it is over), asking again while bots move meanwhile."""
    for _ in range(20):
        head = api_view(base, game, token)["game"]["version"]
        headers = {
            "Authorization": f"Bearer {token}",
            "If-Match": f'"{head}"',
            "Idempotency-Key": uuid.uuid4().hex,
        }
        sent = requests.post(
            f"{base}/games/{game}/commands", json={"type": "forfeit"}, headers=headers, timeout=10
        )
        if sent.status_code != 412:  # 412: a bot moved since the version read
            break
    assert sent.status_code == 200, sent.text


def hold(page: Page, base: str, seats: dict[str, dict[str, Any]]) -> None:
    """Make this browser hold these seats (as the lobby would have remembered them)."""
    page.goto(base + "/")
    page.evaluate("seats => localStorage.setItem('loveletter.seats', seats)", json.dumps(seats))


def waiting_for_a_game(page: Page, base: str) -> str:
    """Make this browser's player wait in the quick-play queue (for a table of eight people,
    which nobody else asks for); the entry's id."""
    made = requests.post(f"{base}/players", json={"name": "ann"}, timeout=10).json()
    player = {"id": made["player"]["id"], "name": "ann", "token": made["token"]}
    page.evaluate("p => localStorage.setItem('loveletter.player', p)", json.dumps(player))
    body = {"edition": "premium", "seats": [8]}
    headers = {"Authorization": f"Bearer {made['token']}"}
    entered = requests.post(f"{base}/queue", json=body, headers=headers, timeout=10)
    assert entered.status_code == 201, entered.text
    return str(entered.json()["id"])


def playing_two_cards(base: str) -> dict[str, Any]:
    """A 2019 game where ann (seat 0) is to play and may play either of two different cards:
    the deal is random, and two of a kind, or a Countess that must be played, leave one."""
    for _ in range(50):
        playing = create(base, "2019", ["human", "heuristic"], "ann", first_player=0)
        legal = api_view(base, playing["game"]["id"], playing["token"])["legal"]
        if len({command.get("card") for command in legal}) == 2:
            return playing
    raise AssertionError("no deal of 50 gave ann two different cards to play")


@pytest.fixture(scope="module")
def tables(server: Served) -> dict[str, Any]:
    """An open table, a game being played (the seat's turn) and a finished one, all with ann."""
    waiting = create(server.base, "classic", ["human", "human", "random"], "ann")
    playing = playing_two_cards(server.base)
    bots = ["random", "random", "heuristic", "random"]
    finished = create(server.base, "premium", ["human", *bots], "ann")
    forfeit(server.base, finished["game"]["id"], finished["token"])
    seats = {
        answer["game"]["id"]: {
            "seat": answer["seat"],
            "token": answer["token"],
            "name": "ann",
            "at": time.time() * 1000,
        }
        for answer in (waiting, playing, finished)
    }
    rated, _ = rated_pair(server.base, "Wen", "Xia")
    return {"seats": seats, "waiting": waiting, "playing": playing, "finished": finished,
            "rated": rated["id"]}  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_has_a_serious_axe_violation(
    server: Served, contexts: Contexts, tables: dict[str, Any], language: str
) -> None:
    seat, guest = contexts(), contexts()
    page, visitor = seat.page(), guest.page()
    hold(page, server.base, tables["seats"])
    entry = waiting_for_a_game(page, server.base)
    for each in (page, visitor):
        each.goto(server.base + "/")
        each.evaluate("code => localStorage.setItem('loveletter.language', code)", language)
        each.reload()  # the page reads the stored language when it loads
    waiting, playing = tables["waiting"]["game"]["id"], tables["playing"]["game"]["id"]
    finished = tables["finished"]["game"]["id"]
    pages = {  # the entry first: a player not seen for 30 s is dropped from the queue
        "waiting for a game": (page, f"/#/queue/{entry}", "#queue[aria-busy='true'] #queue-waited"),
        "lobby": (page, "/#/", "#lobby [data-game]"),
        "waiting room": (page, f"/#/games/{waiting}", "#table[data-status='open']"),
        "invitation": (visitor, f"/#/join/{waiting}", "#invitation form"),
        "table, the seat's turn": (page, f"/#/games/{playing}", "#moves [data-choice]"),
        "table, watching": (visitor, f"/#/games/{playing}", "#table [data-board] .seats"),
        "table, game over": (page, f"/#/games/{finished}", "[data-game-over]"),
        "replay": (page, f"/#/games/{finished}/replay/5", "#replay[data-version='5']"),
        "replay, by turn": (
            page,
            f"/#/games/{finished}/replay/r1/t1",
            "#replay[data-step='r1/t1']",
        ),
        "nothing here": (visitor, "/#/nowhere", "main h1"),
        "my games, as nobody yet": (visitor, "/#/me", "#guest"),
        "leaderboard": (visitor, "/#/leaderboards/2019", "#leaderboard tbody tr"),
        "leaderboard, nobody yet": (visitor, "/#/leaderboards/premium", "#leaderboard-empty"),
        "a player's record": (visitor, f"/#/players/{tables['rated']}", "svg.rating-chart"),
        "rules": (visitor, "/#/rules", "#rules .rules-editions"),
        "an edition's rules": (visitor, "/#/rules/premium", "#rules[data-edition='premium'] li"),
    }
    found = {}
    for name, (where, path, ready) in pages.items():
        where.goto(server.base + path)
        where.locator(ready).first.wait_for()
        assert where.evaluate("document.documentElement.lang") == language
        where.locator("details").evaluate_all("all => all.forEach((d) => (d.open = true))")
        found[name] = violations(where)
    assert found == {name: [] for name in pages}


def test_axe_finds_what_it_looks_for(server: Served, page: Page) -> None:
    """The check above can fail: a nameless button and grey-on-grey text planted in the lobby."""
    page.goto(server.base + "/")
    page.locator("#lobby").wait_for()
    assert violations(page) == []
    page.locator("#lobby").evaluate(
        """lobby => lobby.append(Object.assign(document.createElement('button'), {className: 'x'}),
             Object.assign(document.createElement('p'), {textContent: 'faint',
               style: 'color: #bbb; background: #ccc'}))"""
    )
    found = " ".join(violations(page))
    assert "button-name" in found and "color-contrast" in found, found


def test_a_whole_game_is_played_with_the_keyboard_alone(server: Served, contexts: Contexts) -> None:
    """From the lobby's form to the game's end: Tab, arrow keys, Enter and Space, no click."""
    page = contexts().page()
    keys = page.keyboard
    page.goto(server.base + "/")
    page.locator("#lobby").wait_for()

    def tab_to(selector: str, presses: int = 60) -> None:
        for _ in range(presses):
            if page.evaluate("s => document.activeElement?.matches(s) ?? false", selector):
                return
            keys.press("Tab")
        raise AssertionError(f"Tab never reached {selector}")

    tab_to("#player-name")
    keys.type("kim")
    tab_to("#edition")
    keys.press("ArrowDown")  # classic -> 2019
    assert page.locator("#edition").input_value() == "2019"
    tab_to("#create [type=submit]")
    keys.press("Enter")
    page.locator("#table").wait_for()
    game = game_id(page)

    rng = random.Random(7)
    moves = 0
    deadline = time.monotonic() + GAME_SECONDS
    offered = "#moves [data-choice], #moves [data-confirm], #moves [data-cancel]"
    while not over(page):
        assert time.monotonic() < deadline, f"the game did not end in {GAME_SECONDS} s"
        if not page.locator(offered).count():
            page.wait_for_timeout(50)
            continue
        before = version(page)
        tab_to(offered)
        # A card of the hand, a player, a name (or a yes to a move that puts the seat out):
        # each choice puts the focus on the next question, until the move is sent.
        while version(page) == before:
            assert time.monotonic() < deadline, "the keyboard could not finish a move"
            if page.evaluate(f"document.activeElement?.matches('{offered}') ?? false"):
                for _ in range(rng.randrange(4)):
                    keys.press(rng.choice(["ArrowRight", "ArrowDown"]))
                keys.press(rng.choice(["Enter", " "]))
            else:
                page.wait_for_timeout(50)  # sent: the answer is on its way
        moves += 1
    assert moves > 0
    final = api_view(server.base, game, None)
    assert final["game"]["status"] == "over"
    winners = [shown_name(final["view"]["players"][seat]) for seat in final["view"]["game_winners"]]
    banner = page.locator("[data-game-over] h2").inner_text()
    assert all(name in banner for name in winners), (banner, winners)


def test_the_arrow_keys_move_along_the_choices(
    server: Served, contexts: Contexts, tables: dict[str, Any]
) -> None:
    page = contexts().page()
    hold(page, server.base, tables["seats"])
    page.goto(f"{server.base}/#/games/{tables['playing']['game']['id']}")
    choices = page.locator("[data-hand] [data-choice='card']")
    choices.first.wait_for()
    count = choices.count()
    assert count == 2  # the two cards of the seat's hand
    choices.first.focus()
    page.keyboard.press("ArrowRight")
    assert choices.nth(1).evaluate("button => button === document.activeElement")
    page.keyboard.press("ArrowRight")  # round to the first again
    assert choices.nth(0).evaluate("button => button === document.activeElement")
    page.keyboard.press("End")
    assert choices.nth(count - 1).evaluate("button => button === document.activeElement")


@pytest.mark.parametrize("language", ["en", "ja"])
def test_cards_and_seats_have_accessible_names(
    server: Served, contexts: Contexts, tables: dict[str, Any], language: str
) -> None:
    page = contexts(locale=language).page()
    hold(page, server.base, tables["seats"])
    game = tables["playing"]["game"]["id"]
    page.goto(f"{server.base}/#/games/{game}")
    page.locator("#moves [data-choice]").first.wait_for()
    view = api_view(server.base, game, tables["playing"]["token"])["view"]
    words = requests.get(f"{server.base}/editions?lang={language}", timeout=10).json()
    cards = {c["card"]: c for c in next(e for e in words["editions"] if e["id"] == "2019")["cards"]}
    hand = page.locator("[data-hand]")
    for card in view["hand"]:
        name = cards[card]["name"]
        # The label starts with the name, then its rank in brackets (full-width in Japanese):
        # the King's name "王" begins the Prince's "王子" too.
        label = re.compile("^" + re.escape(name) + r"\s*[(\uff08]")
        named = hand.get_by_role("listitem", name=label)
        assert named.count() >= 1, (card, name)
        assert cards[card]["effect"] in (named.first.get_attribute("aria-label") or "")
    seats = page.locator("ul.seats")
    for seat in view["seats"]:  # each named for people: a bot by its level
        name = re.compile(re.escape(shown_name(seat["name"], language)))
        assert seats.get_by_role("listitem", name=name).count() == 1
    for card in view["face_up"]:  # the small cards are images named by their card
        name = cards[card]["name"]
        assert page.locator("[data-face-up]").get_by_role("img", name=re.compile(name)).count()


def test_the_focus_is_visible(server: Served, contexts: Contexts, tables: dict[str, Any]) -> None:
    """Each control the Tab key reaches on the lobby and the table draws a visible outline."""
    page = contexts().page()
    hold(page, server.base, tables["seats"])
    playing = f"/#/games/{tables['playing']['game']['id']}"
    for path, ready in (("/#/", "#lobby [data-game]"), (playing, "#moves [data-choice]")):
        page.goto(server.base + path)
        page.locator(ready).first.wait_for()
        page.locator("body").evaluate("body => body.focus()")
        seen = 0
        for _ in range(25):
            page.keyboard.press("Tab")
            outline = page.evaluate(
                """() => { const s = getComputedStyle(document.activeElement);
                  return [document.activeElement.tagName, s.outlineStyle, s.outlineWidth]; }"""
            )
            if outline[0] == "BODY":
                continue
            assert outline[1] != "none" and float(outline[2].removesuffix("px")) >= 2, outline
            seen += 1
        assert seen >= 10, path


MOTION = """() => {
  const turn = document.querySelector('[data-turn].yours');
  const button = document.querySelector('#moves [data-choice]');
  const arrived = document.querySelector('.arrived');
  return {
    animation: getComputedStyle(turn).animationName,
    transition: getComputedStyle(button).transitionDuration,
    arrival: arrived ? getComputedStyle(arrived).animationName : 'nothing arrived',
    scrolling: getComputedStyle(document.querySelector('#log')).scrollBehavior,
  };
}"""


def test_motion_follows_prefers_reduced_motion(
    server: Served, contexts: Contexts, tables: dict[str, Any]
) -> None:
    """Your turn pulses, buttons ease, a card played or drawn arrives with a short motion; none
    of it under prefers-reduced-motion. The log never scrolls smoothly (a smooth scroll under
    way when the next line comes reads as the reader having scrolled up)."""
    game = tables["playing"]["game"]["id"]
    moving, still = contexts(), contexts(reduced_motion="reduce")
    shown = {}
    for name, watched in (("moving", moving), ("still", still)):
        page = watched.page()
        hold(page, server.base, tables["seats"])
        page.goto(f"{server.base}/#/games/{game}")
        page.locator("#moves [data-choice]").first.wait_for()
        # A card arrives as the table sees it: the last one drawn, shown again as new.
        page.locator("[data-hand] .card").last.evaluate("card => card.classList.add('arrived')")
        shown[name] = page.evaluate(MOTION)
    assert shown["moving"]["animation"] == "your-turn"
    assert shown["moving"]["transition"] != "0s"
    assert shown["moving"]["arrival"] == "card-drawn"
    still = {"animation": "none", "transition": "0s", "arrival": "none", "scrolling": "auto"}
    assert shown["still"] == still
    assert shown["moving"]["scrolling"] == "auto"
