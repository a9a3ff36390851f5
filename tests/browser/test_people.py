"""Words for people, and ranked play from the page, in every language: a game is named by its
edition and its players (never its id), bots by their level, the weakest listed first; a deal's
fairness is a plain mark with its fingerprint behind "How we know"; My games names editions; a
rating is one number with a line on what it means; Play now offers a ranked game, and the
leaderboard shows the reader's own standing, provisional until they qualify."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
import requests
from playwright.sync_api import Page

from tests.browser.conftest import Contexts, screenshot
from tests.browser.player import api_view
from tests.browser.test_accessibility import create, forfeit, hold
from tests.browser.test_ratings import bearer, guest, rated_pair
from tests.e2e.conftest import Served
from tests.test_catalogues import LANGUAGES, catalogue

LOCALES = {"en": "en-US", "ja": "ja-JP", "ko": "ko-KR", "vi": "vi-VN"}
PLAYERS = {"en": "ann", "ja": "さくら", "ko": "민준", "vi": "Lan"}
FRIENDS = {"en": "bob", "ja": "はると", "ko": "서연", "vi": "Minh"}
WEAKEST_FIRST = ["random", "easy", "medium", "heuristic", "hard", "search"]
VERIFIED = {
    "en": "✓ Fair deal, verified",
    "ja": "✓ 公正な配札\uff08確認済み\uff09",
    "ko": "✓ 공정한 배분, 확인됨",
    "vi": "✓ Chia bài công bằng, đã xác minh",
}
PROVISIONAL = {"en": "Provisional", "ja": "暫定", "ko": "잠정", "vi": "Tạm tính"}
JARGON = re.compile("[\u03bc\u03c3]")  # the rating's mu and sigma
HEX = re.compile(r"(?<![0-9A-Za-z])[0-9a-f]{12,}(?![0-9A-Za-z])")  # game ids, fingerprints
ROUND_SECONDS = 60  # bots playing a round out on a busy machine
RECORDED_SECONDS = 20  # a finished ranked game reaching the leaderboard


# Log lines of a few events at a table of ann, a hard bot and two medium ones (the page's own
# modules, as loaded: its language and its editions' words).
LOG_LINES = """async () => {
  const words = await import('/web/js/words.js');
  const cards = await import('/web/js/cards.js');
  const seats = [[null, 'ann'], ['hard', 'hard-bot-2'], ['medium', 'medium-bot-3'],
    ['medium', 'medium-bot-4']].map(([bot, name], seat) => ({ seat, name, bot, open: false }));
  const names = { names: cards.seatNames(seats), aliases: cards.botAliases(seats) };
  const started = { type: 'game_started', version: 1, players: seats.map((seat) => seat.name) };
  const guessed = (version, guess) => ({
    type: 'card_played', version, seat: 1, card: 'guard', targets: [0], guess, look: null });
  return [
    ...words.logLines([started], { edition: 'classic', ...names }),
    ...words.logLines([guessed(2, 'priest')], { edition: 'classic', ...names }),
    ...words.logLines([guessed(3, 2)], { edition: 'premium', ...names }),
  ].map((line) => line.text);
}"""


def words_of(base: str, language: str, edition: str) -> list[dict[str, Any]]:
    """An edition's cards as GET /editions?lang= says them."""
    answer = requests.get(f"{base}/editions", params={"lang": language}, timeout=10).json()
    cards: list[dict[str, Any]] = next(e for e in answer["editions"] if e["id"] == edition)["cards"]
    return cards


def shown_text(page: Page) -> str:
    """The text a reader sees on the page (closed details and hidden parts left out)."""
    return page.locator("body").inner_text()


def be_player(page: Page, base: str, player: dict[str, Any], name: str) -> None:
    """Make this browser play as `player` (a guest made through the API)."""
    page.goto(base + "/")
    kept = {"id": player["id"], "name": name, "token": player["token"]}
    page.evaluate("p => localStorage.setItem('loveletter.player', p)", json.dumps(kept))


