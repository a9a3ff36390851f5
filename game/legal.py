"""Every command the seat that must act may send now."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from itertools import permutations

from game.cards import CARDS, Choice
from game.choices import choosable, forced_card, guesses, options
from game.commands import AnswerRedraw, Command, FinishChancellor, PlayCard
from game.editions import Edition
from game.events import CardPlayed
from game.state import Decision, GameState, Phase

# Read on every move: module constants are quicker than the enums' attributes.
_ROUND, _REDRAW, _CHANCELLOR = Phase.ROUND, Decision.REDRAW, Decision.CHANCELLOR


@dataclass(frozen=True, slots=True)
class HandPlays:
    """Every legal play of one hand, and what they were worked out from."""

    commands: tuple[PlayCard, ...]
    cards: tuple[str, ...]  # the cards that may be played (the Countess alone, when forced)
    others: tuple[int, ...]  # the other players a card may choose


def legal_commands(state: GameState | None) -> list[Command]:
    """All legal commands for `state.current` (several chosen players listed in seat order)."""
    if state is None or state.phase is not _ROUND:  # between rounds and after the game
        return []
    seat = state.turn_seat if state.deciding_seat is None else state.deciding_seat
    if state.decision is _REDRAW:
        return [AnswerRedraw(seat, True), AnswerRedraw(seat, False)]
    if state.decision is _CHANCELLOR:
        return _chancellor_choices(seat, state.hands[seat])
    return list(hand_plays(state, seat).commands)


def play_event(state: GameState, play: PlayCard) -> CardPlayed | None:
    """The event that records `play` if it is legal now (several chosen players sorted)."""
    plays = hand_plays(state, play.seat)
    if play.card not in plays.cards:
        return None
    events = _play_events(state.edition, play.seat, play.card, plays.others, state.sycophant)
    return events.get((play.targets, play.guess, play.look))


def hand_plays(state: GameState, seat: int) -> HandPlays:
    """Every legal play of `seat`'s hand now (when it is theirs to play)."""
    global _last
    last = _last  # one read: another thread may replace it meanwhile
    if last[0] is state and last[1] == seat:
        return last[2]
    others = choosable(state.eliminated, state.protected, seat)
    plays = _hand_plays(state.edition, seat, state.hands[seat], others, state.sycophant)
    _last = (state, seat, plays)
    return plays


# The last answer of `hand_plays`: the legal commands of a state are usually listed just before
# one of them is decided on that same state.
_last: tuple[GameState | None, int, HandPlays] = (None, -1, HandPlays((), (), ()))


@cache
def _hand_plays(
    edition: Edition, seat: int, hand: tuple[str, ...], others: tuple[int, ...], mark: int | None
) -> HandPlays:
    """Every way to play a card of this hand (two copies of a card: one way to play them)."""
    forced = forced_card(edition, hand)
    cards = (forced,) if forced is not None else tuple(dict.fromkeys(hand))
    commands = tuple(play for card in cards for play in _plays(edition, seat, card, others, mark))
    return HandPlays(commands, cards, others)


# A play's choices as a plain tuple (targets, guess, look): quicker to look up than the command.
Choices = tuple[tuple[int, ...], str | int | None, int | None]


@cache
def _play_events(
    edition: Edition, seat: int, card: str, others: tuple[int, ...], mark: int | None
) -> Mapping[Choices, CardPlayed]:
    """Every legal way to play `card`, by its choices, with the event that records it."""
    return {
        (play.targets, play.guess, play.look): CardPlayed(
            play.seat, play.card, play.targets, play.guess, play.look
        )
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
