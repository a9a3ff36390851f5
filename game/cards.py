"""Every card in one place, as data: its number and copies per edition, what it chooses and
names, its effect by name, the rules it adds beyond that, and its text. The effects themselves
are functions of `game.effects`, built on the flow of a round, which stands on these records;
what a bot reckons a card is worth is the bots' business (`game.bots.hints`).

The editions (`game.editions`) are built from these records; `docs/rules.md` tells the same in
prose.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType

CLASSIC, V2019, V2019_CLASSIC, PREMIUM = "classic", "2019", "2019-classic", "premium"
EDITION_IDS = (CLASSIC, V2019, V2019_CLASSIC, PREMIUM)


class Choice(Enum):
    """The players a card chooses when it is played."""

    NONE = "none"  # no choice: handmaid, countess, princess, spy, chancellor, constable, ...
    OTHER = "other"  # one other player
    ANY = "any"  # one player, its own player included
    ONE_OR_TWO_OTHERS = "one-or-two-others"  # baroness
    TWO_AND_LOOK = "two-and-look"  # cardinal: two players (self allowed), then look at one

    @property
    def self_allowed(self) -> bool:
        """Whether the card may choose its own player."""
        return self in (Choice.ANY, Choice.TWO_AND_LOOK)


class Naming(Enum):
    """What a card names besides the players it chooses (a guess at their hand)."""

    NOTHING = "nothing"
    CARD = "card"  # a card of the edition
    NUMBER = "number"  # a card's number


@dataclass(frozen=True, eq=False)
class Card:
    """One card: its data in every edition that has it, its effect, its special rules."""

    id: str
    number: int | Mapping[str, int]  # one number, or one per edition where they differ
    copies: Mapping[str, int]  # edition id -> copies in the deck (the editions that have it)
    text: str | Mapping[str, str]  # the rules text a client shows, or one per edition
    effect: str  # the name of what it does when played: a function of `game.effects`
    chooses: Choice = field(default_factory=lambda: Choice.NONE)  # see `GameState.phase`
    names: Mapping[str, Naming] = field(default_factory=dict)  # edition id -> what it names
    # Rules beyond the card's effect, as data (each is read where it applies).
    unnameable: bool = False  # a guess may name neither it nor its number (the Guard)
    must_play_beside: Mapping[str, frozenset[str]] = field(default_factory=dict)  # Countess
    out_when_discarded: bool = False  # played or discarded, its player is out (the Princess)
    foils: frozenset[str] = frozenset()  # cards that choose its holder and fail (the Assassin)
    scores_when_out: bool = False  # in the discard pile of a player put out: a token (Constable)
    scores_alone: bool = False  # the only player still in who discarded it: a token (Spy)
    scores_with_chosen: bool = False  # the chosen player wins the round: a token (Jester)
    showdown_bonus: int = 0  # added to the hand's value per copy in the discard pile (Count)
    loses_showdown_to: frozenset[str] = frozenset()  # at a showdown, beaten by these (Bishop)

    @property
    def name(self) -> str:
        """The card's English name ("Dowager Queen")."""
        return self.id.replace("_", " ").title()

    def number_in(self, edition: str) -> int:
        """The card's number (its rank) in an edition."""
        return self.number if isinstance(self.number, int) else self.number[edition]

    def text_in(self, edition: str) -> str:
        """The card's rules text in an edition."""
        return self.text if isinstance(self.text, str) else self.text[edition]

    def naming_in(self, edition: str) -> Naming:
        """What the card names in an edition."""
        return self.names.get(edition, Naming.NOTHING)


def _every(value: Naming, *editions: str) -> Mapping[str, Naming]:
    return {edition: value for edition in editions}


