"""Who wins a round that ends with an empty deck (RULES.md sections 2 and 6)."""

from __future__ import annotations

from collections.abc import Callable

from game.state import GameState


def showdown_winners(state: GameState) -> tuple[int, ...]:
    """The seats still in the round whose hand wins the showdown (several on an unbroken tie)."""
    contenders = state.seats_in_round()
    held = {seat: state.hands[seat] for seat in contenders}
    if any("princess" in hand for hand in held.values()):
        # A Bishop counts 9 but loses to the Princess, whatever Count bonuses say.
        contenders = [seat for seat in contenders if "bishop" not in held[seat]] or contenders
    best = _best(contenders, lambda seat: _hand_value(state, seat))
    if len(best) > 1 and state.edition.discard_total_breaks_ties:
        best = _best(best, lambda seat: sum(state.edition.rank[c] for c in state.discards[seat]))
    return tuple(best)


def _hand_value(state: GameState, seat: int) -> int:
    """The hand's rank plus one for each Count in the discard pile; -1 for an empty hand."""
    hand = state.hands[seat]
    if not hand:
        return -1
    return max(state.edition.rank[card] for card in hand) + state.discards[seat].count("count")


def _best(seats: list[int], value: Callable[[int], int]) -> list[int]:
    scores = {seat: value(seat) for seat in seats}
    top = max(scores.values())
    return [seat for seat in seats if scores[seat] == top]
