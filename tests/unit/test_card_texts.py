"""Every card of every edition has a name and a rules text worded for that edition's rules."""

from __future__ import annotations

import pytest

from game.cards import Naming
from game.editions import EDITIONS


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_every_card_has_a_name_and_a_text(edition: str) -> None:
    for card in EDITIONS[edition].cards.values():
        assert card.name[0].isupper()
        assert card.text_in(edition).endswith(".")


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_the_countess_text_names_the_cards_that_force_her(edition: str) -> None:
    rules = EDITIONS[edition]
    countess = rules.cards["countess"]
    text = countess.text_in(edition)
    for card in ("king", "prince", "princess"):
        named = rules.cards[card].name in text
        assert named == (card in countess.must_play_beside[edition]), (edition, card)


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_the_guard_names_a_number_only_where_the_rules_say_so(edition: str) -> None:
    guard = EDITIONS[edition].cards["guard"]
    names_number = guard.naming_in(edition) is Naming.NUMBER
    assert ("number" in guard.text_in(edition)) == names_number
