"""Every card of every edition is complete and agrees with the edition tables of docs/rules.md."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from game.cards import CARDS, Card, Choice, Naming
from game.editions import EDITIONS, Edition
from game.effects import EFFECTS

# The tables of docs/rules.md, written out again for the test: (card, number, copies) in order.
TABLES = {
    "classic": [
        ("guard", 1, 5),
        ("priest", 2, 2),
        ("baron", 3, 2),
        ("handmaid", 4, 2),
        ("prince", 5, 2),
        ("king", 6, 1),
        ("countess", 7, 1),
        ("princess", 8, 1),
    ],
    "2019": [
        ("spy", 0, 2),
        ("guard", 1, 6),
        ("priest", 2, 2),
        ("baron", 3, 2),
        ("handmaid", 4, 2),
        ("prince", 5, 2),
        ("chancellor", 6, 2),
        ("king", 7, 1),
        ("countess", 8, 1),
        ("princess", 9, 1),
    ],
    "2019-classic": [
        ("guard", 1, 5),
        ("priest", 2, 2),
        ("baron", 3, 2),
        ("handmaid", 4, 2),
        ("prince", 5, 2),
        ("king", 7, 1),
        ("countess", 8, 1),
        ("princess", 9, 1),
    ],
    "premium": [
        ("jester", 0, 1),
        ("assassin", 0, 1),
        ("guard", 1, 8),
        ("priest", 2, 2),
        ("cardinal", 2, 2),
        ("baron", 3, 2),
        ("baroness", 3, 2),
        ("handmaid", 4, 2),
        ("sycophant", 4, 2),
        ("prince", 5, 2),
        ("count", 5, 2),
        ("king", 6, 1),
        ("constable", 6, 1),
        ("countess", 7, 1),
        ("dowager_queen", 7, 1),
        ("princess", 8, 1),
        ("bishop", 9, 1),
    ],
}
DECK_SIZES = {"classic": 16, "2019": 21, "2019-classic": 16, "premium": 32}
# Whom each card chooses, and the cards that carry each rule beyond their effect (docs/rules.md).
CHOOSES = {
    Choice.OTHER: {"guard", "priest", "baron", "king", "bishop", "dowager_queen", "jester"},
    Choice.ANY: {"prince", "sycophant"},
    Choice.ONE_OR_TWO_OTHERS: {"baroness"},
    Choice.TWO_AND_LOOK: {"cardinal"},
}
SPECIAL_RULES = {
    "unnameable": {"guard"},
    "must_play_beside": {"countess"},
    "out_when_discarded": {"princess"},
    "foils": {"assassin"},
    "scores_when_out": {"constable"},
    "scores_alone": {"spy"},
    "scores_with_chosen": {"jester"},
    "showdown_bonus": {"count"},
    "loses_showdown_to": {"bishop"},
}
COUNTESS_BESIDE = {
    "classic": {"king", "prince", "princess"},
    "2019": {"king", "prince"},
    "2019-classic": {"king", "prince"},
    "premium": {"king", "prince", "princess"},
}
EDITION_CARDS = [(edition, card) for edition in EDITIONS.values() for card in edition.cards]


@pytest.mark.parametrize("edition", EDITIONS.values(), ids=list(EDITIONS))
def test_each_edition_is_its_table(edition: Edition) -> None:
    """The edition's table (order, numbers, copies) and deck are those of the rules."""
    assert list(edition.table) == TABLES[edition.id]
    assert len(edition.deck) == DECK_SIZES[edition.id]
    assert list(edition.cards) == [card for card, _, _ in TABLES[edition.id]]
    assert dict(edition.rank) == {card: number for card, number, _ in TABLES[edition.id]}


def test_every_card_is_in_an_edition_under_its_own_id() -> None:
    """No card is left out of every edition, and each is filed under its id."""
    in_editions = {card for edition in EDITIONS.values() for card in edition.cards}
    assert in_editions == set(CARDS)
    assert all(card.id == key for key, card in CARDS.items())


@pytest.mark.parametrize(
    ("edition", "card"), EDITION_CARDS, ids=[f"{e.id}-{c}" for e, c in EDITION_CARDS]
)
def test_every_card_of_every_edition_is_complete(edition: Edition, card: str) -> None:
    """Number, copies, text, effect, choice and naming are all there for this edition."""
    record: Card = edition.cards[card]
    assert record is CARDS[card]
    assert isinstance(record.number_in(edition.id), int)
    assert record.copies[edition.id] >= 1
    assert len(record.text_in(edition.id)) > 20
    assert callable(EFFECTS[card])
    assert isinstance(record.chooses, Choice)
    assert isinstance(record.naming_in(edition.id), Naming)
    assert record.name.lower().replace(" ", "_") == card


