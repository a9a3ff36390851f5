"""Who reads a table's events, and as which audience each event is shown to them.

A rematch is a new game at the same table, so each event is shown as the game it belongs to
allows: everything once that game is over, a seat's view while it is played, whatever the
table's other games are doing. A token's seat counts from the moment it sat down; a token that
holds no seat (it left, or never sat) reads nothing as a seat.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.table import Asker, Table


@dataclass(frozen=True)
class Reader:
    """Who asks: a seat token (by its hash) or a player's, the auditor, or nobody (a
    spectator)."""

    token_hash: str | None = None
    auditor: bool = False
    player: str | None = None  # the player the bearer names: it reads as the seat it holds


@dataclass(frozen=True)
class Audience:
    """How an event or a view is shown: as a seat, a spectator (seat None), or everything."""

    seat: int | None = None
    everything: bool = False


def seat_held(table: Table, token_hash: str | None, player: str | None = None) -> int | None:
    """The seat the player holds, else the seat whose token has this hash, or None."""
    return table.seat_of(Asker(token_hash, player))


def game_over_at(table: Table, version: int) -> bool:
    """Whether the game that the table's event at `version` belongs to is over: an earlier
    game always is (a rematch starts only once its game ended), the current one when it ended.
    Events before a table's first game belong to that game."""
    if table.status == "over":
        return True
    return bool(table.results) and version < table.started_at


def audience_at(table: Table, reader: Reader, version: int) -> Audience | None:
    """How `reader` sees the event at `version` (at most the table's); None when the reader
    may read nothing of this table now: a token that holds no seat, or the auditor while a
    game is played."""
    over = game_over_at(table, version)
    if reader.auditor:
        return Audience(None, everything=True) if table.status == "over" else None
    if reader.token_hash is None:
        return Audience()
    seat = seat_held(table, reader.token_hash, reader.player)
    if seat is None:
        return None
    if version < table.seats[seat].since:  # before this token sat down: what it saw then
        return Audience(None, everything=over)
    return Audience(seat, everything=over)
