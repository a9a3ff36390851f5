"""Who wins a round that ends with an empty deck (docs/rules.md, "The end of a round")."""

from __future__ import annotations

from collections.abc import Callable

from game.state import GameState


def showdown_winners(state: GameState) -> tuple[int, ...]:
    """The seats still in the round whose hand wins the showdown (several on an unbroken tie)."""
    contenders = state.seats_in_round()
    held = {seat: state.hands[seat] for seat in contenders}
    for card in state.edition.cards.values():
        # A Bishop counts 9 but loses to the Princess, whatever Count bonuses say.
        if card.loses_showdown_to and any(
            not card.loses_showdown_to.isdisjoint(hand) for hand in held.values()
        ):
            contenders = [seat for seat in contenders if card.id not in held[seat]] or contenders
    best = _best(contenders, lambda seat: _hand_value(state, seat))
    if len(best) > 1 and state.edition.discard_total_breaks_ties:
        best = _best(best, lambda seat: sum(state.edition.rank[c] for c in state.discards[seat]))
    return tuple(best)


def _hand_value(state: GameState, seat: int) -> int:
    """The hand's rank plus each discarded card's showdown bonus (the Count's +1); -1 if empty."""
    hand = state.hands[seat]
    if not hand:
        return -1
    cards = state.edition.cards
    bonus = sum(cards[card].showdown_bonus for card in state.discards[seat])
    return max(state.edition.rank[card] for card in hand) + bonus


def _best(seats: list[int], value: Callable[[int], int]) -> list[int]:
    scores = {seat: value(seat) for seat in seats}
    top = max(scores.values())
    return [seat for seat in seats if scores[seat] == top]
