"""Where a table puts a game in its players' "my games", and the index rebuilt from the streams.

A game is in the games of every player its table names: the player holding a seat, and the one
who left a seat to a bot. Every append tells each of them where the game now stands (relayed
with their inbox entries, play/inbox.py); a player who leaves a seat before the start (the
table names them no more) is told to take it out. `rebuild` writes the same from each game's
last table. See docs/players.md, "My games".
"""

from __future__ import annotations

from collections.abc import Callable

from events.mygames import IndexRebuild
from events.players import Listed
from game.table import Table, waiting_on
from play.context import Context
from play.records import all_game_ids


def named_players(table: Table | None) -> set[str]:
    """The players the table names: in a seat, or who left one to a bot."""
    if table is None:
        return set()
    named = {seat.player for seat in table.seats} | {seat.left_by for seat in table.seats}
    return {player for player in named if player}


def listed(table: Table, player: str) -> Listed:
    """Where the game stands in the player's games: its status, and whether it waits on them."""
    waiting = waiting_on(table)
    mine = table.seat_of_player(player)
    return Listed(table.status, waiting is not None and mine is not None and waiting.seat == mine)


def listings(before: Table | None, after: Table) -> dict[str, Listed]:
    """Per player, where an append that moved `before` to `after` puts the game."""
    found = {player: listed(after, player) for player in named_players(after)}
    for player in named_players(before) - found.keys():
        found[player] = Listed("")
    return found


def rebuild(ctx: Context, progress: Callable[[int], None] | None = None) -> IndexRebuild:
    """Write every player's games again from each game's last table (in Redis or archived)."""
    wanted: dict[str, dict[str, tuple[Listed, int]]] = {}
    for done, game_id in enumerate(all_game_ids(ctx), start=1):
        game = ctx.games.load(game_id)
        if game.table is not None:
            for player in named_players(game.table):
                wanted.setdefault(player, {})[game_id] = (listed(game.table, player), game.at or 0)
        if progress is not None:
            progress(done)
    return ctx.my_games.rebuild(wanted)
