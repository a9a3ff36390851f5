"""The four editions (docs/rules.md, "Editions"): players, token targets, the rules that differ,
and their decks, built from the cards of `game.cards`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from game.cards import CARDS, CLASSIC, PREMIUM, V2019, V2019_CLASSIC, Card, Naming


@dataclass(frozen=True, eq=False)  # one value per edition: compared and hashed by identity
class Edition:
    """One edition: who plays it, how it is won, and its cards in its table's order."""

    id: str
    min_players: int
    max_players: int
    tokens_to_win: Mapping[int, int]  # players -> tokens
    discard_total_breaks_ties: bool
    face_up_with_two_players: int = 3
    # Derived from the cards that have copies in this edition, in its table's order (by number).
    cards: Mapping[str, Card] = field(init=False)
    table: tuple[tuple[str, int, int], ...] = field(init=False)  # (card, rank, copies)
    rank: Mapping[str, int] = field(init=False)
    deck: tuple[str, ...] = field(init=False)
    names_numbers: frozenset[str] = field(init=False)  # cards that name a number here
    must_play: tuple[tuple[str, frozenset[str]], ...] = field(init=False)  # card, beside what
    pays_when_out: tuple[str, ...] = field(init=False)  # cards with `scores_when_out`

    def __post_init__(self) -> None:
        mine = sorted(
            (card for card in CARDS.values() if self.id in card.copies),
            key=lambda card: card.number_in(self.id),
        )
        table = tuple((card.id, card.number_in(self.id), card.copies[self.id]) for card in mine)
        derived = {
            "cards": MappingProxyType({card.id: card for card in mine}),
            "table": table,
            "rank": MappingProxyType({card: rank for card, rank, _ in table}),
            "deck": tuple(card for card, _, copies in table for _ in range(copies)),
            "names_numbers": frozenset(
                card.id for card in mine if card.naming_in(self.id) is Naming.NUMBER
            ),
            "must_play": tuple(
                (card.id, card.must_play_beside[self.id])
                for card in mine
                if self.id in card.must_play_beside
            ),
            "pays_when_out": tuple(card.id for card in mine if card.scores_when_out),
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)

    def target(self, players: int) -> int:
        """Tokens a player needs to win a game of this many players."""
        return self.tokens_to_win[players]

    def face_up_count(self, players: int) -> int:
        """Cards set aside face up at the start of a round."""
        return self.face_up_with_two_players if players == 2 else 0


TOKENS_2019 = {2: 6, 3: 5, 4: 4, 5: 3, 6: 3}

EDITIONS: Mapping[str, Edition] = MappingProxyType(
    {
        CLASSIC: Edition(
            id=CLASSIC,
            min_players=2,
            max_players=4,
            tokens_to_win={2: 7, 3: 5, 4: 4},
            discard_total_breaks_ties=True,
        ),
        V2019: Edition(
            id=V2019,
            min_players=2,
            max_players=6,
            tokens_to_win=TOKENS_2019,
            discard_total_breaks_ties=False,
        ),
        V2019_CLASSIC: Edition(
            id=V2019_CLASSIC,
            min_players=2,
            max_players=4,
            tokens_to_win={k: v for k, v in TOKENS_2019.items() if k <= 4},
            discard_total_breaks_ties=False,
        ),
        PREMIUM: Edition(
            id=PREMIUM,
            min_players=5,
            max_players=8,
            tokens_to_win={n: 4 for n in range(5, 9)},
            discard_total_breaks_ties=True,
        ),
    }
)
