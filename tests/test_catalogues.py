"""The web client's message catalogues (service/web/i18n/<language>.json) against the pages'
sources and the API's document: no key missing in any language, no key that no page uses, and
a message for every problem slug and every event type the OpenAPI document declares.

A page names a message by a literal key, `t("lobby.title")` (or `has("...")`) in a module,
`data-i18n="..."` / `data-i18n-label="..."` in index.html; a key made from the API's values is
a template literal with a literal prefix, `` t(`edition.${id}`) ``, whose family must be one of
FAMILIES below, each checked against where its values come from. docs/i18n.md tells the rules.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from game.editions import EDITIONS
from play.chat import PRESETS
from scenarios.tutorial import TUTORIALS
from service.blueprints.web import WEB_DIR
from service.schemas.games import SEAT_KINDS
from service.schemas.problems import PROBLEM_SLUGS

ROOT = Path(__file__).resolve().parents[1]
CATALOGUES = WEB_DIR / "i18n"
LANGUAGES = ("en", "ja", "ko", "vi")
SPEC = yaml.safe_load((ROOT / "api-spec" / "openapi.yaml").read_text(encoding="utf-8"))

STATIC_KEY = re.compile(r"""\b(?:t|has)\(\s*["']([A-Za-z0-9_.-]+)["']""")
HTML_KEY = re.compile(r"""data-i18n(?:-label)?="([^"]+)\"""")
FAMILY = re.compile(r"`([a-z_]+\.)\$\{")


def catalogue(language: str) -> dict[str, str]:
    found: dict[str, str] = json.loads((CATALOGUES / f"{language}.json").read_text("utf-8"))
    return found


def documented_slugs() -> set[str]:
    """Every problem slug the OpenAPI document lists (on the Problem schema's `type`)."""
    problem = SPEC["components"]["schemas"]["Problem"]["properties"]["type"]
    return set(problem["x-slugs"])


def documented_event_types() -> set[str]:
    """Every event type of the feed, as the document's discriminator maps them."""
    feed = SPEC["components"]["schemas"]["Feed"]["properties"]["events"]["items"]
    return set(feed["discriminator"]["mapping"])


def tutorial_steps() -> set[str]:
    """What the guide says of each move of each tutorial (and why the learner's own), and of
    each tutorial's end: `<tutorial>.<coach>[.why]`, `<tutorial>.end`."""
    steps = set()
    for tutorial in TUTORIALS.values():
        steps.add(f"{tutorial.name}.end")
        for move in tutorial.moves:
            steps.add(f"{tutorial.name}.{move.coach}")
            if move.seat == tutorial.learner:
                steps.add(f"{tutorial.name}.{move.coach}.why")
    return steps


# A family of keys made from the API's values: where its members come from.
FAMILIES = {
    "problem.": documented_slugs,
    "edition.": lambda: set(EDITIONS),
    "bot.": lambda: {kind for kind in SEAT_KINDS if kind != "human"},
    "preset.": lambda: set(PRESETS),
    "tutorial_step.": tutorial_steps,
    "tutorial_card.": lambda: {card for tutorial in TUTORIALS.values() for card in tutorial.deck},
}


def sources() -> dict[str, str]:
    """Every source of the page: its modules and its HTML."""
    files = [*sorted((WEB_DIR / "js").glob("*.js")), WEB_DIR / "index.html"]
    return {path.name: path.read_text(encoding="utf-8") for path in files}


def used_keys() -> tuple[dict[str, set[str]], set[str]]:
    """The literal keys each source names, and the families of made keys."""
    keys: dict[str, set[str]] = {}
    families: set[str] = set()
    for name, text in sources().items():
        pattern = HTML_KEY if name.endswith(".html") else STATIC_KEY
        keys[name] = set(pattern.findall(text))
        families.update(FAMILY.findall(text))
    return keys, families


def test_the_sources_are_read() -> None:
    """The patterns find what the pages use (a pattern that found nothing would pass all)."""
    keys, families = used_keys()
    assert "lobby.title" in keys["lobby.js"]
    assert "app.skip" in keys["index.html"]
    assert "event.card_played" in keys["words.js"]
    assert families == set(FAMILIES)


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_every_language_has_exactly_the_english_keys(language: str) -> None:
    english, other = set(catalogue("en")), set(catalogue(language))
    assert not english - other, f"missing in {language}: {sorted(english - other)}"
    assert not other - english, f"only in {language}: {sorted(other - english)}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_a_non_empty_string(language: str) -> None:
    for key, message in catalogue(language).items():
        assert isinstance(message, str) and message.strip(), (language, key)


def test_every_key_a_page_names_is_in_the_catalogue() -> None:
    english = catalogue("en")
    keys, _ = used_keys()
    missing = {name: sorted(k for k in found if k not in english) for name, found in keys.items()}
    assert not any(missing.values()), missing


def test_every_key_of_the_catalogue_is_used() -> None:
    keys, families = used_keys()
    named = set().union(*keys.values())
    unknown = families - set(FAMILIES)
    assert not unknown, f"a made key of an undeclared family: {unknown} (add it to FAMILIES)"
    unused = [
        key for key in catalogue("en") if key not in named and not key.startswith(tuple(families))
    ]
    assert not unused, f"no page uses {unused}"


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_each_family_has_a_message_for_each_of_its_values_and_no_other(family: str) -> None:
    members = {key.removeprefix(family) for key in catalogue("en") if key.startswith(family)}
    expected = FAMILIES[family]()
    assert expected, family
    assert members == expected, (sorted(expected - members), sorted(members - expected))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_documented_problem_slug_has_a_message(language: str) -> None:
    """The API stays English with stable codes; each code has a sentence in every language."""
    slugs = documented_slugs()
    assert {"not-your-turn", "target-protected", "validation-error"} <= slugs
    messages = catalogue(language)
    missing = sorted(slug for slug in slugs if f"problem.{slug}" not in messages)
    assert not missing, missing


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_documented_event_type_has_a_log_line(language: str) -> None:
    types = documented_event_types()
    assert {"card_played", "round_ended", "game_ended"} <= types
    messages = catalogue(language)
    missing = sorted(kind for kind in types if f"event.{kind}" not in messages)
    assert not missing, missing


def test_the_log_writes_a_line_for_every_event_type() -> None:
    """words.js has a writer for each event type of the document (and only those)."""
    words = (WEB_DIR / "js" / "words.js").read_text(encoding="utf-8")
    writers = set(re.findall(r"^\s{4}([a-z_]+): \(e\) =>", words, re.MULTILINE))
    assert writers == documented_event_types()


def test_the_documented_slugs_are_the_declared_ones() -> None:
    """The document lists exactly service.schemas.problems (it is generated from it)."""
    assert documented_slugs() == set(PROBLEM_SLUGS)
