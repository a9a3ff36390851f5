"""Which of a seat's legal moves put that seat out of the round for certain, judged from its view
alone (so the answer tells nothing the seat does not know): a client asks for a confirmation
before sending one.

Certain means: whatever the cards the seat can't see, the move eliminates its own player. That
is playing or discarding a card that puts its holder out (the Princess: played, discarded to a
Prince chosen on yourself, or to a redraw the Bishop offered), comparing hands with a player
whose card is known (or, counting every card seen, can only be) to win the comparison (Baron,
Dowager Queen), or choosing a player who can only hold a card that foils the one played (a
Guard on the Assassin).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache

from game.cards import CARDS
from game.commands import AnswerRedraw, Command, PlayCard
from game.editions import EDITIONS
from game.views import SeatView

# A played card whose comparison its player loses when `loses(mine, theirs)` holds of the
# numbers: the Baron's lower number, the Dowager Queen's higher one.
COMPARES: dict[str, Callable[[int, int], bool]] = {
    "baron": lambda mine, theirs: mine < theirs,
    "dowager_queen": lambda mine, theirs: mine > theirs,
}
# A played card that makes the chosen player discard their hand (and draw again).
DISCARDS_CHOSEN_HAND = frozenset({"prince"})


def puts_you_out(view: SeatView, legal: Sequence[Command]) -> list[int]:
    """The positions in `legal` of the moves certain to put `view.you` out of the round."""
    if view.you is None or not view.hand or not legal:
        return []
    hand = view.hand
    if any(CARDS[card].out_when_discarded for card in hand):
        risky = None  # any move may discard her: look at each
    else:
        risky = {card for card in hand if card in COMPARES or card in _foiled(view.edition)}
        if not risky:
            return []  # the usual hand: no look at the moves needed
    seen = _Seen(view)
    verdicts: dict[tuple[object, ...], bool] = {}  # a Guard's name changes nothing here
    out = []
    for index, command in enumerate(legal):
        card = getattr(command, "card", None)
        if risky is not None and card not in risky:
            continue
        targets = getattr(command, "targets", ())
        key = (type(command), card, targets, getattr(command, "redraw", None))
        if key not in verdicts:
            verdicts[key] = seen.certain_out(command)
        if verdicts[key]:
            out.append(index)
    return out


@cache
def _foiled(edition: str) -> frozenset[str]:
    """The cards that some card of the edition foils (a Guard, where there is an Assassin)."""
    return frozenset(foiled for card in EDITIONS[edition].rank for foiled in CARDS[card].foils)


class _Seen:
    """What the seat knows: its hand, and the cards each other player may hold."""

    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.rank = EDITIONS[view.edition].rank
        self._unseen: list[str] | None = None
        facts = [fact for fact in view.known if fact.still_held]
        self._held = {f.seat: f.card for f in facts if f.seat is not None and f.seat != view.you}
        self._under_deck = [fact.card for fact in facts if fact.seat is None]

    def may_hold(self, seat: int) -> list[str]:
        """Every card `seat` may hold, as far as this seat knows: the one it saw there (if still
        held), else any card it has not seen (in no hand it knows, no pile, not face up)."""
        if seat in self._held:
            return [self._held[seat]]
        if self._unseen is None:
            view = self.view
            unseen = Counter(EDITIONS[view.edition].deck)
            unseen.subtract(view.hand or ())
            unseen.subtract(view.face_up)
            for public in view.seats:
                unseen.subtract(public.discards)
            unseen.subtract(self._held.values())
            unseen.subtract(self._under_deck)
            self._unseen = [card for card, count in unseen.items() if count > 0]
        return self._unseen

    def certain_out(self, command: Command) -> bool:
        hand = self.view.hand or ()
        if isinstance(command, AnswerRedraw):
            return command.redraw and any(CARDS[card].out_when_discarded for card in hand)
        if not isinstance(command, PlayCard):
            return False  # the Chancellor's cards go under the deck, never to a discard pile
        if CARDS[command.card].out_when_discarded:
            return True
        kept = list(hand)
        kept.remove(command.card)
        left = kept[0] if kept else None
        if command.card in DISCARDS_CHOSEN_HAND and command.targets == (self.view.you,):
            return left is not None and CARDS[left].out_when_discarded
        others = [seat for seat in command.targets if seat != self.view.you]
        loses = COMPARES.get(command.card)
        if len(others) != 1 or (loses is None and command.card not in _foiled(self.view.edition)):
            return False
        theirs = self.may_hold(others[0])
        if theirs and all(command.card in CARDS[card].foils for card in theirs):
            return True
        if loses is None or left is None or not theirs:
            return False
        return all(loses(self.rank[left], self.rank[card]) for card in theirs)
