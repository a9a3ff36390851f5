"""The `heuristic` policy: score each legal command from the seat's beliefs, play the best."""

from __future__ import annotations

from game.bots.base import Options
from game.bots.hints import HINTS
from game.bots.reckoning import Reckoning
from game.bots.worth import NEVER, NEVER_GIVE_UP
from game.commands import AnswerRedraw, Command, FinishChancellor, PlayCard
from game.views import SeatView


class Judge(Reckoning):
    """Scores commands for one decision of one seat."""

    def score(self, command: Command) -> float:
        """Higher is better."""
        if isinstance(command, PlayCard):
            kept, worth = self.kept(command.card)
            return worth + HINTS[command.card](self, command, kept)
        if isinstance(command, FinishChancellor):
            order = 0.0
            if len(command.bottom) == 2:  # the better card deepest, drawn last
                order = 0.001 * (self.rank[command.bottom[1]] - self.rank[command.bottom[0]])
            return self.keep(command.keep) + order
        if isinstance(command, AnswerRedraw):
            card = self.hand[0] if self.hand else None
            if not command.redraw:
                return self.keep(card)
            if card in NEVER_GIVE_UP:
                return NEVER
            return self.fresh() + 0.05  # they know my card
        return 0.0

    def best(self, legal: list[Command]) -> Command:
        """The highest-scoring command (the first listed among equals)."""
        return max(legal, key=self.score)


class HeuristicPolicy:
    """Counts unseen cards, uses what it learnt, and plays the best-scoring command."""

    def __init__(self, seed: int | str = 0, options: Options | None = None) -> None:
        self.seed = seed

    def choose(self, view: SeatView, legal: list[Command]) -> Command:
        """The best-scoring legal command (deterministic: ties go to the first listed)."""
        if len(legal) == 1:
            return legal[0]
        return Judge(view).best(legal)
