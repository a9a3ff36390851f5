"""Bot policies: each chooses from its seat's view and the legal commands, never the truth.

    policy = make_policy("search", seed=7, options=Options(iterations=40))
    command = policy.choose(view(state, seat), legal_commands(state))

`random` picks uniformly, `heuristic` scores every command from its beliefs (`beliefs.py`),
`search` samples hidden worlds and plays them out with the heuristic (`search.py`). The levels
`easy`, `medium` and `hard` (`levels.py`) are those with budgets a player understands.
"""

from __future__ import annotations

from game.bots.base import Options, Policy, PolicyFactory
from game.bots.heuristic import HeuristicPolicy
from game.bots.levels import LEVELS
from game.bots.random_bot import RandomPolicy
from game.bots.search import SearchPolicy

POLICIES: dict[str, PolicyFactory] = {
    "random": RandomPolicy,
    "heuristic": HeuristicPolicy,
    "search": SearchPolicy,
    **LEVELS,
}


def make_policy(name: str, seed: int | str = 0, options: Options | None = None) -> Policy:
    """A policy by its registry name."""
    return POLICIES[name](seed, options or Options())


__all__ = ["POLICIES", "Options", "Policy", "PolicyFactory", "make_policy"]
