"""Browser fixtures: the system's Chromium driven by Playwright, against `loveletter serve`.

Nothing downloads a browser: Chromium is the operating system's (Debian's `chromium` package,
which `.ci/run` installs when it is missing); without it these tests fail, they don't skip.
Every page is watched: a console error or an uncaught exception fails the test that made it.
"""

from __future__ import annotations

import os
import re
import signal
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Playwright,
    sync_playwright,
)

from tests.e2e.conftest import REPO_ROOT, Served

CHROMIUM = Path(os.environ.get("LOVELETTER_CHROMIUM", "/usr/bin/chromium"))
# Headless, and quiet: no update checks or other calls to the outside.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(os.environ.get("LOVELETTER_SCREENSHOTS", REPO_ROOT / "build" / "screenshots"))
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 800}
TIMEOUT_MS = 15_000


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One `loveletter serve` for every browser test, stopped cleanly at the end."""
    # Every browser here comes from 127.0.0.1: the per-address bounds on guests and thinking bots
    # (tested through the API, tests/api/test_bounds.py) would stop the suite partway.
    unbounded = {"LOVELETTER_GUESTS_PER_HOUR": "off", "LOVELETTER_BOT_TABLES": "off"}
    served = Served(tmp_path_factory.mktemp("browser-serve"), settings=unbounded)
    try:
        served.wait_ready()
        yield served
        served.stop(signal.SIGINT)
    finally:
        served.kill()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    """Playwright's driver (shipped in its wheel)."""
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """The system's Chromium; missing, it fails every browser test (install `chromium`)."""
    assert CHROMIUM.exists(), f"{CHROMIUM} is missing: install the chromium package"
    launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield launched
    launched.close()


@dataclass
class Watched:
    """A browser context whose pages are watched for console errors and uncaught exceptions."""

    context: BrowserContext
    errors: list[str] = field(default_factory=list)
    allowed: list[re.Pattern[str]] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)

    def page(self) -> Page:
        """A new page of this context."""
        page = self.context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(f"uncaught: {error}"))
        page.on("request", lambda request: self.urls.append(request.url))
        return page

    def allow(self, pattern: str) -> None:
        """Expect console errors matching `pattern` (e.g. the browser's note of a refusal)."""
        self.allowed.append(re.compile(pattern))

    def unexpected_errors(self) -> list[str]:
        return [e for e in self.errors if not any(p.search(e) for p in self.allowed)]

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(f"console: {message.text} at {message.location.get('url')}")


class Contexts:
    """Makes watched browser contexts (one per player); each starts at desktop size."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.made: list[Watched] = []

    def __call__(self, **options: object) -> Watched:
        options.setdefault("locale", "en-US")  # the browser's language, which the page follows
        context = self.browser.new_context(viewport=DESKTOP, **options)  # type: ignore[arg-type]
        watched = Watched(context)
        self.made.append(watched)
        return watched


@pytest.fixture
def contexts(browser: Browser) -> Iterator[Contexts]:
    """Browser contexts for one test; no page of theirs may log an error."""
    made = Contexts(browser)
    yield made
    errors = [error for watched in made.made for error in watched.unexpected_errors()]
    for watched in made.made:
        watched.context.close()
    assert not errors, errors


@pytest.fixture
def page(contexts: Contexts) -> Page:
    """One watched page in a fresh browser context."""
    return contexts().page()


# Controls without an accessible name (aria-label, a label, their text, or a title).
UNNAMED_CONTROLS = """() => [...document.querySelectorAll(
    'button, a[href], input, select, textarea, summary, [tabindex]:not([tabindex="-1"])')]
  .filter((control) => control.type !== 'hidden' && !(
    control.getAttribute('aria-label')
    || [...(control.labels || [])].map((label) => label.textContent).join('')
    || control.textContent || control.title || '').trim())
  .map((control) => control.outerHTML.slice(0, 200))"""
OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"
# Boxes whose text does not fit them (wider, or taller, than the box), except form fields (a
# long invitation link scrolls in its field by design), a scrolling list's own height, and the
# visually hidden announcer.
OVERFLOWING_TEXT = """() => [...document.querySelectorAll('body *')].filter((box) => {
    const skipped = 'input, select, textarea, option, .visually-hidden, .visually-hidden *';
    if (box.matches(skipped)) return false;
    const style = getComputedStyle(box);
    if (['inline', 'none', 'contents'].includes(style.display)) return false;
    if (!box.textContent.trim() || box.clientWidth <= 1) return false;
    const scrolls = ['auto', 'scroll'].includes(style.overflowY);
    return box.scrollWidth > box.clientWidth + 1
      || (!scrolls && box.scrollHeight > box.clientHeight + 1);
  }).map((box) => `${box.tagName.toLowerCase()}.${box.className}: `
    + `${box.textContent.trim().slice(0, 60)} (${box.scrollWidth}x${box.scrollHeight}`
    + ` in ${box.clientWidth}x${box.clientHeight})`)"""


# The cards arriving on a table (a play, a draw: under half a second each), to let end first.
ARRIVALS_END = """() => Promise.all(document.getAnimations()
  .filter((motion) => ['card-arrives', 'card-drawn', 'deck-deals'].includes(motion.animationName))
  .map((motion) => motion.finished.catch(() => null)))"""


def screenshot(page: Page, name: str) -> list[Path]:
    """Full-page screenshots at desktop and phone widths (`<name>-1280.png`, `<name>-375.png`),
    checking at each width that nothing sticks out sideways, no text overflows its box, and
    every control has a name."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate(ARRIVALS_END)
    paths = []
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        page.wait_for_timeout(100)  # a frame for the layout to settle
        assert page.evaluate(OVERFLOW) <= 0, f"{name} is wider than {size['width']} px"
        assert page.evaluate(OVERFLOWING_TEXT) == [], f"{name} at {size['width']} px"
        assert page.evaluate(UNNAMED_CONTROLS) == [], name
        path = SCREENSHOTS / f"{name}-{size['width']}.png"
        page.screenshot(path=str(path), full_page=True)
        paths.append(path)
    page.set_viewport_size(DESKTOP)
    return paths
