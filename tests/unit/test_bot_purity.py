"""Bots stay pure: every level decides from its seat's view and its seed alone, so two states that
differ only in cards the seat can't see get the same decision (and a tournament replays)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game import legal_commands, view
from game.bots import make_policy
from game.bots.beliefs import Beliefs
from game.bots.levels import LEVELS
from game.bots.search import sample_world
from game.commands import Command
from game.selfplay import play_game
from game.state import GameState
from game.views import SeatView
from tests.unit.games import GAME_SIZES

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


def level(name: str, seed: int) -> Decider:
    """A level as seats and take-overs get it (its own budget: `hard`'s fixed worlds), a fresh
    policy for every decision, seeing only the seat's view and the legal commands."""
    return lambda state, seat: make_policy(name, seed).choose(
        view(state, seat), legal_commands(state)
    )


@pytest.mark.parametrize("name", sorted(LEVELS))
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    edition_players=st.sampled_from(GAME_SIZES),
    cut=st.integers(0, 80),
)
@settings(max_examples=10, deadline=None)
def test_every_level_decides_alike_when_only_hidden_cards_differ(
    name: str, seed: int, edition_players: tuple[str, int], cut: int
) -> None:
    """Easy, medium and hard at their own budgets: the hidden cards change, the command doesn't."""
    edition, players = edition_players
    truth, twin = twin_states(seed, edition, players, cut)
    assert decides_alike(level(name, seed), truth, twin)


def test_a_bot_that_peeks_is_caught() -> None:
    """The check itself: a decider that reads the true state (the deck's top card, the others'
    hands) is told apart within a few games."""

    def peeking(state: GameState, seat: int) -> Command:
        legal = legal_commands(state)
        secret = "".join(state.deck[:1]) + "".join(c for hand in state.hands for c in hand)
        return random.Random(secret).choice(legal)

    caught = 0
    for seed in range(20):
        truth, twin = twin_states(seed, "2019", 4, 7 + seed)
        if len(legal_commands(truth)) > 1 and not decides_alike(peeking, truth, twin):
            caught += 1
    assert caught > 0
