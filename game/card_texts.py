"""Each card's name and what it does, in words for players (RULES.md sections 4 to 6), as data.

A text is the card's own unless its edition has one of its own for that card.
"""

from __future__ import annotations

from game.editions import Edition

NAMES: dict[str, str] = {
    "spy": "Spy",
    "guard": "Guard",
    "priest": "Priest",
    "baron": "Baron",
    "handmaid": "Handmaid",
    "prince": "Prince",
    "chancellor": "Chancellor",
    "king": "King",
    "countess": "Countess",
    "princess": "Princess",
    "bishop": "Bishop",
    "dowager_queen": "Dowager Queen",
    "constable": "Constable",
    "count": "Count",
    "sycophant": "Sycophant",
    "baroness": "Baroness",
    "cardinal": "Cardinal",
    "jester": "Jester",
    "assassin": "Assassin",
}

EFFECTS: dict[str, str] = {
    "spy": "No effect. At the end of the round, if you are the only player still in who played "
    "or discarded a Spy, you gain a token.",
    "guard": "Choose another player and name a card other than the Guard: if they hold it, "
    "they are out of the round.",
    "priest": "Choose another player and look at their hand.",
    "baron": "Choose another player and compare hands in secret: the lower card is out of the "
    "round. A tie does nothing.",
    "handmaid": "Until the start of your next turn, other players' cards can't choose you.",
    "prince": "Choose any player (you too): they discard their hand without its effect and draw "
    "a new card (the set-aside card when the deck is empty). A discarded Princess puts them out.",
    "chancellor": "Draw two cards, keep one of the cards in your hand and put the others under "
    "the deck in the order you choose.",
    "king": "Choose another player and trade hands with them.",
    "countess": "No effect, but you must play her if your other card is the King, the Prince or "
    "the Princess.",
    "princess": "If you play or discard her, you are out of the round.",
    "bishop": "Choose another player and name a number other than 1: if their card has it, you "
    "gain a token and they may discard their hand and draw anew. At a showdown the Bishop loses "
    "to the Princess.",
    "dowager_queen": "Choose another player and compare hands in secret: the higher card is out "
    "of the round. A tie does nothing.",
    "constable": "No effect now. If you are knocked out of the round while the Constable lies in "
    "your discard pile, you gain a token.",
    "count": "No effect now. At a showdown, each Count in your discard pile adds 1 to your card.",
    "sycophant": "Choose any player (you too): the next card played that chooses players must "
    "choose them, if it can.",
    "baroness": "Choose one or two other players and look at their hands.",
    "cardinal": "Choose two players (you may be one): they trade hands. Then look at the hand of "
    "one of them.",
    "jester": "Choose another player: if they win this round, you gain a token.",
    "assassin": "No effect when played. If a Guard chooses you while you hold it, the Guard's "
    "player is out instead, and you discard the Assassin and draw a new card.",
}

# Where an edition's card reads differently from the card's own text.
EDITION_EFFECTS: dict[tuple[str, str], str] = {
    ("2019", "countess"): "No effect, but you must play her if your other card is the King or "
    "the Prince.",
    ("2019-classic", "countess"): "No effect, but you must play her if your other card is the "
    "King or the Prince.",
    ("premium", "guard"): "Choose another player and name a number other than 1: if their card "
    "has it, they are out of the round.",
}


def effect(edition: Edition, card: str) -> str:
    """What `card` does in `edition`."""
    return EDITION_EFFECTS.get((edition.id, card), EFFECTS[card])