def wait_until(page: Page, seconds: float, what: str, check: Any) -> None:
    """Reload the page until `check()` holds, for at most `seconds`."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"waited {seconds} s for {what}"
        page.wait_for_timeout(300)
        page.reload()


@pytest.mark.parametrize("language", LANGUAGES)
def test_games_bots_deals_and_editions_are_named_for_people_in(
    server: Served, contexts: Contexts, language: str
) -> None:
    messages = catalogue(language)
    me = PLAYERS[language]
    page = contexts(locale=LOCALES[language]).page()

    # A table of a person and three bots, two of them of one level.
    seats = ["human", "hard", "medium", "medium"]
    made = create(server.base, "classic", seats, me, first_player=0)
    game, token = made["game"]["id"], made["token"]
    held = {game: {"seat": 0, "token": token, "name": me, "at": time.time() * 1000}}
    hold(page, server.base, held)
    page.goto(f"{server.base}/#/games/{game}")
    page.locator("#moves [data-choice]").first.wait_for()
    heading = page.locator("#game-title").inner_text()
    medium = messages["bot.medium"]
    hard = messages["bot.hard"]
    for part in (messages["edition.classic"], me, hard, f"{medium} 3", f"{medium} 4"):
        assert part in heading, (part, heading)
    assert hard in (page.locator("ul.seats > li").nth(1).get_attribute("aria-label") or "")
    text = shown_text(page)
    assert "-bot-" not in text and not HEX.search(text), text

    # The log names a bot by its level and a guess by its card or number.
    lines = page.evaluate(LOG_LINES)
    cards = words_of(server.base, language, "classic")
    priest = next(card["name"] for card in cards if card["card"] == "priest")
    assert hard in lines[0] and f"{medium} 3" in lines[0], lines
    assert hard in lines[1] and priest in lines[1] and "ann" in lines[1], lines
    assert hard in lines[2] and "2" in lines[2] and "premium" not in lines[2], lines

    # The deal: a plain mark, the fingerprint behind "How we know".
    commitment = api_view(server.base, game, token)["view"]["commitment"]
    mark = page.locator("[data-sealed]")
    assert messages["fairness.sealed"] in mark.inner_text()
    mark.locator("summary").click()
    assert mark.locator("code").inner_text() == commitment
    screenshot(page, f"people-table-{language}")

    # The lobby: bots by level, the weakest first; an open table named by edition and players.
    waiting = create(server.base, "2019", ["human", "human", "easy"], me)["game"]["id"]
    page.goto(server.base + "/")
    row = page.locator(f"#lobby [data-game='{waiting}']")
    row.wait_for()
    options = page.locator("#seat-1 option")
    assert [option.get_attribute("value") for option in options.all()] == ["human", *WEAKEST_FIRST]
    assert options.all_inner_texts()[1:] == [messages[f"bot.{kind}"] for kind in WEAKEST_FIRST]
    assert messages["bot.easy"] in row.inner_text() and waiting not in row.inner_text()
    join = row.locator("button.primary").get_attribute("aria-label") or ""
    assert messages["edition.2019"] in join and me in join and waiting not in join

    # A round played out by bots: its deal verified, in plain words.
    body = {"edition": "2019", "seats": ["easy", "medium"]}
    bots = requests.post(f"{server.base}/games", json=body, timeout=10)
    assert bots.status_code == 201, bots.text
    page.goto(f"{server.base}/#/games/{bots.json()['game']['id']}")
    verified = page.locator("[data-verified='true']").first  # in an older round's closed summary
    verified.wait_for(state="attached", timeout=ROUND_SECONDS * 1000)
    assert verified.text_content() == VERIFIED[language]
    assert not HEX.search(page.locator(".rounds").inner_text())

    # My games: each game by its edition's name and its players.
    player = guest(server.base, me)
    body = {"edition": "2019-classic", "seats": ["human", "easy"], "name": me}
    headers = bearer(player["token"])
    mine = requests.post(f"{server.base}/games", json=body, headers=headers, timeout=10)
    assert mine.status_code == 201, mine.text
    be_player(page, server.base, player, me)
    page.goto(f"{server.base}/#/me")
    item = page.locator(f"#my-games [data-game='{mine.json()['game']['id']}']")
    item.wait_for()
    assert messages["edition.2019-classic"] in item.inner_text()
    assert messages["bot.easy"] in item.inner_text()
    assert "2019-classic" not in item.inner_text() and not HEX.search(shown_text(page))
    screenshot(page, f"my-games-{language}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_ranked_play_from_the_page_and_ones_own_standing_in(
    server: Served, contexts: Contexts, language: str
) -> None:
    messages = catalogue(language)
    names = (PLAYERS[language], FRIENDS[language])
    pages = [contexts(locale=LOCALES[language]).page() for _ in names]
    players = [guest(server.base, name) for name in names]
    for page, player, name in zip(pages, players, names, strict=True):
        be_player(page, server.base, player, name)

    # Before any ranked game: no standing yet, and how to get one.
    ann = pages[0]
    ann.goto(f"{server.base}/#/leaderboards/2019")
    standing = ann.locator("#standing")
    standing.wait_for()
    assert standing.get_attribute("data-rank") == ""
    assert messages["edition.2019"] in standing.inner_text() and "5" in standing.inner_text()

    # Play now, ranked: people only (no bots to wait for), one sentence on what it means.
    for page in pages:
        page.goto(server.base + "/")
        form = page.locator("#quickplay")
        form.locator("#quick-edition").select_option("2019")
        form.locator("#quick-players").select_option("2")
        form.locator("#quick-ranked").check()
        assert form.locator("#quick-bots").is_disabled()
        assert form.locator("#quick-bots").input_value() == ""
        form.locator("#quick-ranked-hint", has_text="5").wait_for()  # the leaderboard's minimum
        ranked = form.locator("#quick-ranked")
        assert ranked.get_attribute("aria-describedby") == "quick-ranked-hint"
        if page is ann:
            screenshot(page, f"play-now-ranked-{language}")
        form.locator("button[type=submit]").click()
    for page in pages:
        page.locator("#table[data-status='playing']").wait_for()
    game = pages[0].url.rsplit("/", 1)[1]
    assert pages[1].url.rsplit("/", 1)[1] == game
    assert api_view(server.base, game, None)["game"]["ranked"] is True

    # bob gives up at once: the one who left takes the loss, one rated game, below the
    # leaderboard's minimum: provisional; a game not really played moves no stayer's rating.
    bob = pages[1]
    held = json.loads(bob.evaluate("localStorage.getItem('loveletter.seats')"))
    forfeit(server.base, game, held[game]["token"])
    bob.goto(f"{server.base}/#/leaderboards/2019")
    wait_until(bob, RECORDED_SECONDS, "bob's ranked game on his standing",
               lambda: PROVISIONAL[language] in bob.locator("#standing").inner_text())  # fmt: skip
    assert bob.locator("#standing").get_attribute("data-rank") == ""
    ann.goto(f"{server.base}/#/leaderboards/2019")
    ann.locator("#standing").wait_for()
    assert PROVISIONAL[language] not in ann.locator("#standing").inner_text()

    # A player with enough ranked games: their rank, their line marked, a rating in words.
    una, _ = rated_pair(server.base, f"Una-{language}", f"Vic-{language}")
    be_player(ann, server.base, una, f"Una-{language}")
    asked = {"player": una["id"], "limit": 1}
    answer = requests.get(f"{server.base}/leaderboards/2019", params=asked, timeout=10).json()
    rank = answer["standing"]["rank"]
    ann.goto(f"{server.base}/#/leaderboards/2019")
    ann.locator(f"#standing[data-rank='{rank}']").wait_for()
    ann.locator(f"#leaderboard tr.you[data-player='{una['id']}']").wait_for()
    assert not JARGON.search(shown_text(ann))
    screenshot(ann, f"leaderboard-standing-{language}")
    ann.locator("#standing a").click()
    ann.locator("#player-record").wait_for()
    assert messages["rating.explained"] in ann.locator("[data-edition='2019']").inner_text()
    assert not JARGON.search(shown_text(ann))
