"""Schemathesis drives every documented operation: no 500, responses match the document."""

from __future__ import annotations

import unicodedata
import zoneinfo
from collections.abc import Callable
from typing import Any

import pytest
import regex
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import negative_data_rejection, positive_data_acceptance

from service.schemas.chat import CHAT_TEXT_FORMAT
from service.schemas.games import NAME_FORMAT
from service.schemas.push import TIME_ZONE_FORMAT

from . import probe

SKIPPED_PATHS = {"/probe/boom", "/probe/teapot", "/probe/raw"}  # the probe's deliberate errors
INVISIBLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")


def accented(char: str) -> bool:
    """Whether the character carries an accent of its own (a nonspacing mark in its NFD)."""
    return any(unicodedata.category(part) == "Mn" for part in unicodedata.normalize("NFD", char))


def unaccented(*categories: str, exclude: str = "") -> st.SearchStrategy[str]:
    """Characters of these categories, visible, with no accent of their own (so the one a
    piece may add never repeats one)."""
    return st.characters(categories=categories, exclude_characters=exclude).filter(
        lambda char: not INVISIBLE.match(char) and not accented(char)
    )


def pieces(seen: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """A character, or a character with one accent (a visible nonspacing mark)."""
    mark = st.characters(categories=("Mn",)).filter(lambda char: not INVISIBLE.match(char))
    return seen | st.tuples(seen, mark).map("".join)


# A name as the document describes it: letters and digits of any script, at most an accent on
# each, spaces and `.-_`, no space at either end (15 pieces: composing may lengthen a few).
NAMES = (
    st.lists(pieces(unaccented("L", "N")) | st.sampled_from(" .-_"), min_size=1, max_size=15)
    .map("".join)
    .filter(lambda name: name.strip(" ") == name)
)
schemathesis.openapi.format(NAME_FORMAT, NAMES)
# A chat message's text as the document describes it: one line of printable characters of any
# script (at most an accent on each), no `<` or `>`, no blank (U+2800), no space at either end.
CHAT_TEXTS = (
    st.lists(
        pieces(unaccented("L", "N", "P", "S", exclude="<>\u2800")) | unaccented("Zs"),
        min_size=1,
        max_size=30,
    )
    .map("".join)
    .filter(lambda text: text.strip() == text and bool(text))
)
schemathesis.openapi.format(CHAT_TEXT_FORMAT, CHAT_TEXTS)
# A time zone as the document describes it: a name of the IANA database.
schemathesis.openapi.format(
    TIME_ZONE_FORMAT, st.sampled_from(sorted(zoneinfo.available_timezones()))
)


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_every_operation_conforms(make_app: Callable[..., Flask], mode: GenerationMode) -> None:
    app = make_app(
        # Generated bodies can be huge; a 413 is right for them but not what is checked here.
        {
            "LOVELETTER_RATE_LIMIT_ADDRESS": "off",
            "LOVELETTER_RATE_LIMIT_SEAT": "off",
            "LOVELETTER_MAX_BODY_BYTES": str(2**24),
            "LOVELETTER_STREAM_SECONDS": "0.05",  # an event stream ends after this long
        },
        extra_blueprints=[probe.make_blueprint()],
    )
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app)
    checked = []
    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.path in SKIPPED_PATHS:
            continue
        if mode is GenerationMode.NEGATIVE and not has_inputs(operation):
            continue  # nothing to make invalid

        excluded = [positive_data_acceptance]
        if mode is not POSITIVE and (operation.method.upper(), operation.path) in NAME_ONLY:
            # Schemathesis can't negate the custom `player-name` and `chat-text` formats (it has
            # no checker for them), so a "violating" value it makes may be a valid one; the
            # refusals of bad names and texts are tested in tests/api/test_players.py and
            # tests/api/test_chat.py.
            excluded.append(negative_data_rejection)

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
        def conforms(case: Any) -> None:
            # Schema-valid data may still be refused by the rules of the game (a 422 whose
            # `type` is the rule's code), never by validation: see valid_data_passes_validation.
            case.call_and_validate(
                excluded_checks=excluded,  # noqa: B023  # conforms() runs within this iteration
                additional_checks=[valid_data_passes_validation] if mode is POSITIVE else [],
            )

        conforms()
        checked.append(f"{operation.method.upper()} {operation.path}")
    assert "POST /probe/items" in checked


POSITIVE = GenerationMode.POSITIVE
NAME_ONLY = {("POST", "/players"), ("POST", "/games/{game_id}/chat")}  # custom formats
VALIDATION_PROBLEMS = ("validation-error", "malformed-json", "bad-if-match")


def valid_data_passes_validation(ctx: Any, response: Any, case: Any) -> None:
    """Data the document calls valid is never refused as invalid (rules may still refuse it)."""
    if response.status_code in (400, 415, 422):
        problem = response.json().get("type", "")
        assert not problem.endswith(VALIDATION_PROBLEMS), f"valid data refused: {response.text}"


# Headers any string may fill (an X-Request-ID that is not an id is replaced, an If-None-Match
# that matches no version is ignored): nothing sent in them can be invalid.
FREE_HEADERS = frozenset({"X-Request-ID", "If-None-Match"})


def constrained_headers(operation: Any) -> list[str]:
    """The operation's headers that a value can break."""
    return [header.name for header in operation.headers if header.name not in FREE_HEADERS]


def has_inputs(operation: Any) -> bool:
    """True when the operation takes a body or any parameter that can be invalid."""
    parts = ("body", "path_parameters", "query", "cookies")
    return bool(constrained_headers(operation)) or any(len(getattr(operation, p)) for p in parts)
