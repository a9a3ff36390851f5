"""The languages cards are named in: which one a request asks for, and each card's name and
effect in it.

English comes from the rules themselves (`game.cards`); Japanese, Korean and Vietnamese from
the data files in `service/card_texts/`, one per language, where every name and effect is marked
`seed` (the words of a source the rules were handed over in) or `translated` (ours). The API's
own messages stay in English with stable codes; only card words are translated here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType

from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from game.editions import EDITIONS

ENGLISH = "en"
LANGUAGES = (ENGLISH, "ja", "ko", "vi")
CARD_TEXTS_DIR = Path(__file__).resolve().parent / "card_texts"
# A language tag as BCP 47 writes one (language, then subtags): "ja", "ko-KR", "zh-Hant-TW".
LANGUAGE_TAG = r"^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8}){0,7}$"


def negotiate(asked: str | None, accept_language: str | None) -> str:
    """The language to answer in: `asked` (a `lang` parameter) if given, else the best match of
    an Accept-Language header by its q-values; English when nothing matches."""
    if asked:
        return LanguageAccept([(asked, 1)]).best_match(LANGUAGES, default=ENGLISH)
    accepted = parse_accept_header(accept_language or "", LanguageAccept)
    return accepted.best_match(LANGUAGES, default=ENGLISH)


@cache
def _card_texts(language: str) -> Mapping[str, Mapping[str, Mapping[str, str]]]:
    """Edition -> card -> {"name", "effect"} in a language with a data file."""
    data = json.loads((CARD_TEXTS_DIR / f"{language}.json").read_text(encoding="utf-8"))
    return MappingProxyType(
        {
            edition: MappingProxyType(
                {
                    card: MappingProxyType(
                        {"name": words["name"]["text"], "effect": words["effect"]["text"]}
                    )
                    for card, words in cards.items()
                }
            )
            for edition, cards in data["editions"].items()
        }
    )


def card_words(edition: str, card: str, language: str) -> tuple[str, str]:
    """A card's name and effect in an edition, in `language`."""
    if language == ENGLISH:
        rules = EDITIONS[edition].cards[card]
        return rules.name, rules.text_in(edition)
    words = _card_texts(language)[edition][card]
    return words["name"], words["effect"]
