"""After a failover that lost acknowledged writes, a game's version can come back with other
events. No process may then go on from the head it kept: the entry's stamp tells the two
histories apart (on a single server and on a cluster)."""

from __future__ import annotations

from typing import Any

import pytest

from events.audit import export_lines, verify_lines
from events.connection import RedisClient
from game import legal_commands
from game.table import OpenTable, Table, TakeSeat, step
from play.context import Context
from play.send_command import StaleVersion
from play.settings import Settings
from tests.integration.workers import submit

pytestmark = pytest.mark.redis


def saved(client: RedisClient, ctx: Context, game_id: str) -> dict[str, Any]:
    """Every key of the game, dumped (what a replica would have had)."""
    return {key: client.dump(key) for key in ctx.games.store.keys_of(game_id)}


def lose_writes_since(
    client: RedisClient, ctx: Context, game_id: str, dumps: dict[str, Any]
) -> None:
    """The game's keys as they were when `dumps` was taken: what a promoted replica that
    lagged behind its dead master serves."""
    for key in ctx.games.store.keys_of(game_id):
        client.delete(key)
    for key, value in dumps.items():
        client.restore(key, 0, value)


def two_moves_as_long(table: Table) -> tuple[Any, Any]:
    """Two legal commands that give different tables with as many events."""
    assert table.game is not None
    by_length: dict[int, Any] = {}
    for command in legal_commands(table.game):
        events, after = step(table, command)
        found = by_length.setdefault(len(events), command)
        if found is not command and step(table, found)[1] != after:
            return found, command
    raise AssertionError("no two such commands")


def test_a_kept_head_from_a_lost_history_is_not_used(client: RedisClient, namespace: str) -> None:
    settings = Settings(namespace=namespace, queue=namespace)
    first, second = Context.on(client, settings), Context.on(client, settings)  # two processes
    opened = submit(first, "g", OpenTable("classic", (None, None), "seed"), expected_version=0)
    game = submit(first, "g", TakeSeat(0, "ann", "-"), expected_version=opened.game.version)
    game = submit(first, "g", TakeSeat(1, "bob", "-"), expected_version=game.game.version)
    replicated = saved(client, first, "g")
    table = game.game.table
    assert table is not None and table.game is not None
    one, other = two_moves_as_long(table)
    start = game.game.version
    lost = submit(first, "g", one, expected_version=start)  # acknowledged, then lost
    lose_writes_since(client, first, "g", replicated)
    kept = submit(second, "g", other, expected_version=start)  # the history from now on
    assert kept.game.version == lost.game.version and kept.game.table != lost.game.table

    # The first process still keeps the lost head, at the very version the game is at again.
    assert first.heads.peek("g") == lost.game
    after = kept.game.table
    assert after is not None and after.game is not None
    with pytest.raises(StaleVersion):  # decided on the lost history: refused, not appended
        submit(first, "g", legal_commands(after.game)[0], expected_version=kept.game.version)
    assert first.games.store.version("g") == kept.game.version
    assert first.heads.load("g").table == second.games.load("g").table == after
    assert verify_lines(export_lines(first.games, "g")).ok