# In the order of the editions' tables among cards of the same number.
_ALL: tuple[Card, ...] = (
    Card(
        "jester",
        number=0,
        copies={PREMIUM: 1},
        effect="jester",
        text="Choose another player. If they win this round, you gain a token.",
        chooses=Choice.OTHER,
        scores_with_chosen=True,
    ),
    Card(
        "assassin",
        number=0,
        copies={PREMIUM: 1},
        effect="no_effect",
        text="No effect when played. If a Guard chooses you while you hold the Assassin, the "
        "Guard's player is out instead, and you discard the Assassin and draw a new card.",
        foils=frozenset({"guard"}),
    ),
    Card(
        "spy",
        number=0,
        copies={V2019: 2},
        effect="no_effect",
        text="No effect. At the end of the round, if you are the only player still in it who "
        "played or discarded a Spy, you gain a token.",
        scores_alone=True,
    ),
    Card(
        "guard",
        number=1,
        copies={CLASSIC: 5, V2019: 6, V2019_CLASSIC: 5, PREMIUM: 8},
        effect="guard",
        text={
            CLASSIC: "Choose another player and name a card other than the Guard. If they hold "
            "it, they are out of the round.",
            V2019: "Choose another player and name a card other than the Guard. If they hold it, "
            "they are out of the round.",
            V2019_CLASSIC: "Choose another player and name a card other than the Guard. If they "
            "hold it, they are out of the round.",
            PREMIUM: "Choose another player and name a number other than 1. If their card has "
            "that number, they are out of the round.",
        },
        chooses=Choice.OTHER,
        names={**_every(Naming.CARD, CLASSIC, V2019, V2019_CLASSIC), PREMIUM: Naming.NUMBER},
        unnameable=True,
    ),
    Card(
        "priest",
        number=2,
        copies={CLASSIC: 2, V2019: 2, V2019_CLASSIC: 2, PREMIUM: 2},
        effect="priest",
        text="Choose another player and look at their hand.",
        chooses=Choice.OTHER,
    ),
    Card(
        "cardinal",
        number=2,
        copies={PREMIUM: 2},
        effect="cardinal",
        text="Choose two players (you may be one of them): they swap hands. Then look at one of "
        "their hands.",
        chooses=Choice.TWO_AND_LOOK,
    ),
    Card(
        "baron",
        number=3,
        copies={CLASSIC: 2, V2019: 2, V2019_CLASSIC: 2, PREMIUM: 2},
        effect="baron",
        text="Choose another player and compare hands with them in secret: the lower number is "
        "out of the round.",
        chooses=Choice.OTHER,
    ),
    Card(
        "baroness",
        number=3,
        copies={PREMIUM: 2},
        effect="baroness",
        text="Choose one or two other players and look at their hands.",
        chooses=Choice.ONE_OR_TWO_OTHERS,
    ),
    Card(
        "handmaid",
        number=4,
        copies={CLASSIC: 2, V2019: 2, V2019_CLASSIC: 2, PREMIUM: 2},
        effect="handmaid",
        text="Until the start of your next turn, other players' cards can't choose you.",
    ),
    Card(
        "sycophant",
        number=4,
        copies={PREMIUM: 2},
        effect="sycophant",
        text="Choose any player (you too). The next card played that chooses players must "
        "choose them if it can.",
        chooses=Choice.ANY,
    ),
    Card(
        "prince",
        number=5,
        copies={CLASSIC: 2, V2019: 2, V2019_CLASSIC: 2, PREMIUM: 2},
        effect="prince",
        text="Choose any player (you too): they discard their hand without its effect and draw "
        "a new card.",
        chooses=Choice.ANY,
    ),
    Card(
        "count",
        number=5,
        copies={PREMIUM: 2},
        effect="no_effect",
        text="No effect. At a showdown, each Count in your discard pile adds 1 to your card's "
        "number.",
        showdown_bonus=1,
    ),
    Card(
        "chancellor",
        number=6,
        copies={V2019: 2},
        effect="chancellor",
        text="Draw two cards. Keep one of the cards in your hand and put the others at the "
        "bottom of the deck in any order.",
    ),
    Card(
        "king",
        number={CLASSIC: 6, V2019: 7, V2019_CLASSIC: 7, PREMIUM: 6},
        copies={CLASSIC: 1, V2019: 1, V2019_CLASSIC: 1, PREMIUM: 1},
        effect="king",
        text="Choose another player and swap hands with them.",
        chooses=Choice.OTHER,
    ),
    Card(
        "constable",
        number=6,
        copies={PREMIUM: 1},
        effect="no_effect",
        text="No effect. If you are put out of the round while the Constable is in your discard "
        "pile, you gain a token.",
        scores_when_out=True,
    ),
    Card(
        "countess",
        number={CLASSIC: 7, V2019: 8, V2019_CLASSIC: 8, PREMIUM: 7},
        copies={CLASSIC: 1, V2019: 1, V2019_CLASSIC: 1, PREMIUM: 1},
        effect="no_effect",
        text={
            CLASSIC: "No effect, but you must play her if your other card is the King, the "
            "Prince or the Princess.",
            V2019: "No effect, but you must play her if your other card is the King or the Prince.",
            V2019_CLASSIC: "No effect, but you must play her if your other card is the King or "
            "the Prince.",
            PREMIUM: "No effect, but you must play her if your other card is the King, the "
            "Prince or the Princess.",
        },
        must_play_beside={
            CLASSIC: frozenset({"king", "prince", "princess"}),
            V2019: frozenset({"king", "prince"}),
            V2019_CLASSIC: frozenset({"king", "prince"}),
            PREMIUM: frozenset({"king", "prince", "princess"}),
        },
    ),
    Card(
        "dowager_queen",
        number=7,
        copies={PREMIUM: 1},
        effect="dowager_queen",
        text="Choose another player and compare hands with them in secret: the higher number is "
        "out of the round.",
        chooses=Choice.OTHER,
    ),
    Card(
        "princess",
        number={CLASSIC: 8, V2019: 9, V2019_CLASSIC: 9, PREMIUM: 8},
        copies={CLASSIC: 1, V2019: 1, V2019_CLASSIC: 1, PREMIUM: 1},
        effect="princess",
        text="If you play or discard her, for any reason, you are out of the round.",
        out_when_discarded=True,
    ),
    Card(
        "bishop",
        number=9,
        copies={PREMIUM: 1},
        effect="bishop",
        text="Choose another player and name a number other than 1. If their card has it, you "
        "gain a token and they may discard their hand and draw a new one. At a showdown the "
        "Bishop loses to the Princess.",
        chooses=Choice.OTHER,
        names={PREMIUM: Naming.NUMBER},
        loses_showdown_to=frozenset({"princess"}),
    ),
)

CARDS: Mapping[str, Card] = MappingProxyType({card.id: card for card in _ALL})
