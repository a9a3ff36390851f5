"""What one seat reckons at one decision: the odds of each other seat's card and what holding a
card is worth. The heuristic's hints (`game.bots.hints`) read it; the heuristic
(`game.bots.heuristic`) scores commands with both."""

from __future__ import annotations

from game.bots.beliefs import Beliefs
from game.bots.worth import HOLD_BONUS, KEEP
from game.editions import EDITIONS
from game.views import SeatView

# Whether an edition has a card that foils another (the Assassin): most have none.
_FOILS = {
    edition.id: any(card.foils for card in edition.cards.values()) for edition in EDITIONS.values()
}


class Reckoning:
    """What one seat reckons at one decision, each sum worked out once."""

    def __init__(self, view: SeatView, beliefs: Beliefs | None = None) -> None:
        self.view = view
        self.beliefs = beliefs or Beliefs.from_view(view)
        self.rank = self.beliefs.edition.rank
        self.cards = self.beliefs.edition.cards
        self.top = max(self.rank.values())
        self.you = view.you if view.you is not None else -1
        self.hand = view.hand or ()
        self._odds: dict[int, dict[str, float]] = {}
        self._alike_odds: dict[tuple[str, object], dict[str, float]] = {}
        self._expected: dict[int, float] = {}
        self._ranks: dict[int, dict[int, float]] = {}
        self._kept: dict[str, tuple[str | None, float]] = {}
        self._foiling: dict[tuple[int, str], dict[str, float]] = {}
        self._foils = _FOILS[self.beliefs.edition.id]

    def odds(self, seat: int) -> dict[str, float]:
        """The chance that `seat` holds each card (worked out once per decision, and once for
        all the seats the beliefs weigh alike: read it, never change it)."""
        odds = self._odds.get(seat)
        if odds is None:
            alike = self._alike(seat)
            odds = self._alike_odds.get(alike)
            if odds is None:
                odds = self._alike_odds[alike] = self.beliefs.hand_odds(seat)
            self._odds[seat] = odds
        return odds

    def _alike(self, seat: int) -> tuple[str, object]:
        """What the beliefs weigh `seat`'s card by: a card known, its own habits, or only the
        card it discarded last (many seats share that, or have discarded none)."""
        beliefs = self.beliefs
        known = beliefs.held.get(seat)
        if known is not None:
            return ("held", known)
        if seat in beliefs.kept:
            return ("seat", seat)
        return ("last", beliefs.last_played.get(seat))

    def foiling(self, seat: int, played: str) -> dict[str, float]:
        """The chance that `seat` holds each card that foils `played` (the Assassin a Guard)."""
        if not self._foils:
            return {}
        key = (seat, played)
        found = self._foiling.get(key)
        if found is None:
            found = self._foiling[key] = {
                card: p for card, p in self.odds(seat).items() if played in self.cards[card].foils
            }
        return found

    def rank_odds(self, seat: int) -> dict[int, float]:
        """The chance that `seat`'s card has each rank."""
        odds = self._ranks.get(seat)
        if odds is None:
            odds = self._ranks[seat] = self.beliefs.rank_odds_of(self.odds(seat))
        return odds

    def keep(self, card: str | None) -> float:
        """What holding `card` is worth (mostly its rank at the showdown)."""
        if card is None:
            return 0.0
        return KEEP * self.rank[card] / self.top + HOLD_BONUS.get(card, 0.0)

    def fresh(self) -> float:
        """What a card drawn from the unseen ones is worth on average."""
        return KEEP * self.beliefs.mean_rank() / self.top

    def threat(self, seat: int) -> float:
        """How much hurting `seat` is worth: more when they are close to winning."""
        return 1.0 + 0.15 * self.view.seats[seat].tokens

    def kept(self, played: str) -> tuple[str | None, float]:
        """The card kept when `played` is played, and what keeping it is worth."""
        found = self._kept.get(played)
        if found is None:
            rest = list(self.hand)
            rest.remove(played)
            card = rest[0] if rest else None
            found = self._kept[played] = (card, self.keep(card))
        return found

    def expected_keep(self, seat: int) -> float:
        """What `seat`'s card would be worth in this seat's hand."""
        found = self._expected.get(seat)
        if found is None:
            found = self._expected[seat] = sum(
                p * self.keep(card) for card, p in self.odds(seat).items()
            )
        return found
