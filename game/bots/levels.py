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
from game.editions import EDITIONS
from game.views import SeatView

EASY_SLIPS = 0.5  # the share of decisions `easy` makes at random
# The most worlds `hard` samples a decision. A world's rollouts cost about players squared
# times the deck's cards (more turns, each weighing more players): 0.002 ms each on the
# development machine, so WORLDS_COST / (players^2 x cards) keeps a decision near 30 ms of CPU.
WORLDS_COST = 15_000
# At least 12: premium at 8 players won 22.5% of 200 games with 12 worlds, 23.5% with 16, for
# 39 against 51 ms of CPU a decision (docs/bots.md); fewer worlds than 12 were measured weaker.
MOST_WORLDS, FEWEST_WORLDS = 192, 12


# How many of the heuristic's best families of commands `hard` weighs: more at three and four
# players, where a Guard, a Baron or a Prince each has more players to choose among than four
# candidates leave room for (docs/bots.md: classic 4 players won 39% with 4, 44.5% with 8; at
# 2 and 6 players more changed nothing but the time).
HARD_CANDIDATES = {3: 8, 4: 8}


def hard_worlds(edition: str, players: int) -> int:
    """The most worlds `hard` samples a decision at this table."""
    cards = len(EDITIONS[edition].deck)
    return max(FEWEST_WORLDS, min(MOST_WORLDS, round(WORLDS_COST / (players * players * cards))))


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
    """The search over at most `hard_worlds` worlds for the table (unless the options name a
    number): never the clock, so a decision is the same on a busy machine."""

    def __init__(self, seed: int | str = 0, options: Options | None = None) -> None:
        self.seed = seed
        self.iterations = options.iterations if options and options.iterations else None

    def choose(self, view: SeatView, legal: list[Command]) -> Command:
        """The search's choice with this table's number of worlds."""
        players = len(view.seats)
        worlds = self.iterations or hard_worlds(view.edition, players)
        options = Options(iterations=worlds, candidates=HARD_CANDIDATES.get(players))
        return SearchPolicy(self.seed, options).choose(view, legal)


def hard(seed: int | str = 0, options: Options | None = None) -> Policy:
    """The search over at most `hard_worlds` worlds for the table."""
    return HardPolicy(seed, options)


LEVELS = {"easy": EasyPolicy, "medium": medium, "hard": hard}
