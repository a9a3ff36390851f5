"""Difficulty levels a player understands, each a policy with its budget.

`easy` is the heuristic that plays a random legal command on some of its decisions, `medium`
the heuristic, `hard` the search over a fixed number of sampled worlds (reproducible, and
independent of the machine's speed). Their measured strength is in docs/bots.md.
"""

from __future__ import annotations

from game.bots.base import Options, Policy, decision_rng
from game.bots.heuristic import HeuristicPolicy
from game.bots.search import SearchPolicy
from game.commands import Command
from game.views import SeatView

EASY_SLIPS = 0.5  # the share of decisions `easy` makes at random
HARD_WORLDS = 16  # sampled worlds per decision of `hard`


class EasyPolicy:
    """The heuristic, which plays a random legal command on EASY_SLIPS of its decisions."""

    def __init__(self, seed: int | str = 0, options: Options | None = None) -> None:
        self.seed = seed
        self.heuristic = HeuristicPolicy(seed, options)

    def choose(self, view: SeatView, legal: list[Command]) -> Command:
        """A random command now and then, else the heuristic's."""
        rng = decision_rng(f"easy:{self.seed}", view)
        if rng.random() < EASY_SLIPS:
            return rng.choice(legal)
        return self.heuristic.choose(view, legal)


def medium(seed: int | str = 0, options: Options | None = None) -> Policy:
    """The heuristic."""
    return HeuristicPolicy(seed, options)


def hard(seed: int | str = 0, options: Options | None = None) -> Policy:
    """The search over HARD_WORLDS worlds a decision (unless the options name a number)."""
    iterations = options.iterations if options and options.iterations else HARD_WORLDS
    return SearchPolicy(seed, Options(iterations=iterations))


LEVELS = {"easy": EasyPolicy, "medium": medium, "hard": hard}
