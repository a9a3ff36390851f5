"""The tutorials: a first round against a bot, told by a scenario file (docs/tutorial.md).

Each file in `scenarios/tutorials/` is a scenario (docs/scenarios.md) with three more keys:
`tutorial` (its name, which the API takes), `bot` (the bot policy of the other seat) and, on each
command step, `coach` (what the guide says of that move: the web client's message
`tutorial_step.<tutorial>.<coach>`). The scenario runner plays it as any scenario; the service
deals its round and nothing else of it: the bot moves by its policy, as at every table.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from game.commands import Command, Deal
from game.editions import EDITIONS
from scenarios.runner import prepared_deal, step_command

STORIES = Path(__file__).with_name("tutorials")
LEARNER = "you"  # the scenario's name for the person learning


@dataclass(frozen=True)
class TutorialMove:
    """One move of the story: who makes it, the command, and what the guide says of it."""

    seat: int
    command: Command
    coach: str


@dataclass(frozen=True)
class Tutorial:
    """A tutorial: its table (edition, the learner's seat, the bot, who starts, the deal) and the
    moves its story expects; `scenario` is its file as read."""

    name: str
    edition: str
    learner: int
    bot: str
    first: int
    deal: Deal
    moves: tuple[TutorialMove, ...]
    scenario: dict[str, Any]

    @property
    def bots(self) -> tuple[str | None, ...]:
        """Each seat: None for the learner's, the bot's policy for the others."""
        return tuple(None if seat == self.learner else self.bot for seat in range(self.seats))

    @property
    def deck(self) -> tuple[str, ...]:
        """Every card of its edition, each once (those the guide may introduce)."""
        return tuple(EDITIONS[self.edition].rank)

    @property
    def seats(self) -> int:
        """How many seats the table has."""
        return len(self.scenario["players"])


def read_tutorial(path: Path) -> Tutorial:
    """A tutorial from its scenario file."""
    data = json.loads(path.read_text(encoding="utf-8"))
    players: list[str] = data["players"]
    moves = tuple(
        TutorialMove(players.index(step["by"]), step_command(data, step), step["coach"])
        for step in data["steps"]
        if "by" in step and not step.get("rejected")
    )
    return Tutorial(
        name=data["tutorial"],
        edition=data["edition"],
        learner=players.index(LEARNER),
        bot=data["bot"],
        first=players.index(data["round"]["first"]),
        deal=prepared_deal(data, data["round"]),
        moves=moves,
        scenario=data,
    )


TUTORIALS = MappingProxyType(
    {tutorial.name: tutorial for tutorial in map(read_tutorial, sorted(STORIES.glob("*.json")))}
)
