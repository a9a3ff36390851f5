"""Difficulty levels a player understands, each a policy with its budget.

`easy` is the heuristic that plays a random legal command on some of its decisions, `medium`
the heuristic, `hard` the search over at most a fixed number of sampled worlds for its table's
size (reproducible, and independent of the machine's speed). Their measured strength is in
docs/bots.md.
"""

from __future__ import annotations

from game.bots.base import Options, Policy, decision_rng
from game.bots.heuristic import HeuristicPolicy
from game.bots.search import SearchPolicy
from game.commands import Command
from game.views import SeatView

EASY_SLIPS = 0.5  # the share of decisions `easy` makes at random
# The most worlds `hard` samples a decision, by players at the table: a world costs more the
# more seats play its round out; these keep the mean CPU time a decision near 25 ms here.
HARD_WORLDS = {2: 192, 3: 96, 4: 64, 5: 32, 6: 24, 7: 12, 8: 8}


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


class HardPolicy:
    """The search over at most HARD_WORLDS worlds for the table's size (unless the options name
    a number): never the clock, so a decision is the same on a busy machine."""

    def __init__(self, seed: int | str = 0, options: Options | None = None) -> None:
        self.seed = seed
        self.iterations = options.iterations if options and options.iterations else None

    def choose(self, view: SeatView, legal: list[Command]) -> Command:
        """The search's choice with this table's number of worlds."""
        worlds = self.iterations or HARD_WORLDS[len(view.seats)]
        return SearchPolicy(self.seed, Options(iterations=worlds)).choose(view, legal)


def hard(seed: int | str = 0, options: Options | None = None) -> Policy:
    """The search over at most HARD_WORLDS worlds for the table's size."""
    return HardPolicy(seed, options)


LEVELS = {"easy": EasyPolicy, "medium": medium, "hard": hard}
