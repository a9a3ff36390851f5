"""The one use case every move goes through: a seat, a bot or a deadline sends a command.

load (this process's cached head, or the stream) → decide → append (with what the game then
waits on) → schedule what follows → the answer. The HTTP views and the RQ jobs are thin
adapters around `send_command`; see docs/architecture.md.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from events.commands import encode_command
from events.games import LoadedGame
from events.replicas import NotReplicated
from events.store import AppendResult, Idempotency, StoredEvent
from game.errors import IllegalCommand
from game.table import Asked, step
from play.context import Context
from play.follow_up import schedule, sweep_time
from play.inbox import RELAY_GRACE_SECONDS, notices, relay_after_append


class StaleVersion(Exception):
    """The command was decided on a version that is not the game's current one."""

    def __init__(self, current_version: int) -> None:
        super().__init__(f"the game is at version {current_version}")
        self.current_version = current_version


class KeyReused(Exception):
    """The caller's idempotency key was used before for another request."""


@dataclass(frozen=True)
class Sent:
    """The answer to a command: the game after it (and its events). `repeated`: the key's
    first answer again, nothing appended this time."""

    game: LoadedGame
    events: list[StoredEvent] = field(default_factory=list)
    repeated: bool = False


def load_game(ctx: Context, game_id: str, expected_version: int | None = None) -> LoadedGame:
    """The game to decide on: the cached head when it is at the version the caller decided on
    (the append checks that version anyway, so nothing need be read), else the stream's head."""
    if expected_version is not None:
        cached = ctx.heads.peek(game_id)
        if cached is not None and cached.version == expected_version:
            return cached
    return ctx.heads.load(game_id)


def send_command(
    ctx: Context,
    game_id: str,
    command: Any,
    *,
    game: LoadedGame,
    expected_version: int,
    idempotency: Idempotency | None = None,
    meta: Mapping[str, Any] | None = None,
) -> Sent:
    """Apply `command`, decided on `expected_version`, to the game (`game`, from `load_game`);
    an `Asked` command only if its asker holds the seat it acts for in that game.

    Raises IllegalCommand when the rules refuse it, StaleVersion when the game is at another
    version, KeyReused when the key was sent before with another request; nothing is appended
    then. A retry with the same key and request gets the first answer. When the store promises
    replicas and they don't have the append in time, NotReplicated: the append stands on the
    master, what follows it is scheduled, and a retry with the same key gets the answer once
    the replicas have it (or appends anew if a failover lost it).
    """
    if game.version != expected_version:
        return _first_answer(ctx, game_id, idempotency, game.version)
    try:
        events, after = step(game.table, command)
    except IllegalCommand:
        current = ctx.heads.load(game_id)  # a cached head may be behind the stream, or lost
        if (current.version, current.stamp) != (expected_version, game.stamp):
            return _first_answer(ctx, game_id, idempotency, current.version)
        raise
    now = time.time()
    decided = command.command if isinstance(command, Asked) else command  # its asker: in meta
    record = {"command": encode_command(decided), "at": now, **(meta or {})}
    if idempotency is not None:  # which request of its caller this was, for the audit
        record["key"] = idempotency.key
    told = notices(game_id, expected_version + 1, events, after, game.table)  # the players told
    appended = ctx.games.append(
        game_id,
        game,
        events,
        after,
        record=record,
        idempotency=idempotency,
        due_at=sweep_time(after, now),
        relay_at=now + RELAY_GRACE_SECONDS if told else None,
    )
    result = appended.result
    if result.status == "conflict":
        raise StaleVersion(result.current_version)
    if result.status != "ok" or appended.game is None:
        if result.status == "duplicate":
            _check_replicated(game_id, result)
        return _remembered(ctx, game_id, result.status, result.first_version, result.last_version)
    if result.replicated:  # a head the replicas may not have is not kept
        ctx.heads.remember(game_id, appended.game)
    if told:
        at_ms = int(now * 1000)
        relay_after_append(ctx, game_id, result.first_version, result.last_version, told, at_ms)
    schedule(ctx, game_id, appended.game, now)
    _check_replicated(game_id, result)
    return Sent(appended.game, appended.events)


def _check_replicated(game_id: str, result: AppendResult) -> None:
    """NotReplicated unless the append's replicas acknowledged it."""
    if not result.replicated:
        raise NotReplicated(
            f"versions {result.first_version}-{result.last_version} of {game_id} are not on"
            " enough replicas yet"
        )


def _first_answer(
    ctx: Context, game_id: str, idempotency: Idempotency | None, current_version: int
) -> Sent:
    """The answer of the key's first append, if it made one; else the version is stale."""
    sent = None if idempotency is None else first_answer(ctx, game_id, idempotency)
    if sent is None:
        raise StaleVersion(current_version)
    return sent


def first_answer(ctx: Context, game_id: str, idempotency: Idempotency) -> Sent | None:
    """The answer of the key's first append, if it is remembered (in Redis, or in the archive
    with its game); KeyReused when it was made by another request."""
    seen = ctx.games.recall(game_id, idempotency)
    if seen is None:
        return None
    status = "duplicate" if seen.fingerprint == idempotency.fingerprint else "key-reused"
    return _remembered(ctx, game_id, status, seen.first_version, seen.last_version)


def _remembered(ctx: Context, game_id: str, status: str, first: int, last: int) -> Sent:
    """The first answer of a repeated request (`duplicate`), or KeyReused."""
    if status == "key-reused":
        raise KeyReused(f"idempotency key already used for another request on {game_id}")
    return Sent(ctx.games.load(game_id, last), ctx.games.read(game_id, first, last), True)
