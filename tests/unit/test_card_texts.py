"""Every card of every edition has a name and an effect, worded for that edition's rules."""

from __future__ import annotations

import pytest

from game.card_texts import EDITION_EFFECTS, EFFECTS, NAMES, effect
from game.editions import EDITIONS


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_every_card_has_a_name_and_an_effect(edition: str) -> None:
    for card in EDITIONS[edition].rank:
        assert NAMES[card][0].isupper()
        assert effect(EDITIONS[edition], card).endswith(".")


def test_edition_texts_name_only_real_cards_of_real_editions() -> None:
    for edition, card in EDITION_EFFECTS:
        assert card in EDITIONS[edition].rank
    assert set(EFFECTS) == set(NAMES) == {c for e in EDITIONS.values() for c in e.rank}


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_the_countess_text_names_the_cards_that_force_her(edition: str) -> None:
    rules = EDITIONS[edition]
    text = effect(rules, "countess")
    for card in ("king", "prince", "princess"):
        assert (NAMES[card] in text) == (card in rules.countess_forced_by), (edition, card)


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_the_guard_names_a_number_only_where_the_rules_say_so(edition: str) -> None:
    rules = EDITIONS[edition]
    assert ("number" in effect(rules, "guard")) == rules.guess_by_number
