"""Every page of the client opens without a console error; /docs and /redoc work offline."""

from __future__ import annotations

from collections.abc import Callable

import requests
from playwright.sync_api import Route

from tests.browser.conftest import Contexts, screenshot
from tests.e2e.conftest import Served

METHODS = {"get", "put", "post", "delete", "patch"}


def test_no_page_logs_an_error(server: Served, contexts: Contexts) -> None:
    """Lobby, invitation, table (seat and spectator), replay, an unknown route: all clean."""
    host, guest = contexts(), contexts()
    page = host.page()
    created = requests.post(
        f"{server.base}/games",
        json={"edition": "classic", "seats": ["human", "human", "random"], "name": "ann"},
        timeout=10,
    ).json()
    game = created["game"]["id"]
    page.goto(server.base + "/")
    page.locator("#lobby").wait_for()
    page.locator(f"[data-game='{game}']").wait_for()
    spectator = guest.page()
    for path in (f"/#/join/{game}", f"/#/games/{game}", f"/#/games/{game}/replay", "/#/nowhere"):
        spectator.goto(server.base + path)
        spectator.locator("main > *:not(.loading)").first.wait_for()
    assert spectator.get_by_role("heading", name="Nothing here").is_visible()
    spectator.goto(f"{server.base}/#/join/{game}")
    spectator.locator("#invitation").wait_for()
    screenshot(spectator, "invitation")
    # The index page carries a content security policy: only its own files.
    policy = requests.get(server.base + "/", timeout=10).headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy


def blocked_outside(base: str, blocked: list[str]) -> Callable[[Route], None]:
    """A route handler: requests to `base` go through, any other is aborted and noted."""

    def handle(route: Route) -> None:
        if route.request.url.startswith(base + "/"):
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    return handle


def test_the_api_docs_work_offline(server: Served, contexts: Contexts) -> None:
    """Swagger UI and ReDoc come from the service itself and list every operation."""
    spec = requests.get(server.base + "/openapi.json", timeout=10).json()
    operations = [
        (method.upper(), path)
        for path, item in spec["paths"].items()
        for method in item
        if method in METHODS
    ]
    watched = contexts()
    blocked: list[str] = []
    watched.context.route("**/*", blocked_outside(server.base, blocked))
    page = watched.page()

    page.goto(server.base + "/docs")
    page.locator(".opblock").first.wait_for()
    shown = {
        (block.locator(".opblock-summary-method").inner_text().strip(),
         block.locator(".opblock-summary-path").inner_text().strip().replace("\u200b", ""))
        for block in page.locator(".opblock").all()
    }  # fmt: skip
    assert set(operations) <= shown, set(operations) - shown

    page.goto(server.base + "/redoc")
    page.get_by_text("/games/{game_id}/commands").first.wait_for(state="attached")
    assert page.get_by_text("Love Letter").first.is_visible()
    assert not blocked, blocked
