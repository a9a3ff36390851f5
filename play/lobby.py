"""The table's own use cases: open a game, take or leave a seat, start, play again, set a
webhook. They apply to the game as it is now, so they are decided on its latest version."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from typing import Any

from events.games import LoadedGame
from events.store import Idempotency
from game.table import OpenTable
from play.context import Context
from play.send_command import (
    KeyReused,
    Sent,
    StaleVersion,
    first_answer,
    load_game,
    send_command,
)

ATTEMPTS = 5  # another command may land first: decide again on the newer version


class Busy(Exception):
    """The game kept changing under a table command; the caller may try again."""


def new_game_id() -> str:
    """A fresh, unguessable game id (URL-safe)."""
    return secrets.token_hex(8)


def keyed_game_id(key: str) -> str:
    """The id of a game created with an (unguessable) Idempotency-Key: the same key, the same
    game, so a repeated creation finds the first one."""
    return hashlib.sha256(f"game:{key}".encode()).hexdigest()[:16]


def open_table(
    ctx: Context,
    command: OpenTable,
    meta: Mapping[str, Any] | None = None,
    *,
    game_id: str | None = None,
    idempotency: Idempotency | None = None,
) -> tuple[str, Sent]:
    """Open a new game (at `game_id`, default a fresh one); its id and the answer. With an
    idempotency key, the same request again gets the first answer."""
    game_id = game_id or new_game_id()
    if idempotency is not None:
        sent = first_answer(ctx, game_id, idempotency)
        if sent is not None:
            return game_id, sent
    try:
        sent = send_command(
            ctx,
            game_id,
            command,
            game=LoadedGame(None, 0),
            expected_version=0,
            idempotency=idempotency,
            meta=meta,
        )
    except StaleVersion:  # the game was opened with this key, which is forgotten since
        raise KeyReused(f"the key of game {game_id} was used before") from None
    return game_id, sent


def send_to_table(
    ctx: Context,
    game_id: str,
    command: Any,
    meta: Mapping[str, Any] | None = None,
    *,
    idempotency: Idempotency | None = None,
) -> Sent:
    """Apply a table command to the game's latest version (deciding again after a conflict:
    an `Asked` command's asker must hold its seat in each version it is decided on). With an
    idempotency key, the same request again gets the first answer, however late."""
    if idempotency is not None:
        sent = first_answer(ctx, game_id, idempotency)
        if sent is not None:
            return sent
    for _ in range(ATTEMPTS):
        game = load_game(ctx, game_id)
        try:
            return send_command(
                ctx,
                game_id,
                command,
                game=game,
                expected_version=game.version,
                idempotency=idempotency,
                meta=meta,
            )
        except StaleVersion:
            continue
    raise Busy(f"game {game_id} kept changing")
