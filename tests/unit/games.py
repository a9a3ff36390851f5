"""Helpers for unit tests of the rules: game sizes, rigged starts, and twin states that differ
only in what a seat can't see."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from game import StartGame, step, view
from game.bots.beliefs import Beliefs
from game.bots.search import sample_world
from game.commands import Command, Deal
from game.editions import EDITIONS
from game.selfplay import play_game
from game.state import GameState
from game.views import SeatView

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


# A decision: the true state and the seat that acts in it -> the command chosen.
Decider = Callable[[GameState, int], Command]


def same_sight(a: SeatView, b: SeatView) -> bool:
    """Two views that agree on all but the order of the facts the seat knows."""
    return replace(a, known=()) == replace(b, known=()) and Counter(a.known) == Counter(b.known)


def twin_states(seed: int, edition: str, players: int, cut: int) -> tuple[GameState, GameState]:
    """A state met in a game of random play, and another world its acting seat can't tell apart
    from it: every card that seat can't see dealt anew (other hands, the deck, the set-aside)."""
    rng = random.Random(seed)
    states: list[GameState] = []

    def choose(state: GameState, legal: list[Command]) -> Command:
        states.append(state)
        return rng.choice(legal)

    play_game(edition, players, str(seed), choose)
    truth = states[cut % len(states)]
    seat = truth.current
    assert seat is not None
    seen = view(truth, seat)
    twin = sample_world(seen, Beliefs.from_view(seen), random.Random(seed + 1))
    assert same_sight(seen, view(twin, seat))
    return truth, twin


def decides_alike(decide: Decider, truth: GameState, twin: GameState) -> bool:
    """Whether a decider gives the acting seat the same command in both states."""
    seat = truth.current
    assert seat is not None
    return decide(truth, seat) == decide(twin, seat)
