"""Finding the game a request names: its head (through the head cache) or an old version."""

from __future__ import annotations

from events.games import LoadedGame
from game.table import Table
from service.deps import context
from service.errors import ApiError


def find_game(game_id: str, version: int | None = None) -> tuple[LoadedGame, Table]:
    """The game at its head (or as it was at `version`), or a 404 problem."""
    ctx = context()
    try:
        game = ctx.heads.load(game_id) if version is None else ctx.games.load(game_id, version)
    except ValueError:  # not a valid game id
        game = LoadedGame(None, 0)
    return existing(game_id, game)


def existing(game_id: str, game: LoadedGame) -> tuple[LoadedGame, Table]:
    """`game` and its table if it exists, else a 404 problem."""
    if game.table is None:
        raise ApiError(404, "game-not-found", "Not found", f"There is no game {game_id!r}.")
    return game, game.table
