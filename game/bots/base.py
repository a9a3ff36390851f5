"""The bot policy protocol: a seat's view and its legal commands in, one of those commands out."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from game.commands import Command
from game.views import SeatView


class Policy(Protocol):
    """Chooses a command for the seat whose view it is given; never sees the true state."""

    def choose(self, view: SeatView, legal: list[Command]) -> Command:
        """One of `legal`, chosen from what `view.you` may know."""
        ...


@dataclass(frozen=True, slots=True)
class Options:
    """Knobs a policy may use: a time budget (ms, read with perf_counter) or an iteration budget,
    and how many commands a search weighs."""

    budget_ms: float | None = None
    iterations: int | None = None
    candidates: int | None = None  # search: how many of the heuristic's best families it weighs


# Builds a policy from a seed (its decisions are a pure function of seed, view and legal list).
PolicyFactory = Callable[[int | str, Options], Policy]


def decision_rng(seed: int | str, view: SeatView) -> random.Random:
    """A random source for one decision, drawn only from the seed and what the view shows."""
    hand = ",".join(view.hand or ())
    key = f"{seed}|{view.round}|{view.turn}|{view.you}|{view.decision}|{hand}|{view.deck_size}"
    return random.Random(key)
