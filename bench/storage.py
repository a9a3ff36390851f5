"""`loveletter bench storage`: Redis memory per live and per finished game, and what archiving
leaves (nothing in Redis, a compressed file in the archive).

Games are played on a Redis server (or a 3-master cluster, `--cluster`) started for the run, so
nothing else shares its memory. Each game is scripted by the rules engine first, then sent
through the command path as the API sends it: a fresh 256-bit seed, seats with token hashes,
an idempotency key and a request fingerprint per command, the API's meta. Memory is measured
with MEMORY USAGE over the game's keys (stream, snapshot, idempotency keys), plus its lobby
line; a live game is measured halfway through its commands, a finished one at its end.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import secrets
import statistics
import tempfile
import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from redis.cluster import RedisCluster

from events.archive import DirectoryArchive
from events.connection import RedisClient, connect
from events.games import LoadedGame
from events.redis_cluster import LocalCluster
from events.redis_server import EmbeddedRedis
from events.store import Idempotency
from game.legal import legal_commands
from game.table import OpenTable, Table, TakeSeat, step
from play.context import Context
from play.send_command import send_command
from play.settings import Settings
from service.cli.help import add_command

CONFIGS = (("2019", 2), ("classic", 4))
NAMESPACE = "bench-storage"
LOBBY_SAMPLE = 1000  # members of a sorted set measured for the lobby's per-game entries


def register_bench(bench_subparsers: argparse._SubParsersAction) -> None:
    """Add `storage`: `loveletter bench storage [--games N] [--cluster] [--json]`."""
    parser = add_command(
        bench_subparsers,
        "storage",
        summary="Redis memory per live and per finished game, and after archiving",
        description="Play GAMES games of two kinds to their end through the command path on a"
        " Redis of its own (or a 3-master Cluster), and measure the bytes of their keys halfway,"
        " at the end and after archiving, and Redis's operations and CPU per command.",
        examples=("loveletter bench storage --json", "loveletter bench storage --cluster"),
    )
    parser.add_argument("--games", type=int, default=20, help="games per edition and size")
    parser.add_argument("--cluster", action="store_true", help="on a 3-master Redis Cluster")
    parser.add_argument("--seed", type=int, default=1, help="of the scripted games")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print its figures."""
    result = run_storage_bench(games=args.games, cluster=args.cluster, seed=args.seed)
    print(json.dumps(result) if args.json else table(result))
    return 0


def run_storage_bench(
    *,
    games: int = 20,
    configs: Sequence[tuple[str, int]] = CONFIGS,
    cluster: bool = False,
    seed: int = 1,
) -> dict[str, Any]:
    """Play the games on a fresh server, measuring as they go; the figures as one dict."""
    if games < 1:
        raise ValueError("games must be >= 1")
    rng = random.Random(seed)
    with (
        tempfile.TemporaryDirectory(prefix="loveletter-bench-storage-") as folder,
        _server(Path(folder), cluster) as url,
    ):
        client = connect(url)
        try:
            archive_dir = str(Path(folder) / "archive")
            settings = Settings(namespace=NAMESPACE, queue=NAMESPACE, archive_dir=archive_dir)
            ctx = Context.on(client, settings)
            lobby_entry = _sorted_set_entry_bytes(client)
            results = [_measure(ctx, edition, players, games, rng) for edition, players in configs]
        finally:
            client.close()
    return {
        "benchmark": "storage",
        "redis": "cluster of 3 masters" if cluster else "single server",
        "games_per_config": games,
        "lobby_sorted_set_entry_bytes": lobby_entry,
        "configs": results,
    }


