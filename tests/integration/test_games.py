"""Games through the use case and the repository on real Redis: replay at every version,
snapshots, audit, rebuild."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.audit import export_lines, verify_lines
from events.connection import RedisClient
from events.games import STATE_SCHEMA, GameRepository
from events.store import Idempotency
from game import IllegalCommand, legal_commands
from game.commands import PlayCard
from game.table import OpenTable, Table, TakeSeat, evolve
from game.table import Table as TableState
from play.context import Context
from play.send_command import Sent, StaleVersion, load_game, send_command
from play.settings import Settings
from tests.unit.games import GAME_SIZES


@pytest.fixture
def ctx(client: RedisClient, namespace: str) -> Context:
    """The use cases in this test's namespace, snapshotting often to exercise snapshot loads."""
    context = Context.on(client, Settings(namespace=namespace, queue=namespace))
    context.games.snapshot_every = 7
    return context


@pytest.fixture
def games(ctx: Context) -> GameRepository:
    """The context's games."""
    return ctx.games


def execute(
    ctx: Context, game_id: str, command: object, expected_version: int, key: str | None = None
) -> Sent:
    """Send a command decided on `expected_version` (with an idempotency key, if given)."""
    return send_command(
        ctx,
        game_id,
        command,
        game=load_game(ctx, game_id, expected_version),
        expected_version=expected_version,
        idempotency=None if key is None else Idempotency("test", key),
    )


def open_table(ctx: Context, game_id: str, edition: str, players: int, seed: str) -> None:
    """A table whose every seat is taken by a human, so the game starts."""
    opened = execute(ctx, game_id, OpenTable(edition, (None,) * players, seed), 0)
    for seat in range(players):
        execute(ctx, game_id, TakeSeat(seat, f"p{seat}", f"hash{seat}"), opened.game.version + seat)


def play_through(ctx: Context, game_id: str, seed: int) -> list[TableState]:
    """Random legal commands through the use case until the game ends; tables by version."""
    games = ctx.games
    rng = random.Random(seed)
    loaded = games.load(game_id)
    while loaded.table is not None and loaded.table.status == "playing":
        command = rng.choice(legal_commands(loaded.table.game))
        outcome = execute(ctx, game_id, command, loaded.version, f"k{loaded.version}")
        assert not outcome.repeated
        loaded = outcome.game
    tables: list[TableState] = []
    table = None
    for item in games.store.read(game_id):
        table = evolve(table, games.vocabulary.decode(item.event))
        tables.append(table)
    return tables


@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))
@given(size=st.sampled_from(GAME_SIZES), seed=st.integers(0, 2**31))
def test_stored_games_replay_to_the_engines_state_at_every_version(
    ctx: Context, games: GameRepository, size: tuple[str, int], seed: int
) -> None:
    """Head and every earlier version load (from snapshot + tail) to the folded state."""
    edition, players = size
    game_id = f"replay-{seed}-{edition}-{players}"
    open_table(ctx, game_id, edition, players, str(seed))
    tables = play_through(ctx, game_id, seed)
    assert tables[-1].status == "over"
    assert games.load(game_id).table == tables[-1]
    for version in range(1, len(tables) + 1, 5):
        assert games.load(game_id, version).table == tables[version - 1]
    assert games.snapshots.load(game_id) is not None


def test_a_snapshot_of_another_schema_is_ignored(ctx: Context, games: GameRepository) -> None:
    """A snapshot written under an older state layout is not misread."""
    open_table(ctx, "g1", "classic", 2, "s")
    head = games.load("g1")
    games.snapshots.save("g1", head.version, "table-old", json.dumps({"nonsense": True}))
    assert games.load("g1") == head
    games.save_snapshot("g1", head)
    assert games.load("g1") == head


def test_refused_stale_and_repeated_commands_append_nothing(
    ctx: Context, games: GameRepository
) -> None:
    """An illegal command raises; a stale version conflicts; a repeated key returns the first."""
    open_table(ctx, "g2", "classic", 3, "seed")
    loaded = games.load("g2")
    assert isinstance(loaded.table, Table) and loaded.table.game is not None
    version = loaded.version
    seat = loaded.table.game.current
    assert seat is not None
    with pytest.raises(IllegalCommand):
        execute(ctx, "g2", PlayCard((seat + 1) % 3, "guard"), version)
    assert games.store.version("g2") == version
    command = legal_commands(loaded.table.game)[0]
    with pytest.raises(StaleVersion):
        execute(ctx, "g2", command, version - 1)
    first = execute(ctx, "g2", command, version, "once")
    again = execute(ctx, "g2", command, version, "once")
    assert not first.repeated and again.repeated
    assert [e.event for e in again.events] == [e.event for e in first.events]
    assert again.game == first.game == games.load("g2")


def test_exported_games_verify_and_tampering_is_found(ctx: Context, games: GameRepository) -> None:
    """Export, verify; then change one drawn card, the salt, or drop a line: each is found."""
    open_table(ctx, "g3", "2019", 4, "audit")
    play_through(ctx, "g3", 3)
    lines = list(export_lines(games.store, "g3"))
    report = verify_lines(lines)
    assert report.ok, report.divergence
    assert report.events == len(lines) and report.deals_opened >= 1

    records = [json.loads(line) for line in lines]
    drawn = next(i for i, r in enumerate(records) if r["event"]["type"] == "turn_started")
    other = "princess" if records[drawn]["event"]["card"] != "princess" else "guard"
    tampered = [dict(r) for r in records]
    tampered[drawn] = {**records[drawn], "event": {**records[drawn]["event"], "card": other}}
    bad = verify_lines(json.dumps(r) for r in tampered)
    assert not bad.ok and bad.divergence is not None
    assert bad.divergence.version == drawn + 1

    ended = next(i for i, r in enumerate(records) if r["event"]["type"] == "round_ended")
    salted = [dict(r) for r in records]
    salted[ended] = {**records[ended], "event": {**records[ended]["event"], "salt": "0" * 32}}
    assert verify_lines(json.dumps(r) for r in salted).divergence.version == ended + 1  # type: ignore[union-attr]

    gap = verify_lines(lines[:5] + lines[6:])
    assert gap.divergence is not None and gap.divergence.version == 6


def test_rebuild_restores_snapshots_and_index(ctx: Context, games: GameRepository) -> None:
    """Deleted or corrupted derived keys are repaired by a rebuild from the streams."""
    open_table(ctx, "g4", "classic", 2, "r")
    play_through(ctx, "g4", 4)
    open_table(ctx, "g5", "classic", 3, "r")
    head = games.load("g4")
    assert games.index is not None
    listed = games.index.get("g4")
    assert listed is not None and listed.status == "over"
    games.snapshots.delete("g4")
    games.snapshots.save("g5", 3, STATE_SCHEMA, games._payload(head.table))
    games.index.remove("g4")
    report = games.rebuild()
    assert report.snapshots_rewritten == 2
    assert report.index is not None and report.index.added == 1
    assert games.index.get("g4") == listed
    assert games.load("g4") == head
    assert games.snapshots.load("g4") is not None
    again = games.rebuild()
    assert again.snapshots_rewritten == 0 and again.index is not None
    assert (again.index.added, again.index.changed, again.index.removed) == (0, 0, 0)
