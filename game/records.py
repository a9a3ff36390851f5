"""What each finished game at a table says of its players: placings and statistics.

A table's events (with each entry's time) are folded once; every `game_ended` gives a
`FinishedGame`. Its placing puts the game's winners first, then the others by tokens, and last
every seat its player left during that game (abandoned to a bot, or forfeited). A game is rated
when its table is ranked and every seat was held by a player when it started (so no bot seat:
a seat a bot took over before this game started makes it unrated). A game someone left was
`played` only when every person had made PLAYED_TURNS turns of their own by then (see
game/ratings.py for what that changes). A tutorial's game is no
record of anyone's: it says nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from game.events import CardPlayed, GameEnded, GameStarted, RoundEnded, SeatForfeited, TokenGained
from game.table import SeatTakenOver, Table, evolve

PLAYED_TURNS = 3  # turns of their own each person makes for a game someone left to count
SHOWDOWN = "showdown"
ELIMINATION = "last-standing"


@dataclass
class SeatRecord:
    """One seat's part in a finished game."""

    seat: int
    player: str | None  # None: a bot's seat, or a seat token without a player
    winner: bool = False
    tokens: int = 0
    left: bool = False  # abandoned to a bot or forfeited during this game
    turns: int = 0  # cards its person played (not a bot after a leave, nor one after a time-out)
    rounds_showdown: int = 0  # rounds won at a showdown
    rounds_elimination: int = 0  # rounds won as the last one standing
    cards: Counter[str] = field(default_factory=Counter)  # cards played, by name


@dataclass
class FinishedGame:
    """A finished game: `key` is `<game id>#<its number at the table>`; `at` its end (Unix ms,
    0 when unknown)."""

    key: str
    edition: str
    at: int
    rated: bool
    seats: list[SeatRecord]

    def ranks(self) -> list[int]:
        """Each seat's place (1 best; equal places tie): winners, then tokens, leavers last."""
        keys = [
            (2, 0) if seat.left else (0 if seat.winner else 1, -seat.tokens) for seat in self.seats
        ]
        order = sorted(set(keys))
        return [order.index(key) + 1 for key in keys]

    @property
    def played(self) -> bool:
        """Whether the game was really played: nobody left it, or every person had made
        PLAYED_TURNS turns of their own (about a round's) when they left or it ended."""
        if not any(seat.left for seat in self.seats):
            return True
        return all(seat.turns >= PLAYED_TURNS for seat in self.seats if seat.player is not None)

    @property
    def order(self) -> tuple[int, str]:
        """Where the game comes in the ratings' history: by its end, then its key."""
        return (self.at, self.key)


def finished_games(game_id: str, entries: Iterable[tuple[Any, int | None]]) -> list[FinishedGame]:
    """The finished games of a table from its events, each with its entry time (Unix ms)."""
    table: Table | None = None
    found: list[FinishedGame] = []
    current: FinishedGame | None = None
    number = 0
    for event, at in entries:
        before = table
        table = evolve(table, event)
        if isinstance(event, GameStarted) and table.tutorial is not None:
            current = None  # a tutorial is played on a prepared deal: no placing, no statistics
        elif isinstance(event, GameStarted):
            number += 1
            seats = [
                SeatRecord(index, seat.player if seat.bot is None else None)
                for index, seat in enumerate(table.seats)
            ]
            rated = table.ranked and all(seat.player is not None for seat in seats)
            current = FinishedGame(f"{game_id}#{number}", table.edition, 0, rated, seats)
        elif current is None:
            continue
        elif isinstance(event, CardPlayed):
            current.seats[event.seat].cards[event.card] += 1
            if before is not None and _own_move(before, event.seat):
                current.seats[event.seat].turns += 1
        elif isinstance(event, TokenGained):
            current.seats[event.seat].tokens += 1
        elif isinstance(event, RoundEnded):
            for seat in event.winners:
                if event.reason == SHOWDOWN:
                    current.seats[seat].rounds_showdown += 1
                elif event.reason == ELIMINATION:
                    current.seats[seat].rounds_elimination += 1
        elif isinstance(event, (SeatTakenOver, SeatForfeited)):
            current.seats[event.seat].left = True
            if isinstance(event, SeatTakenOver) and before is not None:
                current.seats[event.seat].player = before.seats[event.seat].player
        elif isinstance(event, GameEnded):
            for seat in event.winners:
                current.seats[seat].winner = True
            current.at = at or 0
            found.append(current)
            current = None
    return found


def _own_move(table: Table, seat: int) -> bool:
    """Whether a move of `seat` now is its person's own: not a bot's, nor made after a
    time-out."""
    return table.seats[seat].bot is None and table.timed_out != seat
