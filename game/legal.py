"""Every command the seat that must act may send now."""

from __future__ import annotations

from functools import cache
from itertools import permutations

from game.cards import CHOICES, GUESSING_CARDS, Choice
from game.choices import countess_required, guesses, target_options
from game.commands import AnswerRedraw, Command, FinishChancellor, PlayCard
from game.editions import Edition
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
    cards = ("countess",) if countess_required(state.edition, hand) else tuple(dict.fromkeys(hand))
    return [play for card in cards for play in _plays(state, seat, card)]


def _plays(state: GameState, seat: int, card: str) -> list[Command]:
    plays: list[Command] = []
    for targets in target_options(state, seat, card):
        plays.extend(_plays_on(state.edition, seat, card, targets))
    return plays


@cache
def _plays_on(
    edition: Edition, seat: int, card: str, targets: tuple[int, ...]
) -> tuple[PlayCard, ...]:
    """Every way to play `card` on these players (commands are values, so they are shared)."""
    if not targets:
        return (PlayCard(seat, card),)
    named = guesses(edition, card) if card in GUESSING_CARDS else (None,)
    looks = targets if CHOICES[card] is Choice.TWO_AND_LOOK else (None,)
    return tuple(PlayCard(seat, card, targets, guess, look) for guess in named for look in looks)


def _chancellor_choices(seat: int, hand: tuple[str, ...]) -> list[Command]:
    choices: dict[tuple[str, tuple[str, ...]], None] = {}
    for index, keep in enumerate(hand):
        rest = hand[:index] + hand[index + 1 :]
        for bottom in permutations(rest):
            choices[(keep, bottom)] = None
    return [FinishChancellor(seat, keep, bottom) for keep, bottom in choices]