def _measure(
    ctx: Context, edition: str, players: int, games: int, rng: random.Random
) -> dict[str, Any]:
    """Play `games` games of one edition and size; memory live, finished, archived."""
    live, finished, events, commands, files = [], [], [], [], []
    client = ctx.games.store.redis
    archive = ctx.games.archive
    assert isinstance(archive, DirectoryArchive)
    warm_up = _play(ctx, _script(edition, players, rng))[0]  # the server's first allocations
    used_before = _used_memory(client)
    played = []
    for _ in range(games):
        script = _script(edition, players, rng)
        game_id, version, half = _play(ctx, script)
        live.append(half)
        finished.append(_game_bytes(ctx, game_id))
        events.append(version)
        commands.append(len(script))
        played.append(game_id)
    used_after = _used_memory(client)
    lobby = _sorted_set_entry_bytes(client)
    cpu, calls = _server_work(client)  # a second pass, measuring nothing but the server's work
    sent = 0
    for _ in range(games):
        script = _script(edition, players, rng)
        played.append(_play(ctx, script, measure=False)[0])
        sent += len(script)
    cpu, calls = _server_work(client, cpu, calls)
    left = 0
    assert ctx.games.archive_game(warm_up, float("inf")) == "archived"
    for game_id in played:
        assert ctx.games.archive_game(game_id, float("inf")) == "archived"
        files.append(archive.path(game_id).stat().st_size)
        left += sum(_usage(client, key) for key in ctx.games.store.keys_of(game_id))
    return {
        "edition": edition,
        "players": players,
        "games": games,
        "events_per_game": round(statistics.fmean(events), 1),
        "commands_per_game": round(statistics.fmean(commands), 1),
        "live_game_bytes": _summary(live, lobby),
        "finished_game_bytes": _summary(finished, lobby),
        "stream_bytes_per_event": round(
            sum(item["stream"] for item in finished) / max(sum(events), 1), 1
        ),
        "used_memory_per_finished_game": round((used_after - used_before) / games),
        "archive_file_bytes_per_game": round(statistics.fmean(files)),
        "redis_operations_per_command": round(calls / sent, 1),
        "redis_cpu_us_per_command": round(1e6 * cpu / sent, 1),
        "redis_bytes_left_after_archiving": left,
    }


def _play(
    ctx: Context, script: list[tuple[int | None, Any]], *, measure: bool = True
) -> tuple[str, int, dict[str, int]]:
    """Play a scripted game; its id, its version, and its memory halfway through."""
    game_id = uuid.uuid4().hex[:16]
    game = LoadedGame(None, 0)
    half: dict[str, int] = {}
    for number, (seat, command) in enumerate(script):
        game = _send(ctx, game_id, game, seat, command)
        if measure and number == len(script) // 2:
            half = _game_bytes(ctx, game_id)
    return game_id, game.version, half


def _script(edition: str, players: int, rng: random.Random) -> list[tuple[int | None, Any]]:
    """A whole game as the API would receive it: open, join, then random legal commands."""
    hashes = [secrets.token_hex(32) for _ in range(players)]
    opening = OpenTable(
        edition, (None,) * players, secrets.token_hex(32), host=TakeSeat(0, "p0", hashes[0])
    )
    commands: list[tuple[int | None, Any]] = [(None, opening)]
    table: Table | None = step(None, opening)[1]
    for seat in range(1, players):
        join = TakeSeat(None, f"p{seat}", hashes[seat])
        commands.append((None, join))
        table = step(table, join)[1]
    while table is not None and table.status == "playing":
        assert table.game is not None
        command = rng.choice(legal_commands(table.game))
        commands.append((table.game.current, command))
        table = step(table, command)[1]
    return commands


def _send(
    ctx: Context, game_id: str, game: LoadedGame, seat: int | None, command: Any
) -> LoadedGame:
    """Send one command with what the API adds to it: key, fingerprint and meta."""
    scope = "lobby" if seat is None else f"seat{seat}"
    key = Idempotency(scope, str(uuid.uuid4()), hashlib.sha256(repr(command).encode()).hexdigest())
    meta = {"by": "player"} if seat is None else {"by": "seat", "seat": seat}
    sent = send_command(
        ctx, game_id, command, game=game, expected_version=game.version, idempotency=key, meta=meta
    )
    return sent.game


