"""The `random` policy: a uniformly random legal command."""

from __future__ import annotations

from game.bots.base import Options, decision_rng
from game.commands import Command
from game.views import SeatView


class RandomPolicy:
    """Picks uniformly among the legal commands."""

    def __init__(self, seed: int | str = 0, options: Options | None = None) -> None:
        self.seed = seed

    def choose(self, view: SeatView, legal: list[Command]) -> Command:
        """Any legal command, each as likely."""
        return decision_rng(self.seed, view).choice(legal)
