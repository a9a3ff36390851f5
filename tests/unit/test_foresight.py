"""The moves certain to put their own player out, judged from the seat's view: each case of the
rules on a rigged deal, and, over random games of every edition, the answer checked against the
engine in every world the seat can't tell apart (each card the chosen player may hold)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game import EDITIONS, legal_commands, step
from game.commands import AnswerRedraw, Command, FinishChancellor, PlayCard
from game.events import PlayerEliminated
from game.foresight import puts_you_out
from game.selfplay import play_game
from game.state import GameState, Knowledge
from game.views import view
from tests.unit.games import GAME_SIZES, rest_of_deck, rigged


def flagged(state: GameState) -> list[Command]:
    """The legal moves of the seat to act that the seat is warned of."""
    legal = legal_commands(state)
    seat = state.current
    assert seat is not None
    return [legal[index] for index in puts_you_out(view(state, seat), legal)]


def knowing(state: GameState, seat: int, card: str) -> GameState:
    """The state with seat 0 knowing (through a Priest) that `seat` holds `card`."""
    assert state.hands[seat] == (card,)
    return state.evolved(knowledge=(Knowledge(0, seat, card, "priest", 1, 1),))


def deal(edition: str, hands: list[str], drawn: str, set_aside: str) -> GameState:
    """Seat 0 to play, holding hands[0] and `drawn`; the rest of the edition is the deck (three
    players or more: no card face up; premium five or more)."""
    deck = rest_of_deck(edition, *hands, drawn, set_aside)
    return rigged(edition, hands, [drawn, *deck], set_aside)


def test_playing_the_princess_or_discarding_her_to_your_own_prince() -> None:
    state = deal("2019", ["princess", "guard", "priest"], "prince", "king")
    assert flagged(state) == [PlayCard(0, "princess"), PlayCard(0, "prince", (0,))]
    state = deal("classic", ["princess", "guard", "priest"], "guard", "king")
    assert flagged(state) == [PlayCard(0, "princess")]


def test_a_baron_against_a_card_known_to_be_higher() -> None:
    state = deal("classic", ["guard", "king", "handmaid"], "baron", "priest")
    assert flagged(state) == []  # the other player may hold a Guard: a tie
    assert flagged(knowing(state, 1, "king")) == [PlayCard(0, "baron", (1,))]


def test_a_dowager_queen_against_a_card_known_to_be_lower() -> None:
    hands = ["princess", "guard", "priest", "baron", "count"]
    state = deal("premium", hands, "dowager_queen", "king")
    known = knowing(state, 2, "priest")
    assert flagged(known) == [PlayCard(0, "princess"), PlayCard(0, "dowager_queen", (2,))]


def test_a_guard_on_a_known_assassin_and_a_princess_to_redraw() -> None:
    state = deal("premium", ["guard", "assassin", "princess", "baron", "count"], "bishop", "king")
    plays = [play for play in legal_commands(state) if isinstance(play, PlayCard)]
    guards = [play for play in plays if play.card == "guard" and play.targets == (1,)]
    assert len(guards) == 9  # every number it may name
    assert flagged(knowing(state, 1, "assassin")) == guards
    # The Bishop names seat 2's number: she may discard her Princess and draw, which puts her out.
    _, asked = step(state, PlayCard(0, "bishop", (2,), 8))
    assert asked.current == 2
    assert flagged(asked) == [AnswerRedraw(2, True)]


def may_hold(state: GameState, seat: int, other: int) -> list[str]:
    """Every card `other` may hold as far as `seat` knows: the one it last learnt is there, if
    still held, or any card of the edition it has not seen (counted apart from the code under
    test: the seat's hand, the face-up cards, the discard piles, the cards it knows elsewhere)."""
    facts = [f for f in state.knowledge if f.viewer == seat and f.still_held and f.seat != seat]
    held = {f.seat: f.card for f in facts if f.seat is not None}  # the last fact of each seat
    if other in held:
        return [held[other]]
    unseen = Counter(state.edition.deck)
    unseen.subtract(state.hands[seat])
    unseen.subtract(state.face_up)
    for pile in state.discards:
        unseen.subtract(pile)
    unseen.subtract(held.values())
    unseen.subtract(f.card for f in facts if f.seat is None)  # under the deck
    return sorted(card for card, count in unseen.items() if count > 0)


def out_in_every_world(state: GameState, command: Command) -> bool:
    """Whether `command` puts its seat out whatever the chosen players hold (as far as the seat
    knows); the true world is one of them."""
    assert isinstance(command, PlayCard | AnswerRedraw | FinishChancellor)
    seat = command.seat
    others = [s for s in getattr(command, "targets", ()) if s != seat]
    choices = [may_hold(state, seat, other) for other in others]
    for other, cards in zip(others, choices, strict=True):
        assert state.hands[other][0] in cards, "the truth is among the worlds"
    for world in product(*choices):
        hands = list(state.hands)
        for other, held in zip(others, world, strict=True):
            hands[other] = (held,)
        events, _ = step(state.evolved(hands=tuple(hands)), command)
        if not any(isinstance(e, PlayerEliminated) and e.seat == seat for e in events):
            return False
    return True


def check_every_decision(edition: str, players: int, seed: int, sample: int) -> Counter[str]:
    """Play a random game; at each decision compare the warnings with the engine's outcomes
    (every warned move, and `sample` others); the cards of the warned moves, counted."""
    rng = random.Random(seed)
    warned: Counter[str] = Counter()

    def choose(state: GameState, legal: list[Command]) -> Command:
        seat = state.current
        assert seat is not None
        marked = set(puts_you_out(view(state, seat), legal))
        checked = marked | set(rng.sample(range(len(legal)), min(sample, len(legal))))
        for index in sorted(checked):
            expected = out_in_every_world(state, legal[index])
            assert (index in marked) == expected, (legal[index], state.hands, state.knowledge)
        warned.update(getattr(legal[index], "card", "redraw") for index in marked)
        return legal[int(rng.random() * len(legal))]

    play_game(edition, players, f"foresight-{seed}", choose)
    return warned


@pytest.mark.parametrize(("edition", "players"), GAME_SIZES)
@given(seed=st.integers(min_value=0, max_value=2**32))
@settings(max_examples=4, deadline=None)
def test_warnings_match_the_engine_in_random_games(edition: str, players: int, seed: int) -> None:
    check_every_decision(edition, players, seed, sample=6)


def test_random_games_meet_each_kind_of_warning() -> None:
    """The random games above do reach the warnings: a Princess, a Prince on yourself, a Baron
    against a known card (and in premium a Dowager Queen)."""
    warned: Counter[str] = Counter()
    for seed in range(60):
        for edition in EDITIONS.values():
            warned += check_every_decision(edition.id, edition.min_players, seed, sample=2)
    assert {"princess", "prince", "baron", "dowager_queen"} <= set(warned), warned
