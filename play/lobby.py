"""The table's own use cases: open a game, take or leave a seat, start, play again, set a
webhook. They apply to the game as it is now, so they are decided on its latest version."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from events.games import LoadedGame
from game.table import OpenTable
from play.context import Context
from play.send_command import Sent, StaleVersion, load_game, send_command

ATTEMPTS = 5  # another command may land first: decide again on the newer version


class Busy(Exception):
    """The game kept changing under a table command; the caller may try again."""


def new_game_id() -> str:
    """A fresh, unguessable game id (URL-safe)."""
    return secrets.token_hex(8)


def open_table(
    ctx: Context, command: OpenTable, meta: Mapping[str, Any] | None = None
) -> tuple[str, Sent]:
    """Open a new game; its id and the answer."""
    game_id = new_game_id()
    sent = send_command(
        ctx, game_id, command, game=LoadedGame(None, 0), expected_version=0, meta=meta
    )
    return game_id, sent


def send_to_table(
    ctx: Context, game_id: str, command: Any, meta: Mapping[str, Any] | None = None
) -> Sent:
    """Apply a table command to the game's latest version (deciding again after a conflict)."""
    for _ in range(ATTEMPTS):
        game = load_game(ctx, game_id)
        try:
            return send_command(
                ctx, game_id, command, game=game, expected_version=game.version, meta=meta
            )
        except StaleVersion:
            continue
    raise Busy(f"game {game_id} kept changing")
