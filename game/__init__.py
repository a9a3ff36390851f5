"""Love Letter's rules as pure functions: editions, decide, evolve, legal commands, views, bots."""

from game.cards import CARDS, Card
from game.commands import (
    AnswerRedraw,
    Command,
    FinishChancellor,
    Forfeit,
    PlayCard,
    StartGame,
    StartRound,
)
from game.decide import decide, step
from game.editions import EDITIONS, Edition
from game.errors import IllegalCommand
from game.events import Event
from game.evolve import evolve, fold
from game.legal import legal_commands
from game.state import Decision, GameState, Phase
from game.views import SeatView, redact, view

__all__ = [
    "CARDS",
    "EDITIONS",
    "AnswerRedraw",
    "Card",
    "Command",
    "Decision",
    "Edition",
    "Event",
    "FinishChancellor",
    "Forfeit",
    "GameState",
    "IllegalCommand",
    "Phase",
    "PlayCard",
    "SeatView",
    "StartGame",
    "StartRound",
    "decide",
    "evolve",
    "fold",
    "legal_commands",
    "redact",
    "step",
    "view",
]
