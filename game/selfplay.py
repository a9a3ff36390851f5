"""Play whole games with a chooser for every decision (random play, bot tournaments, tests)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from game.clues import Clue, follow_all
from game.commands import Command, StartGame, StartRound
from game.decide import step
from game.events import Event
from game.legal import legal_commands
from game.state import GameState, Phase

# Picks one of the legal commands for the state's current seat.
Chooser = Callable[[GameState, list[Command]], Command]
# The same, also given the round's public clues (`game.clues`), as a seat's view shows them.
CluedChooser = Callable[[GameState, list[Command], tuple[Clue, ...]], Command]


@dataclass(frozen=True)
class PlayedGame:
    """A finished game: every event in order, the final state, the commands decided."""

    events: list[Event]
    commands: list[Command]
    state: GameState


def random_chooser(seed: int | str) -> Chooser:
    """A chooser that picks uniformly among the legal commands, from its own seeded source."""
    rng = random.Random(seed)
    pick = rng.random  # C-level: quicker than rng.choice, and as uniform for short lists
    return lambda _state, legal: legal[int(pick() * len(legal))]


def play_game(edition: str, players: int, seed: str, choose: Chooser) -> PlayedGame:
    """Play a game from its start to its end, dealing each next round as soon as one ends."""
    names = tuple(f"p{seat + 1}" for seat in range(players))
    command: Command = StartGame(edition, names, seed)
    events, state = step(None, command)
    commands = [command]
    over, between_rounds = Phase.OVER, Phase.BETWEEN_ROUNDS
    while state.phase is not over:
        if state.phase is between_rounds:
            command = StartRound()
        else:
            command = choose(state, legal_commands(state))
        new_events, state = step(state, command)
        events.extend(new_events)
        commands.append(command)
    return PlayedGame(events, commands, state)


def play_clued(edition: str, players: int, seed: str, choose: CluedChooser) -> PlayedGame:
    """`play_game`, following the round's public clues for a chooser that shows them (a loop
    of its own: the engine's benchmark plays `play_game`, which does no work for them)."""
    names = tuple(f"p{seat + 1}" for seat in range(players))
    command: Command = StartGame(edition, names, seed)
    events, state = step(None, command)
    clues = follow_all((), events, state)
    commands = [command]
    while state.phase is not Phase.OVER:
        if state.phase is Phase.BETWEEN_ROUNDS:
            command = StartRound()
        else:
            command = choose(state, legal_commands(state), clues)
        new_events, state = step(state, command)
        clues = follow_all(clues, new_events, state)
        events.extend(new_events)
        commands.append(command)
    return PlayedGame(events, commands, state)
