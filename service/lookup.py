"""Finding the game a request names: its head (through the head cache) or an old version."""

from __future__ import annotations

from events.games import LoadedGame
from game.table import Table
from service.deps import context
from service.errors import ApiError


def find_game(
    game_id: str, version: int | None = None, *, watching: bool = False
) -> tuple[LoadedGame, Table]:
    """The game at its head (or as it was at `version`), or a 404 problem. A caller `watching`
    the game's appends already (a long poll) may be answered from this process's head without
    reading Redis, when the append hub has heard nothing of the game since it was read."""
    ctx = context()
    try:
        if version is not None:
            game = ctx.games.load(game_id, version)
        else:
            game = ctx.heads.load(game_id, ctx.hub if watching else None)
    except ValueError:  # not a valid game id
        game = LoadedGame(None, 0)
    return existing(game_id, game)


def existing(game_id: str, game: LoadedGame) -> tuple[LoadedGame, Table]:
    """`game` and its table if it exists, else a 404 problem."""
    if game.table is None:
        raise ApiError(404, "game-not-found", "Not found", f"There is no game {game_id!r}.")
    return game, game.table
