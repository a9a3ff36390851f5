"""Property tests of the engine over random legal games of every edition and player count."""

from __future__ import annotations

import random
from collections import Counter
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game import EDITIONS, IllegalCommand, legal_commands, step
from game.choices import normalised
from game.commands import AnswerRedraw, Command, FinishChancellor, Forfeit, PlayCard
from game.evolve import evolve, fold
from game.selfplay import PlayedGame, play_game
from game.state import Decision, GameState, Phase
from tests.unit.games import GAME_SIZES, rest_of_deck, rigged

SEEDS = st.integers(min_value=0, max_value=2**32)


def all_cards(state: GameState) -> Counter[str]:
    """Every card in every place the rules know of."""
    places: Counter[str] = Counter(state.deck)
    places.update(state.face_up)
    if state.set_aside is not None:
        places[state.set_aside] += 1
    for hand, pile in zip(state.hands, state.discards, strict=True):
        places.update(hand)
        places.update(pile)
    return places


def check_one_seat_acts(state: GameState, legal: list[Command]) -> None:
    """While a round is live exactly one seat, still in the round, must act, and can."""
    assert state.phase is Phase.ROUND
    seat = state.current
    assert seat is not None and not state.eliminated[seat] and seat not in state.forfeited
    assert state.decision is not None
    assert legal, "the seat that must act has no legal command"
    assert {command.seat for command in legal} == {seat}
    hand_size = {Decision.PLAY: 2, Decision.CHANCELLOR: None, Decision.REDRAW: 1}[state.decision]
    if hand_size is not None:
        assert len(state.hands[seat]) == hand_size


def candidate_commands(state: GameState, rng: random.Random, count: int) -> list[Command]:
    """Commands from a space much wider than the legal one: any seat, card, choice."""
    seats = list(range(len(state.players) + 1))
    cards = list(state.edition.rank)
    guesses: list[str | int | None] = [None, *cards, *range(-1, 11)]
    commands: list[Command] = []
    for _ in range(count):
        kind = rng.random()
        seat = rng.choice(seats) if rng.random() < 0.2 else (state.current or 0)
        if kind < 0.7:
            targets = tuple(rng.choice(seats) for _ in range(rng.choice([0, 1, 1, 2, 2, 3])))
            look = rng.choice([None, *seats])
            card = rng.choice([*cards, *state.hands[seat % len(state.players)]])
            commands.append(PlayCard(seat, card, targets, rng.choice(guesses), look))
        elif kind < 0.9:
            hand = list(state.hands[seat % len(state.players)]) + rng.sample(cards, 1)
            rng.shuffle(hand)
            size = rng.choice([1, 2, 3])
            commands.append(FinishChancellor(seat, hand[0], tuple(hand[1:size])))
        else:
            commands.append(AnswerRedraw(seat, rng.random() < 0.5))
    return commands


@pytest.mark.parametrize(("edition", "players"), GAME_SIZES)
@given(seed=SEEDS)
@settings(max_examples=12, deadline=None)
def test_random_games_keep_every_invariant(edition: str, players: int, seed: int) -> None:
    """Random legal play never raises; cards are conserved; one seat acts; folding agrees."""
    rng = random.Random(seed)

    def choose(state: GameState, legal: list[Command]) -> Command:
        check_one_seat_acts(state, legal)
        return rng.choice(legal)

    check_game(play_game(edition, players, str(seed), choose), edition)


@pytest.mark.parametrize(("edition", "players"), GAME_SIZES)
@given(seed=SEEDS)
@settings(max_examples=4, deadline=None)
def test_games_with_forfeits_keep_every_invariant(edition: str, players: int, seed: int) -> None:
    """Seats giving up at random moments (in turn or not) break no invariant."""
    rng = random.Random(seed)

    def choose(state: GameState, legal: list[Command]) -> Command:
        check_one_seat_acts(state, legal)
        if rng.random() < 0.03 and len(state.contenders()) > 1:
            return Forfeit(rng.choice(state.contenders()))
        return rng.choice(legal)

    game = check_game(play_game(edition, players, str(seed), choose), edition)
    assert not set(game.state.game_winners) & game.state.forfeited


def check_game(game: PlayedGame, edition: str) -> PlayedGame:
    """Cards conserved after every event, folding agrees with stepping, the game ended well."""
    expected_cards = Counter(EDITIONS[edition].deck)
    state = None
    for event in game.events:
        state = evolve(state, event)
        if state.round:
            assert all_cards(state) == expected_cards, f"cards not conserved after {event}"
    assert state == game.state
    assert fold(game.events) == game.state
    assert game.state.phase is Phase.OVER
    winners = game.state.game_winners
    by_tokens = all(game.state.tokens[w] >= game.state.target for w in winners)
    assert winners and (by_tokens or len(game.state.contenders()) == 1)
    assert legal_commands(game.state) == []
    return game


@pytest.mark.parametrize(("edition", "players"), GAME_SIZES)
@given(seed=SEEDS)
@settings(max_examples=6, deadline=None)
def test_only_listed_commands_are_accepted(edition: str, players: int, seed: int) -> None:
    """decide accepts a command exactly when it is among the legal ones (choices in seat order)."""
    rng = random.Random(seed)

    def choose(state: GameState, legal: list[Command]) -> Command:
        listed = set(legal)
        for command in legal:
            step(state, command)  # every listed command is accepted
        for command in candidate_commands(state, rng, 40):
            wanted = normalised(command) if isinstance(command, PlayCard) else command
            try:
                events, after = step(state, command)
            except IllegalCommand:
                assert wanted not in listed, f"a listed command was refused: {command}"
            else:
                assert wanted in listed, f"an unlisted command was accepted: {command}"
                assert fold(events, state) == after
        return rng.choice(legal)

    play_game(edition, players, str(seed), choose)


def test_chancellor_lists_every_keep_and_order() -> None:
    """A Chancellor choice over three different cards lists 3 keeps x 2 orders."""
    named = ("chancellor", "guard", "priest", "spy", "handmaid", "king", "countess")
    deck = ["handmaid", "king", "countess", *rest_of_deck("2019", *named)]
    state = rigged("2019", ["chancellor", "guard", "priest"], deck, "spy")
    state = step(state, PlayCard(0, "chancellor"))[1]
    legal = legal_commands(state)
    hand = state.hands[0]
    assert sorted(hand) == ["countess", "handmaid", "king"]
    expected = {
        FinishChancellor(0, keep, rest)
        for index, keep in enumerate(hand)
        for rest in permutations(hand[:index] + hand[index + 1 :])
    }
    assert len(legal) == len(expected) == 6
    assert set(legal) == expected
