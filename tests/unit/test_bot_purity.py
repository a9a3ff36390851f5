"""Bots stay pure: every level decides from its seat's view and its seed alone, so two states that
differ only in cards the seat can't see get the same decision (and a tournament replays)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game import legal_commands, view
from game.bots import make_policy
from game.bots.levels import LEVELS
from game.commands import Command
from game.state import GameState
from tests.unit.games import GAME_SIZES, Decider, decides_alike, twin_states


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
