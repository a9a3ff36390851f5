"""What each card asks its player to choose, as data (ranks live with the editions)."""

from __future__ import annotations

from enum import Enum


class Choice(Enum):
    """The players a card chooses when it is played."""

    NONE = "none"  # no choice: handmaid, countess, princess, spy, chancellor, constable, ...
    OTHER = "other"  # one other player
    ANY = "any"  # one player, its own player included
    ONE_OR_TWO_OTHERS = "one-or-two-others"  # baroness
    TWO_AND_LOOK = "two-and-look"  # cardinal: two players (self allowed), then look at one


CHOICES: dict[str, Choice] = {
    "spy": Choice.NONE,
    "guard": Choice.OTHER,
    "priest": Choice.OTHER,
    "baron": Choice.OTHER,
    "handmaid": Choice.NONE,
    "prince": Choice.ANY,
    "chancellor": Choice.NONE,
    "king": Choice.OTHER,
    "countess": Choice.NONE,
    "princess": Choice.NONE,
    "bishop": Choice.OTHER,
    "dowager_queen": Choice.OTHER,
    "constable": Choice.NONE,
    "count": Choice.NONE,
    "sycophant": Choice.ANY,
    "baroness": Choice.ONE_OR_TWO_OTHERS,
    "cardinal": Choice.TWO_AND_LOOK,
    "jester": Choice.OTHER,
    "assassin": Choice.NONE,
}

# Cards that name a card (or a number) when they choose a player.
GUESSING_CARDS = frozenset({"guard", "bishop"})
