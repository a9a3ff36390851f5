"""Every command the seat that must act may send now."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from itertools import permutations

from game.cards import CHOICES, GUESSING_CARDS, Choice
from game.choices import choosable_others, countess_required, guesses, options
from game.commands import AnswerRedraw, Command, FinishChancellor, PlayCard
from game.editions import Edition
from game.events import CardPlayed
from game.state import Decision, GameState, Phase


def legal_commands(state: GameState | None) -> list[Command]:
    """All legal commands for `state.current` (several chosen players listed in seat order)."""
    if state is None or state.phase is not Phase.ROUND or state.current is None:
        return []
    seat = state.current
    if state.decision is Decision.REDRAW:
        return [AnswerRedraw(seat, True), AnswerRedraw(seat, False)]
    hand = state.hands[seat]
    if state.decision is Decision.CHANCELLOR:
        return _chancellor_choices(seat, hand)
    if countess_required(state.edition, hand):
        cards: tuple[str, ...] = ("countess",)
    else:
        cards = hand if hand[0] != hand[-1] else hand[:1]  # two copies: one way to play them
    others, mark, edition = choosable_others(state, seat), state.sycophant, state.edition
    plays: list[Command] = []
    for card in cards:
        plays.extend(_plays(edition, seat, card, others, mark))
    return plays


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
        named = guesses(edition, card) if card in GUESSING_CARDS else (None,)
        looks = targets if CHOICES[card] is Choice.TWO_AND_LOOK else (None,)
        plays.extend(PlayCard(seat, card, targets, g, look) for g in named for look in looks)
    return tuple(plays)


def _chancellor_choices(seat: int, hand: tuple[str, ...]) -> list[Command]:
    choices: dict[tuple[str, tuple[str, ...]], None] = {}
    for index, keep in enumerate(hand):
        rest = hand[:index] + hand[index + 1 :]
        for bottom in permutations(rest):
            choices[(keep, bottom)] = None
    return [FinishChancellor(seat, keep, bottom) for keep, bottom in choices]