def test_every_card_and_only_cards_have_an_effect() -> None:
    """`game.effects` gives each card of the registry its effect, and no other name."""
    assert set(EFFECTS) == set(CARDS)


@pytest.mark.parametrize("card", CARDS.values(), ids=list(CARDS))
def test_per_edition_data_covers_exactly_the_editions_of_the_card(card: Card) -> None:
    """A card's numbers, texts, namings and obligations name only editions that hold it."""
    editions = set(card.copies)
    assert editions <= set(EDITIONS)
    for per_edition in (card.number, card.text):
        if not isinstance(per_edition, (int, str)):
            assert set(per_edition) == editions
    assert set(card.names) <= editions
    assert set(card.must_play_beside) <= editions


@pytest.mark.parametrize(
    ("edition", "card"), EDITION_CARDS, ids=[f"{e.id}-{c}" for e, c in EDITION_CARDS]
)
def test_cards_a_rule_names_are_in_the_same_edition(edition: Edition, card: str) -> None:
    """The Countess's companions, the Assassin's Guard and the Bishop's Princess are there too."""
    record = CARDS[card]
    named = set(record.must_play_beside.get(edition.id, ())) | record.foils
    named |= record.loses_showdown_to
    assert named <= set(edition.cards)


def test_each_card_chooses_and_carries_the_rules_it_should() -> None:
    """Choices, special rules and the Countess's companions are those of the rules."""
    for kind, cards in CHOOSES.items():
        assert {card.id for card in CARDS.values() if card.chooses is kind} == cards, kind
    assert {c.id for c in CARDS.values() if c.chooses is Choice.NONE} == set(CARDS) - set().union(
        *CHOOSES.values()
    )
    for rule, cards in SPECIAL_RULES.items():
        assert {card.id for card in CARDS.values() if getattr(card, rule)} == cards, rule
    for edition in EDITIONS.values():
        assert edition.must_play == (("countess", frozenset(COUNTESS_BESIDE[edition.id])),)


def test_the_guesses_name_cards_that_choose_a_player() -> None:
    """Only a card that chooses another player names a card or a number (Guard, Bishop)."""
    for edition in EDITIONS.values():
        for card in edition.cards.values():
            if card.naming_in(edition.id) is not Naming.NOTHING:
                assert card.chooses is Choice.OTHER, card.id
    numbers = {e.id for e in EDITIONS.values() if "guard" in e.names_numbers}
    assert numbers == {"premium"}


GAME = Path(__file__).resolve().parents[2] / "game"
RULES_MODULES = ("flow", "showdown", "choices", "legal", "decide", "effects", "evolve")


@pytest.mark.parametrize("module", RULES_MODULES)
def test_the_rules_name_no_card(module: str) -> None:
    """What a card does beyond its record is data of the card: no rule module names a card."""
    tree = ast.parse((GAME / f"{module}.py").read_text(encoding="utf-8"))
    named = {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }
    assert not named & set(CARDS), f"game/{module}.py names {sorted(named & set(CARDS))}"


RULES_DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


@pytest.mark.parametrize("edition", EDITIONS.values(), ids=list(EDITIONS))
def test_the_rules_document_lists_each_edition_as_it_is(edition: Edition) -> None:
    """docs/rules.md's deck line for the edition (card, number, copies) is the edition's table."""
    text = " ".join(RULES_DOC.read_text(encoding="utf-8").split())
    found = re.search(rf"`{re.escape(edition.id)}`: ([^.]*)\.", text)
    assert found, f"no deck line for {edition.id} in docs/rules.md"
    listed = []
    for entry in found.group(1).split(","):
        card, number, *copies = entry.split()  # "guard 1 \N{MULTIPLICATION SIGN}5" or "king 6"
        times = int(copies[0].lstrip("\N{MULTIPLICATION SIGN}")) if copies else 1
        listed.append((card, int(number), times))
    assert listed == list(edition.table)


def test_the_rules_document_tells_every_card() -> None:
    """Every card has its line in docs/rules.md's tables of cards."""
    text = RULES_DOC.read_text(encoding="utf-8")
    for card in CARDS:
        assert f"| {card} |" in text, card
