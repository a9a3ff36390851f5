"""`loveletter bench store`: the event store's append rate and memory against the live Redis."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from events.commands import encode_command
from events.connection import RedisClient, connect
from events.games import GameRepository, LoadedGame
from events.snapshots import SnapshotStore
from events.store import EventStore, Idempotency, game_key, to_json
from game.legal import legal_commands
from game.state import Phase
from game.table import OpenTable, PlayAgain, TakeSeat, step
from service.cli.help import add_command
from service.cli.progress import Advance, no_progress, progress

RATIO_TARGET = 0.5
LOAD_SIZES = (50, 500, 5000)
LOAD_REPEATS = 5

# A load case prepares a game of `size` events in the store (and a snapshot, if it uses one)
# and returns the loader to time: (store, game id, size) -> loader.
LoadCase = Callable[[EventStore, str, int], Callable[[], object]]


def register_bench(bench_subparsers: argparse._SubParsersAction) -> None:
    """Add `store` to the `bench` command group: `loveletter bench store [--events N] [--json]`."""
    parser = add_command(
        bench_subparsers,
        "store",
        summary="event store append rate and memory",
        description="Appends per second through the Lua append (version check and idempotency"
        " key) against a plain XADD, bytes per event, and the time to load games of several"
        " sizes with and without snapshots.",
        examples=("loveletter bench store --events 2000",),
    )
    parser.add_argument("--events", type=int, default=20000, help="appends per measurement")
    parser.add_argument(
        "--sizes",
        type=lambda text: [int(size) for size in text.split(",")],
        default=list(LOAD_SIZES),
        help="game sizes (events) to time loading, comma-separated",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark against the configured Redis (REDIS_URL or the embedded one)."""
    client = connect()
    try:
        with progress("appends and loads", 1 + len(GAME_LOAD_CASES) * len(args.sizes)) as advance:
            run_store_bench(
                client,
                events=args.events,
                json_output=args.json,
                load_cases=GAME_LOAD_CASES,
                load_sizes=args.sizes,
                advance=advance,
            )
    finally:
        client.close()
    return 0


def write_game(store: EventStore, game_id: str, size: int, snapshot_every: int) -> GameRepository:
    """Random games at one table (playing again after each) until the stream holds `size` events."""
    games = GameRepository(
        store, SnapshotStore(store.redis, namespace=store.namespace), snapshot_every=snapshot_every
    )
    rng = random.Random(size)
    loaded = _apply(games, game_id, LoadedGame(None, 0), OpenTable("premium", (None,) * 6, "bench"))
    for seat in range(6):
        loaded = _apply(games, game_id, loaded, TakeSeat(seat, f"p{seat}", "-"))
    while loaded.version < size:
        assert loaded.table is not None and loaded.table.game is not None
        state = loaded.table.game
        command = PlayAgain() if state.phase is Phase.OVER else rng.choice(legal_commands(state))
        loaded = _apply(games, game_id, loaded, command)
    return games


def _apply(games: GameRepository, game_id: str, game: LoadedGame, command: Any) -> LoadedGame:
    """Decide a command on `game` and append its events."""
    events, after = step(game.table, command)
    record = {"command": encode_command(command), "at": 0.0}
    appended = games.append(game_id, game, events, after, record=record)
    assert appended.game is not None, appended.result
    return appended.game


def _with_snapshots(store: EventStore, game_id: str, size: int) -> Callable[[], object]:
    games = write_game(store, game_id, size, snapshot_every=SNAPSHOT_EVERY)
    return lambda: games.load(game_id)


def _without_snapshots(store: EventStore, game_id: str, size: int) -> Callable[[], object]:
    games = write_game(store, game_id, size, snapshot_every=10**9)
    return lambda: games.load(game_id)


SNAPSHOT_EVERY = 50
GAME_LOAD_CASES: dict[str, LoadCase] = {
    "with snapshots": _with_snapshots,
    "without snapshots": _without_snapshots,
}


def sample_event(index: int) -> dict[str, Any]:
    """A realistic event of about 200 bytes of JSON."""
    return {
        "type": "card_played",
        "v": 1,
        "round": 3,
        "turn": index,
        "seat": index % 4,
        "card": "guard",
        "target": (index + 1) % 4,
        "guess": "priest",
        "outcome": {"eliminated": [(index + 1) % 4], "revealed": "priest"},
        "deck_left": 7,
        "discards": [["guard", "baron"], ["priest"], ["handmaid"], []],
    }


def sample_meta(index: int) -> dict[str, Any]:
    """The meta of a command: who sent it, which request, when."""
    return {"command": "play_card", "seat": index % 4, "request": uuid.uuid4().hex, "at": 1.8e9}


