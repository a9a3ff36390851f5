"""Helpers for unit tests of the rules: game sizes and rigged starts."""

from __future__ import annotations

from game import StartGame, step
from game.commands import Deal
from game.editions import EDITIONS
from game.state import GameState

# Every edition with every player count it allows.
GAME_SIZES = [
    (edition.id, players)
    for edition in EDITIONS.values()
    for players in range(edition.min_players, edition.max_players + 1)
]


def rigged(
    edition: str,
    hands: list[str],
    deck: list[str],
    set_aside: str,
    face_up: tuple[str, ...] = (),
    first: int = 0,
) -> GameState:
    """A game whose first round is dealt exactly as given (seat i holds hands[i])."""
    names = tuple(f"p{seat}" for seat in range(len(hands)))
    deal = Deal(set_aside, face_up, tuple(hands), tuple(deck))
    return step(None, StartGame(edition, names, "rigged", first, deal))[1]


def rest_of_deck(edition: str, *named: str) -> list[str]:
    """The edition's cards in table order, minus one copy of each named card."""
    remaining = list(EDITIONS[edition].deck)
    for card in named:
        remaining.remove(card)
    return remaining
