"""Public clues: what public play showed each seat's card is not, this round (docs/rules.md).

A projection of the round's events kept beside the rules' state, which never reads it (so the
engine does no work for it): a card a Guard or Bishop named and missed, the cards a Baron's or
Dowager Queen's winner can't hold once the loser's card is laid down. Each clue is dated by the
cards on the seat's discard pile then, since a card drawn later may be the one named; a swap or a
Chancellor's choice ends what was ruled out of those players' cards.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from game import events as ev
from game.editions import EDITIONS, Edition
from game.state import GameState

# A seat, the cards its card was shown not to be, the cards on its discard pile then.
Clue = tuple[int, tuple[str, ...], int]


def _named(edition: Edition) -> dict[str | int, tuple[str, ...]]:
    """What a guess names -> the cards it names: one card, or every card of a number."""
    named: dict[str | int, tuple[str, ...]] = {card: (card,) for card in edition.rank}
    for number in set(edition.rank.values()):
        named[number] = tuple(card for card, rank in edition.rank.items() if rank == number)
    return named


def _beaten(edition: Edition) -> dict[tuple[str, bool], tuple[str, ...]]:
    """(the loser's card, whether the winner's is higher) -> the cards the winner can't hold:
    those not higher (a Baron) or not lower (a Dowager Queen) than the loser's."""
    rank = edition.rank
    return {
        (shown, higher): tuple(
            card for card, r in rank.items() if (r <= lost if higher else r >= lost)
        )
        for shown, lost in rank.items()
        for higher in (True, False)
    }


_NAMED = {edition.id: _named(edition) for edition in EDITIONS.values()}
_BEATEN = {edition.id: _beaten(edition) for edition in EDITIONS.values()}


def follow(clues: tuple[Clue, ...], event: Any, state: GameState) -> tuple[Clue, ...]:
    """The clues after `event`; `state` is the game after it, or after the command it is part
    of (the discard piles read here don't change later in that command)."""
    if isinstance(event, ev.GuessChecked):
        if event.correct:
            return clues
        target = event.target
        named = _NAMED[state.edition.id][event.guess]
        return (*clues, (target, named, len(state.discards[target])))
    if isinstance(event, ev.HandsCompared):
        if event.loser is None:
            return clues
        if event.loser == event.seat:
            winner, won, lost = event.target, event.target_card, event.card
        else:
            winner, won, lost = event.seat, event.card, event.target_card
        rank = state.edition.rank
        beaten = _BEATEN[state.edition.id][lost, rank[won] > rank[lost]]
        return (*clues, (winner, beaten, len(state.discards[winner])))
    if isinstance(event, ev.HandsSwapped):
        return _without(clues, event.seat, event.other)
    if isinstance(event, ev.ChancellorReturned):
        return _without(clues, event.seat)
    if isinstance(event, ev.RoundStarted):
        return ()
    return clues


def follow_all(
    clues: tuple[Clue, ...], events: Iterable[Any], state: GameState
) -> tuple[Clue, ...]:
    """The clues after a command's events, `state` being the game after them."""
    for event in events:
        clues = follow(clues, event, state)
    return clues


def _without(clues: tuple[Clue, ...], *seats: int) -> tuple[Clue, ...]:
    """The clues but those of `seats`, who now hold a card the clues no longer speak of."""
    return tuple(clue for clue in clues if clue[0] not in seats)
