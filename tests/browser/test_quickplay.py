"""Quick play in the browser: "Play now" in the lobby, the waiting page, and the table once
matched; with bots at once, with another person, and cancelled."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import Contexts, screenshot
from tests.e2e.conftest import Served


def play_now(page: Page, base: str, name: str, edition: str, players: str, bots: str) -> None:
    """Ask for a game from the lobby (as a new guest named `name`)."""
    page.goto(base + "/#/")
    page.locator("#quickplay").wait_for()
    page.get_by_label("Your name").fill(name)
    form = page.locator("#quickplay")
    form.get_by_label("Edition").select_option(edition)
    form.get_by_label("Players").select_option(label=players)
    form.get_by_label("Bots fill the empty seats").select_option(label=bots)
    form.get_by_role("button", name="Play now").click()


def test_play_now_with_bots_at_once_goes_to_a_started_table(
    server: Served, contexts: Contexts
) -> None:
    page = contexts().page()
    play_now(page, server.base, "quinn", "2019", "3 players", "At once")
    table = page.locator("#table[data-status='playing']")
    table.wait_for()
    assert "#/games/" in page.url
    seats = page.evaluate("() => JSON.parse(localStorage.getItem('loveletter.seats'))")
    game = page.url.rsplit("/", 1)[1]
    assert seats[game]["seat"] == 0 and seats[game]["token"]


def test_two_people_waiting_for_people_only_meet_at_one_table(
    server: Served, contexts: Contexts
) -> None:
    ann, bob = contexts().page(), contexts().page()
    play_now(ann, server.base, "ann-qp", "classic", "2 players", "Never: people only")
    ann.locator("#queue[aria-busy='true']").wait_for()
    expect(ann.locator("#queue-status")).to_have_text("Looking for players…")
    expect(ann.locator("#queue-what")).to_contain_text("2 players")
    screenshot(ann, "queue-waiting")
    play_now(bob, server.base, "bob-qp", "classic", "2 players", "Never: people only")
    for page in (ann, bob):
        page.locator("#table[data-status='playing']").wait_for()
    assert ann.url.rsplit("/", 1)[1] == bob.url.rsplit("/", 1)[1]
    names = ann.locator("#table").inner_text()
    assert "ann-qp" in names and "bob-qp" in names


def test_waiting_can_be_cancelled(server: Served, contexts: Contexts) -> None:
    page = contexts().page()
    play_now(page, server.base, "cal", "premium", "8 players", "Never: people only")
    page.locator("#queue[aria-busy='true']").wait_for()
    page.get_by_role("button", name="Stop looking").click()
    expect(page.locator("#queue-status")).to_have_text("You stopped looking for a game.")
    page.get_by_role("link", name="Back to the lobby").click()
    page.locator("#quickplay").wait_for()