def run_store_bench(
    redis_client: RedisClient,
    *,
    events: int = 20000,
    json_output: bool = False,
    load_cases: Mapping[str, LoadCase] | None = None,
    load_sizes: Sequence[int] = LOAD_SIZES,
    advance: Advance = no_progress,
) -> dict[str, Any]:
    """Measure appends/s (Lua path vs plain XADD), memory per event, and any load cases; print.
    `advance()` after the appends and after each load case and size."""
    namespace = f"bench-{uuid.uuid4().hex[:8]}"
    store = EventStore(redis_client, namespace=namespace)
    try:
        result = _measure_appends(store, events)
        advance()
        if load_cases:
            result["load_ms"] = measure_loads(store, load_cases, load_sizes, advance)
            result["game_stream_bytes_per_event"] = _game_bytes_per_event(store)
    finally:
        delete_namespace(redis_client, namespace)
    print(json.dumps(result) if json_output else _table(result))
    return result


def measure_loads(
    store: EventStore,
    cases: Mapping[str, LoadCase],
    sizes: Sequence[int] = LOAD_SIZES,
    advance: Advance = no_progress,
) -> dict[str, dict[str, float]]:
    """Median milliseconds to load a game of each size, per case (e.g. with/without snapshots)."""
    timings: dict[str, dict[str, float]] = {}
    for name, case in cases.items():
        timings[name] = {}
        for size in sizes:
            loader = case(store, f"load-{name}-{size}".replace(" ", "-"), size)
            samples = []
            for _ in range(LOAD_REPEATS):
                start = time.perf_counter()
                loader()
                samples.append((time.perf_counter() - start) * 1000)
            timings[name][str(size)] = round(statistics.median(samples), 3)
            advance()
    return timings


def _game_bytes_per_event(store: EventStore) -> float:
    """Redis memory per event of the longest real game stream the load cases wrote."""
    streams = [(store.version(g), g) for g in store.game_ids() if g.startswith("load-")]
    events, game_id = max(streams)
    used = int(store.redis.memory_usage(store.stream_key(game_id), samples=0) or 0)
    return round(used / events, 1)


def _measure_appends(store: EventStore, count: int) -> dict[str, Any]:
    """Single-event appends through the Lua script, then plain XADDs of the same payload."""
    if count < 1:
        raise ValueError("events must be at least 1")
    client = store.redis
    plain_key = game_key(store.namespace, "bench", "plain")  # same slot, so the same node

    def append(game_id: str, version: int) -> None:
        store.append(game_id, version, [sample_event(version)],
                     idempotency=Idempotency("bench", f"k{version}"),
                     meta=sample_meta(version))  # fmt: skip

    def plain(index: int) -> None:
        client.xadd(
            plain_key, {"e": to_json(sample_event(index)), "m": to_json(sample_meta(index))}
        )

    for index in range(min(200, count)):  # warm up: script loaded, connection open
        plain(index)
        append("warm-up", index)
    client.delete(plain_key)
    plain_rate = _rate(plain, range(count))
    lua_rate = _rate(lambda version: append("bench", version), range(count))
    stream_bytes = int(client.memory_usage(store.stream_key("bench"), samples=0) or 0)
    idem_bytes = int(
        client.memory_usage(store.idempotency_key("bench", Idempotency("bench", "k0")), samples=0)
        or 0
    )
    return {
        "benchmark": "store",
        "events": count,
        "event_bytes": len(to_json(sample_event(count))),
        "meta_bytes": len(to_json(sample_meta(count))),
        "lua_appends_per_second": round(lua_rate, 1),
        "xadd_per_second": round(plain_rate, 1),
        "ratio": round(lua_rate / plain_rate, 3),
        "ratio_target": RATIO_TARGET,
        "stream_bytes_per_event": round(stream_bytes / count, 1),
        "idempotency_key_bytes": idem_bytes,
    }


def _rate(step: Callable[[int], None], indexes: range) -> float:
    """Calls of step per second over indexes."""
    start = time.perf_counter()
    for index in indexes:
        step(index)
    return len(indexes) / (time.perf_counter() - start)


def delete_namespace(client: RedisClient, namespace: str) -> None:
    """Delete every key a benchmark wrote in its namespace (never FLUSH)."""
    pipe = client.pipeline(transaction=False)
    for key in client.scan_iter(match=f"{namespace}:*", count=1000):
        pipe.delete(key)
    pipe.execute()


def _table(result: Mapping[str, Any]) -> str:
    """The figures as a short readable table."""
    lines = [
        f"event store: {result['events']} single-event appends"
        f" ({result['event_bytes']} B event + {result['meta_bytes']} B meta each)",
        f"  Lua append (version check, idempotency key) {result['lua_appends_per_second']:>10} /s",
        f"  plain XADD (same payload, same connection)  {result['xadd_per_second']:>10} /s",
        f"  ratio                                       {result['ratio']:>10}"
        f"  (target >= {result['ratio_target']})",
        f"  stream memory per event                     {result['stream_bytes_per_event']:>10} B",
        f"  idempotency key memory (each, until TTL)    {result['idempotency_key_bytes']:>10} B",
    ]
    if "game_stream_bytes_per_event" in result:
        lines.append(
            f"  real game stream memory per event           "
            f"{result['game_stream_bytes_per_event']:>10} B"
        )
    for name, sizes in result.get("load_ms", {}).items():
        for size, ms in sizes.items():
            lines.append(f"  load {size:>5} events, {name:<28} {ms:>10} ms")
    return "\n".join(lines)
