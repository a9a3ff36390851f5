"""The `heuristic` policy: score each legal command from the seat's beliefs, play the best."""

from __future__ import annotations

from collections.abc import Callable

from game.bots.base import Options
from game.bots.beliefs import Beliefs
from game.commands import AnswerRedraw, Command, FinishChancellor, PlayCard
from game.views import SeatView

ELIMINATE = 1.0  # putting another player out of the round
OUT = 1.0  # being put out of the round
TOKEN = 1.0  # a token gained at once (Bishop)
KEEP = 0.5  # holding the top-ranked card, for the showdown
NEVER = -100.0  # the Princess played or discarded


class Judge:
    """Scores commands for one decision of one seat."""

    def __init__(self, view: SeatView, beliefs: Beliefs | None = None) -> None:
        self.view = view
        self.beliefs = beliefs or Beliefs.from_view(view)
        self.rank = self.beliefs.edition.rank
        self.top = max(self.rank.values())
        self.you = view.you if view.you is not None else -1
        self.hand = view.hand or ()
        self._odds: dict[int, dict[str, float]] = {}
        self._ranks: dict[int, dict[int, float]] = {}

    def odds(self, seat: int) -> dict[str, float]:
        """The chance that `seat` holds each card (worked out once per decision)."""
        odds = self._odds.get(seat)
        if odds is None:
            odds = self._odds[seat] = self.beliefs.hand_odds(seat)
        return odds

    def rank_odds(self, seat: int) -> dict[int, float]:
        """The chance that `seat`'s card has each rank."""
        odds = self._ranks.get(seat)
        if odds is None:
            odds = self._ranks[seat] = self.beliefs.rank_odds(seat)
        return odds

    def keep(self, card: str | None) -> float:
        """What holding `card` is worth (mostly its rank at the showdown)."""
        if card is None:
            return 0.0
        value = KEEP * self.rank[card] / self.top
        if card == "assassin":
            value += 0.1  # a Guard that chooses its holder eliminates its own player
        return value

    def fresh(self) -> float:
        """What a card drawn from the unseen ones is worth on average."""
        return KEEP * self.beliefs.mean_rank() / self.top

    def threat(self, seat: int) -> float:
        """How much hurting `seat` is worth: more when they are close to winning."""
        return 1.0 + 0.15 * self.view.seats[seat].tokens

    def expected_keep(self, seat: int) -> float:
        """What `seat`'s card would be worth in this seat's hand."""
        return sum(p * self.keep(card) for card, p in self.odds(seat).items())

    def score(self, command: Command) -> float:
        """Higher is better."""
        if isinstance(command, PlayCard):
            rest = list(self.hand)
            rest.remove(command.card)
            kept = rest[0] if rest else None
            return self.keep(kept) + CARDS[command.card](self, command, kept)
        if isinstance(command, FinishChancellor):
            order = 0.0
            if len(command.bottom) == 2:  # the better card deepest, drawn last
                order = 0.001 * (self.rank[command.bottom[1]] - self.rank[command.bottom[0]])
            return self.keep(command.keep) + order
        if isinstance(command, AnswerRedraw):
            card = self.hand[0] if self.hand else None
            if not command.redraw:
                return self.keep(card)
            return NEVER if card == "princess" else self.fresh() + 0.05  # they know my card
        return 0.0

    def best(self, legal: list[Command]) -> Command:
        """The highest-scoring command (the first listed among equals)."""
        return max(legal, key=self.score)


# Each card's immediate worth: (judge, the play, the card kept) -> value.
Effect = Callable[[Judge, PlayCard, "str | None"], float]


def _nothing(_j: Judge, _p: PlayCard, _kept: str | None) -> float:
    return 0.0


def _guard(j: Judge, play: PlayCard, _kept: str | None) -> float:
    if not play.targets:
        return 0.0
    (target,) = play.targets
    odds = j.odds(target)
    assassin = odds.get("assassin", 0.0)
    if isinstance(play.guess, int):
        right = j.rank_odds(target).get(play.guess, 0.0)
        if play.guess == 0:
            right -= assassin
        tie = 0.001 * play.guess
    else:
        right = odds.get(play.guess or "", 0.0)
        tie = 0.001 * j.rank.get(play.guess or "", 0)
    return right * ELIMINATE * j.threat(target) - assassin * OUT + tie


def _priest(j: Judge, play: PlayCard, kept: str | None) -> float:
    if not play.targets:
        return 0.0
    if play.targets[0] in j.beliefs.held:
        return 0.02
    return 0.1 + (0.12 if kept == "guard" else 0.0)