def _game_bytes(ctx: Context, game_id: str) -> dict[str, int]:
    """MEMORY USAGE of the game's keys, by kind, and of its lobby line's string."""
    store, client = ctx.games.store, ctx.games.store.redis
    found = {"stream": 0, "snapshot": 0, "idempotency": 0, "idempotency_keys": 0, "lobby": 0}
    for key in store.keys_of(game_id):
        kind = key.rsplit("}:", 1)[1].split(":", 1)[0]
        if kind == "idem":
            found["idempotency"] += _usage(client, key)
            found["idempotency_keys"] += 1
        elif kind in found:
            found[kind] += _usage(client, key)
    found["lobby"] = _usage(client, f"{NAMESPACE}:index:game:{game_id}")
    return found


def _summary(samples: list[dict[str, int]], lobby_entry: float) -> dict[str, float]:
    """Mean bytes by kind, and the total with the lobby's two sorted-set entries."""
    kinds = samples[0].keys()
    mean = {kind: round(statistics.fmean(sample[kind] for sample in samples), 1) for kind in kinds}
    mean["lobby"] = round(mean["lobby"] + 2 * lobby_entry, 1)
    mean["total"] = round(sum(v for k, v in mean.items() if k != "idempotency_keys"), 1)
    return mean


def _usage(client: RedisClient, key: str) -> int:
    return int(client.memory_usage(key, samples=0) or 0)


def _info(client: RedisClient, section: str) -> list[dict[str, Any]]:
    """An INFO section of the server, or of each master of a cluster."""
    if isinstance(client, RedisCluster):
        found: Any = client.info(section, target_nodes=RedisCluster.PRIMARIES)
        return list(found.values())
    return [client.info(section)]


def _used_memory(client: RedisClient) -> int:
    """used_memory of the server (summed over the masters of a cluster)."""
    return sum(int(node["used_memory"]) for node in _info(client, "memory"))


def _server_work(client: RedisClient, cpu: float = 0.0, calls: int = 0) -> tuple[float, int]:
    """CPU seconds the server (each master) used, and commands it ran (those scripts run
    included), since the figures given."""
    nodes = _info(client, "cpu")
    used = sum(float(node["used_cpu_sys"]) + float(node["used_cpu_user"]) for node in nodes)
    ran = sum(
        int(figures["calls"])
        for table in _info(client, "commandstats")
        for name, figures in table.items()
        if name.startswith("cmdstat_") and name[8:] not in ("info", "cluster", "ping")
    )
    return used - cpu, ran - calls


def _sorted_set_entry_bytes(client: RedisClient) -> float:
    """Bytes per member of a large sorted set of game ids (the lobby's `updated` and status
    sets hold every game once each), measured on LOBBY_SAMPLE members."""
    key = f"{NAMESPACE}:sample-sorted-set"
    client.zadd(key, {uuid.uuid4().hex[:16]: 1.7e9 + n for n in range(LOBBY_SAMPLE)})
    try:
        return round(_usage(client, key) / LOBBY_SAMPLE, 1)
    finally:
        client.delete(key)


@contextmanager
def _server(folder: Path, cluster: bool) -> Iterator[str]:
    """A Redis (or a 3-master cluster) of this run alone; its URL."""
    if cluster:
        nodes = LocalCluster(folder / "cluster").start()
        try:
            yield nodes.url
        finally:
            nodes.stop()
        return
    with EmbeddedRedis(folder / "redis", appendfsync="no") as server:
        yield server.url


def table(result: Mapping[str, Any]) -> str:
    """The figures as a short readable table."""
    lines = [
        f"Redis memory per game ({result['redis']}, {result['games_per_config']} games each;"
        f" lobby sorted-set entry {result['lobby_sorted_set_entry_bytes']} B)",
        f"  {'game':<14}{'events':>8}{'live B':>10}{'finished B':>12}{'B/event':>9}"
        f"{'idem B':>9}{'archive B':>11}{'left B':>8}",
    ]
    for row in result["configs"]:
        lines.append(
            f"  {row['edition'] + ' ' + str(row['players']) + 'p':<14}{row['events_per_game']:>8}"
            f"{row['live_game_bytes']['total']:>10}{row['finished_game_bytes']['total']:>12}"
            f"{row['stream_bytes_per_event']:>9}{row['finished_game_bytes']['idempotency']:>9}"
            f"{row['archive_file_bytes_per_game']:>11}{row['redis_bytes_left_after_archiving']:>8}"
        )
    return "\n".join(lines)
