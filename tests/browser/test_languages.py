"""The client in Japanese, Korean and Vietnamese: a whole game against a bot in each, every page
screenshot at 375 and 1280 px (no text overflowing its box, no console error), no English left
on a page; the language from the browser, switchable on the page and kept."""

from __future__ import annotations

import json
import random
import re

import pytest
import requests
from playwright.sync_api import Page

from tests.browser.conftest import Contexts, screenshot
from tests.browser.player import api_view, create_game, held_seats, play_to_the_end, wait_for_turn
from tests.e2e.conftest import Served
from tests.test_catalogues import catalogue

LOCALES = {"ja": "ja-JP", "ko": "ko-KR", "vi": "vi-VN"}
PLAYERS = {"ja": "さくら", "ko": "민준", "vi": "Lan"}
FRIENDS = {"ja": "はると", "ko": "서연", "vi": "Minh"}
# A relative time in each language ("3 minutes ago", "now"), as Intl writes them.
AGO = {
    "ja": r"(\d+\s*(秒|分|時間|日)前|今)",
    "ko": r"(\d+\s*(초|분|시간|일)\s*전|지금)",
    "vi": r"(\d+\s*(giây|phút|giờ|ngày)\s*trước|bây giờ)",
}

# Every text of the page a reader meets: text nodes (but the language menu, which names each
# language in its own words), accessible names, tooltips and the title.
TEXTS = """() => {
  const texts = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest('#language, script, style, noscript')) continue;
    if (node.textContent.trim()) texts.push(node.textContent.trim());
  }
  for (const element of document.querySelectorAll('[aria-label], [title]')) {
    if (element.closest('#language')) continue;
    texts.push(element.getAttribute('aria-label') || '', element.getAttribute('title') || '');
  }
  return texts.filter(Boolean);
}"""
# Words that are the same in every language: names of things, not sentences.
ANY_LANGUAGE = ("API", "SHA-256", "https", "localhost", "JSON", "Love Letter", "Premium", "token")
HEX = re.compile(r"(?<![0-9A-Za-z])[0-9a-f]{8,}(?![0-9A-Za-z])")  # ids and hashes
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def english_left(page: Page, language: str, names: list[str]) -> list[str]:
    """Texts of the page still in English: an English message where the language has its own,
    or (in Japanese and Korean) any Latin word but names, ids and hashes."""
    english, mine = catalogue("en"), catalogue(language)
    sentences = {
        text for key, text in english.items() if "{" not in text and text != mine[key]
    }  # fmt: skip
    left = []
    for text in page.evaluate(TEXTS):
        if text in sentences:
            left.append(text)
        elif language in ("ja", "ko"):
            rest = HEX.sub("", text)
            for word in sorted([*names, *ANY_LANGUAGE], key=len, reverse=True):
                rest = rest.replace(word, "")
            if LATIN_WORD.search(rest):
                left.append(text)
    return left


def seat_names(base: str, game: str) -> list[str]:
    """The names of every seat of a game (players' and bots')."""
    view = api_view(base, game, None)
    return [str(seat["name"]) for seat in view["game"]["seats"] if seat["name"]]


def lobby_names(base: str) -> list[str]:
    """The names at every open table the lobby shows (other tests' players among them)."""
    listed = requests.get(f"{base}/games?status=open&limit=20", timeout=10).json()["games"]
    return [name for game in listed for name in seat_names(base, game["id"])]