def _compare(j: Judge, play: PlayCard, kept: str | None, lower_loses: bool) -> float:
    if not play.targets or kept is None:
        return 0.0
    (target,) = play.targets
    mine = j.rank[kept]
    lower = higher = 0.0
    for rank, p in j.rank_odds(target).items():
        if rank < mine:
            lower += p
        elif rank > mine:
            higher += p
    win, lose = (lower, higher) if lower_loses else (higher, lower)
    return win * ELIMINATE * j.threat(target) - lose * OUT


def _baron(j: Judge, play: PlayCard, kept: str | None) -> float:
    return _compare(j, play, kept, lower_loses=True)


def _dowager_queen(j: Judge, play: PlayCard, kept: str | None) -> float:
    return _compare(j, play, kept, lower_loses=False)


def _handmaid(j: Judge, _p: PlayCard, kept: str | None) -> float:
    return 0.15 + 0.15 * (j.rank[kept] / j.top if kept else 0.0)


def _prince(j: Judge, play: PlayCard, kept: str | None) -> float:
    (target,) = play.targets
    if target == j.you:
        if kept == "princess":
            return NEVER
        spy = _spy(j, play, None) if kept == "spy" else 0.0
        return j.fresh() - j.keep(kept) + spy
    odds = j.odds(target)
    princess = odds.get("princess", 0.0)
    known = j.beliefs.held.get(target)
    loss = 0.2 * j.rank[known] / j.top if known else 0.0
    return (princess * ELIMINATE + 0.05 + loss) * j.threat(target)


def _swap_with(j: Judge, other: int, kept: str | None) -> float:
    """Giving away `kept` for `other`'s card (King, a Cardinal that chooses its player)."""
    if kept == "princess":
        return -0.5
    return j.expected_keep(other) - j.keep(kept) - 0.05


def _king(j: Judge, play: PlayCard, kept: str | None) -> float:
    if not play.targets:
        return 0.0
    return _swap_with(j, play.targets[0], kept)


def _princess(_j: Judge, _p: PlayCard, _kept: str | None) -> float:
    return NEVER


def _chancellor(j: Judge, _p: PlayCard, _kept: str | None) -> float:
    return 0.12 if j.view.deck_size else 0.0


def _spy(j: Judge, _p: PlayCard, _kept: str | None) -> float:
    seats = j.view.seats
    if "spy" in seats[j.you].discards:
        return 0.0
    rivals = any(s.seat != j.you and not s.eliminated and "spy" in s.discards for s in seats)
    return 0.3 if rivals else 0.25


def _bishop(j: Judge, play: PlayCard, _kept: str | None) -> float:
    if not play.targets or play.guess is None:
        return 0.0
    right = j.rank_odds(play.targets[0]).get(int(play.guess), 0.0)
    return right * TOKEN + 0.001 * int(play.guess)


def _sycophant(j: Judge, play: PlayCard, _kept: str | None) -> float:
    (target,) = play.targets
    return -0.05 if target == j.you else 0.03 * j.threat(target)


def _baroness(j: Judge, play: PlayCard, _kept: str | None) -> float:
    return sum(0.0 if t in j.beliefs.held else 0.06 for t in play.targets)


def _cardinal(j: Judge, play: PlayCard, kept: str | None) -> float:
    if not play.targets:
        return 0.0
    if j.you in play.targets:
        other = play.targets[0] if play.targets[1] == j.you else play.targets[1]
        return _swap_with(j, other, kept) + 0.02
    return 0.06 if play.look not in j.beliefs.held else 0.04


def _jester(j: Judge, play: PlayCard, _kept: str | None) -> float:
    if not play.targets:
        return 0.0
    (target,) = play.targets
    strength = sum(j.rank[c] * p for c, p in j.odds(target).items()) / j.top
    return 0.05 + 0.15 * strength


def _constable(_j: Judge, _p: PlayCard, _kept: str | None) -> float:
    return 0.12


def _count(_j: Judge, _p: PlayCard, _kept: str | None) -> float:
    return 0.1


CARDS: dict[str, Effect] = {
    "spy": _spy,
    "guard": _guard,
    "priest": _priest,
    "baron": _baron,
    "handmaid": _handmaid,
    "prince": _prince,
    "chancellor": _chancellor,
    "king": _king,
    "countess": _nothing,
    "princess": _princess,
    "bishop": _bishop,
    "dowager_queen": _dowager_queen,
    "constable": _constable,
    "count": _count,
    "sycophant": _sycophant,
    "baroness": _baroness,
    "cardinal": _cardinal,
    "jester": _jester,
    "assassin": _nothing,
}


class HeuristicPolicy:
    """Counts unseen cards, uses what it learnt, and plays the best-scoring command."""

    def __init__(self, seed: int | str = 0, options: Options | None = None) -> None:
        self.seed = seed

    def choose(self, view: SeatView, legal: list[Command]) -> Command:
        """The best-scoring legal command (deterministic: ties go to the first listed)."""
        if len(legal) == 1:
            return legal[0]
        return Judge(view).best(legal)
