"""Every command the seat that must act may send now."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from itertools import permutations

from game.cards import CARDS, Choice
from game.choices import choosable_others, forced_card, guesses, options
from game.commands import AnswerRedraw, Command, FinishChancellor, PlayCard
from game.editions import Edition
from game.events import CardPlayed
from game.state import Decision, GameState


def legal_commands(state: GameState | None) -> list[Command]:
    """All legal commands for `state.current` (several chosen players listed in seat order)."""
    seat = None if state is None else state.current  # None between rounds and after the game
    if state is None or seat is None:
        return []
    if state.decision is Decision.REDRAW:
        return [AnswerRedraw(seat, True), AnswerRedraw(seat, False)]
    hand = state.hands[seat]
    if state.decision is Decision.CHANCELLOR:
        return _chancellor_choices(seat, hand)
    return list(
        _hand_plays(state.edition, seat, hand, choosable_others(state, seat), state.sycophant)
    )


@cache
def _hand_plays(
    edition: Edition, seat: int, hand: tuple[str, ...], others: tuple[int, ...], mark: int | None
) -> tuple[PlayCard, ...]:
    """Every way to play a card of this hand (two copies of a card: one way to play them)."""
    forced = forced_card(edition, hand)
    cards = (forced,) if forced is not None else tuple(dict.fromkeys(hand))
    return tuple(play for card in cards for play in _plays(edition, seat, card, others, mark))


def legal_plays(state: GameState, seat: int, card: str) -> Mapping[PlayCard, CardPlayed]:
    """Every legal way for `seat` to play `card` now (choices of several players sorted), each
    with the event that records it."""
    return _play_events(state.edition, seat, card, choosable_others(state, seat), state.sycophant)


@cache
def _play_events(
    edition: Edition, seat: int, card: str, others: tuple[int, ...], mark: int | None
) -> Mapping[PlayCard, CardPlayed]:
    return {
        play: CardPlayed(play.seat, play.card, play.targets, play.guess, play.look)
        for play in _plays(edition, seat, card, others, mark)
    }


@cache
def _plays(
    edition: Edition, seat: int, card: str, others: tuple[int, ...], mark: int | None
) -> tuple[PlayCard, ...]:
    """Every way to play `card` (commands are values, so the lists are shared)."""
    plays: list[PlayCard] = []
    for targets in options(card, seat, others, mark):
        if not targets:
            plays.append(PlayCard(seat, card))
            continue
        named = guesses(edition, card) or (None,)
        looks = targets if CARDS[card].chooses is Choice.TWO_AND_LOOK else (None,)
        plays.extend(PlayCard(seat, card, targets, g, look) for g in named for look in looks)
    return tuple(plays)


def _chancellor_choices(seat: int, hand: tuple[str, ...]) -> list[Command]:
    choices: dict[tuple[str, tuple[str, ...]], None] = {}
    for index, keep in enumerate(hand):
        rest = hand[:index] + hand[index + 1 :]
        for bottom in permutations(rest):
            choices[(keep, bottom)] = None
    return [FinishChancellor(seat, keep, bottom) for keep, bottom in choices]
