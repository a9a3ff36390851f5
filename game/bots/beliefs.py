"""What a seat can infer from its view: unseen cards and each other seat's likely hand."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from game.bots.habits import PLAYS, PLAYS_AT
from game.editions import EDITIONS, Edition
from game.views import RuledOut, SeatView

# Fitted on heuristic self-play (log-likelihood of the true hand): rank lean and the odds of
# holding a card ranked below the one just discarded.
LEAN = tuple(math.exp(0.12 * rank) for rank in range(10))
BELOW = 0.1
# With habits: how much a discard the seat did not choose (a Prince made it discard, a King
# swapped its hand) weighs beside one it chose; fitted like LEAN (log-likelihood of true hands).
FORCED = 0.05


_COPIES = {edition.id: Counter(edition.deck) for edition in EDITIONS.values()}


def _take(counts: dict[str, int], cards: tuple[str, ...]) -> None:
    """Take seen cards out of the counts."""
    for card in cards:
        counts[card] -= 1


def _kept_lean(
    pile: tuple[str, ...],
    unseen: dict[str, int],
    plays: dict[tuple[str, str], float],
    ruled_out: tuple[RuledOut, ...] = (),
) -> dict[str, float]:
    """How much likelier than its count each unseen card is the one a seat holds, following
    its discards in turn: each played from the card it held and one drawn, as `plays` says,
    and none of the cards public play ruled out at that point (`ruled_out`, the seat's own)."""
    prior = dict(unseen)
    for card in pile:
        prior[card] = prior.get(card, 0) + 1
    total = sum(prior.values())
    draw = {card: count / total for card, count in prior.items()}  # the odds of a card drawn
    held = _rule_out(dict(draw), ruled_out, 0)  # the odds of the card the seat holds
    for made, played in enumerate(pile, 1):  # it held one card, drew another, played one
        mass: dict[str, float] = {}
        for card in draw:
            if card == played:
                mass[card] = held.get(played, 0.0) * draw[played] * (FORCED + 1.0)
            else:
                chose = FORCED + plays.get((played, card), 0.5)
                both = held.get(played, 0.0) * draw[card] + held[card] * draw.get(played, 0.0)
                mass[card] = both * chose
        norm = sum(mass.values()) or 1.0
        held = _rule_out({card: weight / norm for card, weight in mass.items()}, ruled_out, made)
    # A tiny floor: the view rules a card out, never the habits.
    return {card: held[card] / count + 1e-6 for card, count in unseen.items()}


def _rule_out(
    held: dict[str, float], ruled_out: tuple[RuledOut, ...], made: int
) -> dict[str, float]:
    """`held` without the cards ruled out once the seat had made `made` plays (renormalised;
    unchanged if that would leave nothing)."""
    gone = {card for fact in ruled_out if fact.plays == made for card in fact.cards}
    if not gone:
        return held
    kept = {card: (0.0 if card in gone else weight) for card, weight in held.items()}
    norm = sum(kept.values())
    if norm <= 0.0:
        return held
    return {card: weight / norm for card, weight in kept.items()}


# edition -> the card last discarded -> each card's lean (see `Beliefs.lean`).
_AFTER = {
    edition.id: {
        last: {
            card: LEAN[rank] * (1.0 if rank >= edition.rank[last] else BELOW)
            for card, rank in edition.rank.items()
        }
        for last in edition.rank
    }
    for edition in EDITIONS.values()
}


@dataclass(frozen=True)
class Beliefs:
    """Unseen cards (other hands, deck, set-aside card) and the hands this seat knows."""

    edition: Edition
    you: int
    unseen: dict[str, int]  # cards out of this seat's sight, known ones excluded
    held: dict[int, str]  # other seats whose card this seat knows is still there
    under_deck: tuple[str, ...]  # cards this seat put under the deck, still there, top first
    last_played: dict[int, str] = field(default_factory=dict)  # the top of each discard pile
    kept: dict[int, dict[str, float]] = field(default_factory=dict)  # each card's lean, by habits

    @classmethod
    def from_view(cls, view: SeatView, lean: bool = True, habits: bool = False) -> Beliefs:
        """Count every card the view accounts for; the rest is unseen.

        With `lean`, a seat's unknown card leans towards high ranks and away from ranks below
        the card they last discarded (players tend to keep the better card). With `habits`, it
        leans instead by how likely the seat's discards this round are, had it played as the
        heuristic does (`habits.py`), each from the card it held and the one it drew, and
        none of the cards the view's clues (`ruled_out`) ruled out at their place in its pile.
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
        plays = PLAYS_AT.get((edition.id, len(view.seats))) or PLAYS.get(edition.id)
        kept: dict[int, dict[str, float]] = {}
        if habits and plays:
            clues = view.ruled_out
            for public in view.seats:
                seat = public.seat
                if seat in held or seat == you or public.eliminated:
                    continue
                theirs = tuple(fact for fact in clues if fact.seat == seat)
                if seat in last or (lean and theirs):
                    kept[seat] = _kept_lean(public.discards, unseen, plays, theirs)
        return cls(edition, you, unseen, held, tuple(under), last, kept)

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
        leans = self._leans(seat)
        if leans is None:
            return {card: count * 1.0 for card, count in self.unseen.items()}
        return {card: count * leans.get(card, 1.0) for card, count in self.unseen.items()}

    def lean(self, seat: int, card: str) -> float:
        """How much likelier than average `seat` holds `card`, given what they discarded."""
        leans = self._leans(seat)
        return 1.0 if leans is None else leans.get(card, 1.0)

    def _leans(self, seat: int) -> dict[str, float] | None:
        """Each card's lean for `seat`: by its habits, else by its last discard (worked out once
        per edition); None when nothing leans."""
        kept = self.kept.get(seat)
        if kept is not None:
            return kept
        last = self.last_played.get(seat)
        return None if last is None else _AFTER[self.edition.id][last]

    def rank_odds(self, seat: int) -> dict[int, float]:
        """The chance that `seat`'s card has each rank."""
        return self.rank_odds_of(self.hand_odds(seat))

    def rank_odds_of(self, hand_odds: dict[str, float]) -> dict[int, float]:
        """The chance of each rank, from the chance of each card."""
        odds: dict[int, float] = {}
        rank = self.edition.rank
        for card, p in hand_odds.items():
            number = rank[card]
            odds[number] = odds.get(number, 0.0) + p
        return odds

    def mean_rank(self) -> float:
        """The average rank of an unseen card (what a fresh draw is worth)."""
        total = self.total
        if not total:
            return 0.0
        rank = self.edition.rank
        return sum(rank[card] * count for card, count in self.unseen.items()) / total
