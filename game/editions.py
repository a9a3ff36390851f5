"""The four editions of RULES.md section 1: decks, ranks, token targets and rule switches."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True, eq=False)  # one value per edition: compared and hashed by identity
class Edition:
    """One edition's cards, in its table's order, and the rules that differ between editions."""

    id: str
    min_players: int
    max_players: int
    table: tuple[tuple[str, int, int], ...]  # (card, rank, copies) in the table's order
    tokens_to_win: Mapping[int, int]  # players -> tokens
    countess_forced_by: frozenset[str]
    guess_by_number: bool  # premium: the Guard names a number, not a card
    discard_total_breaks_ties: bool
    face_up_with_two_players: int = 3
    rank: Mapping[str, int] = field(init=False)
    deck: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rank", MappingProxyType({c: r for c, r, _ in self.table}))
        deck = tuple(card for card, _, copies in self.table for _ in range(copies))
        object.__setattr__(self, "deck", deck)

    def target(self, players: int) -> int:
        """Tokens a player needs to win a game of this many players."""
        return self.tokens_to_win[players]

    def face_up_count(self, players: int) -> int:
        """Cards set aside face up at the start of a round."""
        return self.face_up_with_two_players if players == 2 else 0


TABLE_A = (
    ("guard", 1, 5),
    ("priest", 2, 2),
    ("baron", 3, 2),
    ("handmaid", 4, 2),
    ("prince", 5, 2),
    ("king", 6, 1),
    ("countess", 7, 1),
    ("princess", 8, 1),
)

TABLE_B = (
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
)

TABLE_B_CLASSIC = tuple(
    (card, rank, 5 if card == "guard" else copies)
    for card, rank, copies in TABLE_B
    if card not in ("spy", "chancellor")
)

TABLE_C = (
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
)

TOKENS_2019 = {2: 6, 3: 5, 4: 4, 5: 3, 6: 3}

EDITIONS: Mapping[str, Edition] = MappingProxyType(
    {
        "classic": Edition(
            id="classic",
            min_players=2,
            max_players=4,
            table=TABLE_A,
            tokens_to_win={2: 7, 3: 5, 4: 4},
            countess_forced_by=frozenset({"king", "prince", "princess"}),
            guess_by_number=False,
            discard_total_breaks_ties=True,
        ),
        "2019": Edition(
            id="2019",
            min_players=2,
            max_players=6,
            table=TABLE_B,
            tokens_to_win=TOKENS_2019,
            countess_forced_by=frozenset({"king", "prince"}),
            guess_by_number=False,
            discard_total_breaks_ties=False,
        ),
        "2019-classic": Edition(
            id="2019-classic",
            min_players=2,
            max_players=4,
            table=TABLE_B_CLASSIC,
            tokens_to_win={k: v for k, v in TOKENS_2019.items() if k <= 4},
            countess_forced_by=frozenset({"king", "prince"}),
            guess_by_number=False,
            discard_total_breaks_ties=False,
        ),
        "premium": Edition(
            id="premium",
            min_players=5,
            max_players=8,
            table=TABLE_C,
            tokens_to_win={n: 4 for n in range(5, 9)},
            countess_forced_by=frozenset({"king", "prince", "princess"}),
            guess_by_number=True,
            discard_total_breaks_ties=True,
        ),
    }
)
