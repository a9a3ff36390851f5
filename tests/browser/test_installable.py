"""The installable app in Chromium: the manifest and the service worker register, the page
opens offline and says so, a release's worker replaces the last one's cache, and the
notification settings store the player's preferences; the browser's permission is asked only
when the player turns notifications on, and the subscription is made where the browser can."""

from __future__ import annotations

from typing import Any

import requests
from playwright.sync_api import Page

from tests.browser.conftest import Contexts, screenshot
from tests.browser.test_my_games import bearer, become_guest
from tests.e2e.conftest import Served

COUNT_PERMISSION_ASKS = """
window.__asked = 0;
if ("Notification" in window) {
  const ask = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = (...args) => { window.__asked += 1; return ask(...args); };
}
"""
READY = "async () => (await navigator.serviceWorker.ready).active.scriptURL"
CONTROLLED = "() => Boolean(navigator.serviceWorker.controller)"


def controlled(page: Page, base: str) -> None:
    """Load the app until its service worker controls the page."""
    page.goto(base + "/")
    assert page.evaluate(READY) == base + "/sw.js"
    page.wait_for_function(CONTROLLED)


def test_the_app_installs_and_opens_offline(server: Served, contexts: Contexts) -> None:
    watched = contexts()
    watched.allow(r"ERR_INTERNET_DISCONNECTED|Failed to load resource|Failed to fetch")
    page = watched.page()
    controlled(page, server.base)
    manifest = page.context.new_cdp_session(page).send("Page.getAppManifest")
    assert manifest["url"].startswith(server.base + "/manifest.webmanifest")
    assert not manifest.get("errors"), manifest.get("errors")
    names = {
        lang: page.evaluate(f"() => fetch('/manifest.webmanifest?lang={lang}').then(r => r.json())")
        for lang in ("en", "ja", "ko", "vi")
    }
    assert names["ja"]["name"] == "ラブレター" and names["en"]["display"] == "standalone"
    assert {icon["sizes"] for icon in names["ko"]["icons"]} == {"any", "192x192", "512x512"}
    version = page.evaluate("async () => (await caches.keys()).join()")
    assert version.startswith("loveletter-shell-")
    page.context.set_offline(True)
    try:
        page.goto(server.base + "/")
        assert page.locator("h1").inner_text() == "You are offline"
        page.goto(server.base + "/#/rules")
        assert page.locator("#offline").is_visible()
    finally:
        page.context.set_offline(False)
    page.goto(server.base + "/")
    page.locator("#main").wait_for()
    assert page.locator("#offline-notice").is_hidden()


def test_the_settings_page_stores_preferences_and_asks_only_when_turned_on(
    server: Served, contexts: Contexts
) -> None:
    watched = contexts(permissions=["notifications"])
    watched.allow(r"push|Push|subscribe|Registration failed|AbortError")
    page = watched.page()
    page.add_init_script(COUNT_PERMISSION_ASKS)
    player = become_guest(page, server.base, "ann")
    page.goto(server.base + "/#/settings/notifications")
    page.locator("#notification-preferences").wait_for()
    assert page.evaluate("() => window.__asked") == 0  # never asked on a visit
    assert page.locator("#notice-chat").is_checked() is False
    assert page.locator("#notice-your_turn").is_checked()
    page.locator("#notice-chat").check()
    page.locator("#notice-game_over").uncheck()
    page.locator("#quiet-on").check()
    page.locator("#quiet-start").fill("21:30")
    page.locator("#quiet-end").fill("07:15")
    page.locator("#time-zone").fill("Asia/Tokyo")
    page.get_by_role("button", name="Save").click()
    page.get_by_text("Saved.").wait_for()
    stored: dict[str, Any] = requests.get(
        f"{server.base}/players/me/notification-preferences",
        headers=bearer(player["token"]),
        timeout=10,
    ).json()
    assert stored["notices"]["chat"] is True and stored["notices"]["game_over"] is False
    assert stored["quiet_hours"] == {"start": "21:30", "end": "07:15", "time_zone": "Asia/Tokyo"}
    screenshot(page, "notification-settings")
    toggle = page.locator("#browser-toggle")
    assert page.locator("#browser-state").get_attribute("data-state") == "off"
    toggle.click()
    page.wait_for_function("() => window.__asked === 1")
    listed = requests.get(f"{server.base}/players/me/push-subscriptions",
                          headers=bearer(player["token"]), timeout=10).json()  # fmt: skip
    state = page.locator("#browser-state")
    page.wait_for_function(
        "() => document.querySelector('#browser-state').dataset.state !== undefined"
    )
    if state.get_attribute("data-state") == "on":  # the browser could reach its push service
        assert len(listed["subscriptions"]) == 1
    else:  # headless Chromium has no push service to subscribe with: the page says why
        assert listed["subscriptions"] == []
        assert page.locator("#settings-status").inner_text().strip()
