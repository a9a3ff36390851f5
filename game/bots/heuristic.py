"""The `heuristic` policy: score each legal command from the seat's beliefs, play the best."""

from __future__ import annotations

import math
from collections.abc import Callable

from game.bots.base import Options
from game.bots.hints import HINTS, guard, guesses
from game.bots.reckoning import Reckoning
from game.bots.worth import NEVER, NEVER_GIVE_UP
from game.commands import AnswerRedraw, Command, FinishChancellor, PlayCard
from game.views import SeatView

# The cards whose guesses `guard` scores (the Guard, and whatever card plays as it does).
GUESSING = frozenset(card for card, hint in HINTS.items() if hint is guard)


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
        """The highest-scoring command (the first listed among equals).

        Each Guard's guess is scored by the same sums as `score`, with the work shared by the
        guesses at one player done once: a rollout's moves are mostly this choice.
        """
        chosen, top = legal[0], -math.inf
        shared: dict[tuple[str, int], tuple[float, Callable[[str | int | None], float]]] = {}
        for command in legal:
            if type(command) is PlayCard and command.card in GUESSING and command.targets:
                key = (command.card, command.targets[0])
                found = shared.get(key)
                if found is None:
                    found = shared[key] = (self.kept(command.card)[1], guesses(self, *key))
                value = found[0] + found[1](command.guess)
            else:
                value = self.score(command)
            if value > top:
                chosen, top = command, value
        return chosen


class HeuristicPolicy:
    """Counts unseen cards, uses what it learnt, and plays the best-scoring command."""

    def __init__(self, seed: int | str = 0, options: Options | None = None) -> None:
        self.seed = seed

    def choose(self, view: SeatView, legal: list[Command]) -> Command:
        """The best-scoring legal command (deterministic: ties go to the first listed)."""
        if len(legal) == 1:
            return legal[0]
        return Judge(view).best(legal)