@pytest.mark.parametrize("language", sorted(LOCALES))
def test_a_game_against_a_bot_is_played_to_the_end_in(
    server: Served, contexts: Contexts, language: str
) -> None:
    host, guest = contexts(locale=LOCALES[language]), contexts(locale=LOCALES[language])
    page, friend = host.page(), guest.page()
    me = PLAYERS[language]

    # The lobby speaks the browser's language; an open table waits for a friend.
    waiting = create_game(page, server.base, me, "classic", ["human", "human"])
    assert page.evaluate("document.documentElement.lang") == language
    page.locator("#table[data-status='open']").wait_for()
    assert english_left(page, language, [me]) == []
    screenshot(page, f"waiting-{language}")
    friend.goto(f"{server.base}/#/join/{waiting}")
    friend.locator("#invitation").wait_for()
    assert english_left(friend, language, [me]) == []
    screenshot(friend, f"invitation-{language}")
    page.goto(server.base + "/")
    page.locator(f"#lobby [data-game='{waiting}']").wait_for()
    assert re.search(AGO[language], page.locator(".mine time").first.inner_text())
    assert english_left(page, language, [me, *lobby_names(server.base)]) == []
    screenshot(page, f"lobby-{language}")

    # A 2019 game against the heuristic bot, played to its end by clicking.
    game = create_game(page, server.base, me, "2019", ["human", "heuristic"])
    token = held_seats(page)[game]["token"]
    names = seat_names(server.base, game)
    wait_for_turn(page)
    assert english_left(page, language, names) == []
    screenshot(page, f"table-{language}")
    play_to_the_end([page], random.Random(language))
    assert api_view(server.base, game, token)["game"]["status"] == "over"
    page.locator("[data-game-over]").wait_for()
    log = page.locator("#log").inner_text()
    if language in ("ja", "ko"):
        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]", log), log[:200]
    assert english_left(page, language, names) == []
    screenshot(page, f"table-over-{language}")

    page.locator(f"a[href='#/games/{game}/replay']").first.click()
    page.locator("#replay[data-step='r1/t0']").wait_for()  # the first deal
    middle = api_view(server.base, game, token)["game"]["version"] // 2
    page.goto(f"{server.base}/#/games/{game}/replay/{middle}")
    page.locator(f"#replay[data-version='{middle}'] [data-hand]").wait_for()
    assert english_left(page, language, names) == []
    screenshot(page, f"replay-{language}")


def test_the_language_is_chosen_on_the_page_and_kept(server: Served, contexts: Contexts) -> None:
    page = contexts(locale="en-US").page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(server.base + "/")
    page.get_by_role("heading", name="Lobby").wait_for()
    assert page.evaluate("document.documentElement.lang") == "en"

    page.get_by_label("Language").select_option("ja")
    page.get_by_role("heading", name="ロビー").wait_for()
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert page.evaluate("localStorage.getItem('loveletter.language')") == "ja"
    assert any("/editions?lang=ja" in url for url in asked)
    assert page.locator("#edition option[value='classic']").inner_text().startswith("クラシック")

    page.reload()  # the choice is kept, over the browser's own language
    page.get_by_role("heading", name="ロビー").wait_for()
    page.get_by_label("言語").select_option("vi")
    page.get_by_role("heading", name="Sảnh").wait_for()
    page.get_by_label("Ngôn ngữ").select_option("en")
    page.get_by_role("heading", name="Lobby").wait_for()
    assert page.evaluate("localStorage.getItem('loveletter.language')") == "en"


@pytest.mark.parametrize(("locale", "language"), [("ko", "ko"), ("vi-VN", "vi"), ("fr-FR", "en")])
def test_the_browsers_language_is_matched(
    server: Served, contexts: Contexts, locale: str, language: str
) -> None:
    page = contexts(locale=locale).page()
    page.goto(server.base + "/")
    page.locator("#lobby").wait_for()
    assert page.evaluate("document.documentElement.lang") == language
    assert page.locator("h1").inner_text() == catalogue(language)["lobby.title"]
    assert page.locator("#language").input_value() == language


def test_a_catalogue_that_can_not_be_read_leaves_the_page_in_english(
    server: Served, contexts: Contexts
) -> None:
    watched = contexts(locale="ja-JP")
    page = watched.page()
    page.route("**/web/i18n/ja.json", lambda route: route.fulfill(status=503, body="down"))
    watched.allow(r"status of 503")  # Chromium's own note of the failed request
    page.goto(server.base + "/")
    page.get_by_role("heading", name="Lobby").wait_for()
    assert page.evaluate("document.documentElement.lang") == "en"


def test_numbers_lists_and_times_follow_the_language(server: Served, contexts: Contexts) -> None:
    """Intl writes the durations of the turn-time menu and the lists of the log."""
    page = contexts(locale="ko-KR").page()
    page.goto(server.base + "/")
    page.locator("#lobby").wait_for()
    times = page.locator("#turn-time option").all_inner_texts()
    assert "30초" in times and "1일" in times, times
    created = requests.post(
        f"{server.base}/games",
        json={"edition": "2019", "seats": ["human", "human", "random"], "name": "하나"},
        timeout=10,
    ).json()
    seats = {created["game"]["id"]: {"seat": 0, "token": created["token"], "name": "하나"}}
    page.evaluate("seats => localStorage.setItem('loveletter.seats', seats)", json.dumps(seats))
    page.goto(f"{server.base}/#/games/{created['game']['id']}")
    page.locator("#table[data-status='open']").wait_for()
    assert page.locator("#waiting-title").inner_text() == "1명을 더 기다리는 중"
