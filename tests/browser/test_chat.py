"""The table's chat in two browsers: ann's page is in English, bob's in Japanese; a preset ann
sends reads in Japanese on bob's page, bob's free text reads as typed on ann's, and both were
sent with the keyboard alone."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import Contexts, screenshot
from tests.browser.player import api_view, create_game, held_seats
from tests.e2e.conftest import Served
from tests.test_catalogues import catalogue


def test_two_browsers_chat_each_in_its_own_language(server: Served, contexts: Contexts) -> None:
    ann = contexts().page()
    bob = contexts(locale="ja-JP").page()
    game = create_game(ann, server.base, "ann", "classic", ["human", "human"])
    ann.locator("#table[data-status='open']").wait_for()
    bob.goto(f"{server.base}/#/join/{game}")
    bob.locator("#join #player-name").fill("はると")
    bob.locator("#join [type=submit]").click()
    bob.locator("#table[data-status='playing']").wait_for()
    ann.locator("#table[data-status='playing']").wait_for()
    english, japanese = catalogue("en"), catalogue("ja")

    # ann sends a preset with the keyboard: Tab to its button, then Enter.
    luck = ann.locator("#chat [data-preset='good_luck']")
    assert luck.inner_text() == english["preset.good_luck"]
    luck.focus()
    ann.keyboard.press("Enter")
    bob_line = bob.locator("#chat-log li[data-preset='good_luck'] .chat-said")
    bob_line.wait_for()
    assert bob_line.inner_text() == japanese["preset.good_luck"]  # in Japanese
    assert "ann" in bob.locator("#chat-log li").first.inner_text()
    ann_line = ann.locator("#chat-log li[data-preset='good_luck'] .chat-said")
    assert ann_line.inner_text() == english["preset.good_luck"]

    # bob types a line in Japanese, labelled in Japanese, and sends it with Enter.
    field = bob.get_by_label(japanese["chat.text"], exact=True)
    field.fill("よろしく Let's play")
    field.press("Enter")
    ann.locator("#chat-log li", has_text="よろしく Let's play").wait_for()
    expect(field).to_have_value("")  # sent, cleared (once bob's own answer is back)
    bob.locator("#chat-log li", has_text="よろしく").wait_for()
    assert bob.locator("#chat-title").inner_text() == japanese["chat.title"]
    screenshot(bob, "chat-ja")

    # The chat moved nothing in the game: both seats' messages, and the version of the start.
    token = held_seats(ann)[game]["token"]
    seen = api_view(server.base, game, token)
    assert seen["game"]["status"] == "playing"
    assert int(ann.locator("#table").get_attribute("data-version") or 0) == seen["game"]["version"]

    # ann mutes bob: his next line reaches bob's own page, never ann's.
    ann.get_by_role("button", name="Mute はると").first.click()
    ann.locator("[data-unmute='1']").wait_for()
    assert ann.locator("#chat-log li", has_text="よろしく").count() == 0
    bob.get_by_label(japanese["chat.text"], exact=True).fill("聞こえる")
    bob.get_by_role("button", name=japanese["chat.send"]).click()
    bob.locator("#chat-log li", has_text="聞こえる").wait_for()
    # ann's own line comes after bob's; a fresh page loads the chat as ann gets it, in order:
    # once her line is there, bob's would be too.
    ann.get_by_label(english["chat.text"], exact=True).fill("了解")
    ann.get_by_role("button", name=english["chat.send"]).click()
    ann.locator("#chat-log li", has_text="了解").wait_for()
    ann.reload()
    ann.locator("#chat-log li", has_text="了解").wait_for()
    assert ann.locator("#chat-log li", has_text="聞こえる").count() == 0
