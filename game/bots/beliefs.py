"""What a seat can infer from its view: unseen cards and each other seat's likely hand."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from game.editions import EDITIONS, Edition
from game.views import SeatView

# Fitted on heuristic self-play (log-likelihood of the true hand): rank lean and the odds of
# holding a card ranked below the one just discarded.
LEAN = tuple(math.exp(0.12 * rank) for rank in range(10))
BELOW = 0.1


_COPIES = {edition.id: Counter(edition.deck) for edition in EDITIONS.values()}


def _take(counts: dict[str, int], cards: tuple[str, ...]) -> None:
    """Take seen cards out of the counts."""
    for card in cards:
        counts[card] -= 1


@dataclass(frozen=True)
class Beliefs:
    """Unseen cards (other hands, deck, set-aside card) and the hands this seat knows."""

    edition: Edition
    you: int
    unseen: dict[str, int]  # cards out of this seat's sight, known ones excluded
    held: dict[int, str]  # other seats whose card this seat knows is still there
    under_deck: tuple[str, ...]  # cards this seat put under the deck, still there, top first
    last_played: dict[int, str] = field(default_factory=dict)  # the top of each discard pile

    @classmethod
    def from_view(cls, view: SeatView, lean: bool = True) -> Beliefs:
        """Count every card the view accounts for; the rest is unseen.

        With `lean`, a seat's unknown card leans towards high ranks and away from ranks below
        the card they last discarded (players tend to keep the better card).
        """
        edition = EDITIONS[view.edition]
        you = view.you if view.you is not None else -1
        unseen = dict(_COPIES[edition.id])
        _take(unseen, view.face_up)
        _take(unseen, view.hand or ())
        for public in view.seats:
            _take(unseen, public.discards)
        held: dict[int, str] = {}
        under: list[str] = []
        for fact in view.known:
            if not fact.still_held:
                continue
            if fact.seat is None:
                if unseen.get(fact.card, 0) > 0:
                    unseen[fact.card] -= 1
                    under.append(fact.card)
            elif fact.seat != you and view.seats[fact.seat].hand_size == 1:
                held[fact.seat] = fact.card  # a later fact about a seat replaces an earlier one
        for other, card in list(held.items()):
            if unseen.get(card, 0) > 0:
                unseen[card] -= 1
            else:  # contradictory facts: trust the counts
                del held[other]
        last = {
            public.seat: public.discards[-1]
            for public in view.seats
            if lean and public.discards and public.seat != you and not public.eliminated
        }
        unseen = {card: count for card, count in unseen.items() if count > 0}
        return cls(edition, you, unseen, held, tuple(under), last)

    @property
    def total(self) -> int:
        """How many cards are unseen."""
        return sum(self.unseen.values())

    def hand_odds(self, seat: int) -> dict[str, float]:
        """The chance that `seat` (one card in hand) holds each card."""
        known = self.held.get(seat)
        if known is not None:
            return {known: 1.0}
        weights = self.weights(seat)
        total = sum(weights.values())
        if not total:
            return {}
        return {card: weight / total for card, weight in weights.items()}

    def weights(self, seat: int) -> dict[str, float]:
        """Unnormalised odds of each unseen card being `seat`'s (see `from_view`'s `lean`)."""
        return {card: count * self.lean(seat, card) for card, count in self.unseen.items()}

    def lean(self, seat: int, card: str) -> float:
        """How much likelier than average `seat` holds `card`, given what they discarded last."""
        last = self.last_played.get(seat)
        if last is None:
            return 1.0
        rank = self.edition.rank[card]
        return LEAN[rank] * (1.0 if rank >= self.edition.rank[last] else BELOW)

    def rank_odds(self, seat: int) -> dict[int, float]:
        """The chance that `seat`'s card has each rank."""
        odds: dict[int, float] = {}
        for card, p in self.hand_odds(seat).items():
            rank = self.edition.rank[card]
            odds[rank] = odds.get(rank, 0.0) + p
        return odds

    def mean_rank(self) -> float:
        """The average rank of an unseen card (what a fresh draw is worth)."""
        total = self.total
        if not total:
            return 0.0
        rank = self.edition.rank
        return sum(rank[card] * count for card, count in self.unseen.items()) / total
