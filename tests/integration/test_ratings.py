"""The ratings projection on real Redis with real RQ workers: every finished ranked game rates
each of its players once, whoever sees it end, also when the process that ended it died before
rating it; `rebuild` gives the very same numbers."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from events.connection import RedisClient
from events.ratings import RatingStore
from game.ratings import Rating, replay
from game.records import FinishedGame, SeatRecord
from game.table import AbandonSeat, OpenTable, TakeSeat
from play.context import Context
from play.lobby import open_table, send_to_table
from play.records import rebuild, record_finished, record_table, table_games
from tests.redis_keys import delete_namespace, new_namespace
from tests.waits import wait_until

from .workers import over, start_worker, wait_for, wait_for_sweeps

pytestmark = [pytest.mark.redis]


def ranked_table(ctx: Context, game_id: str, players: list[str], **settings: Any) -> None:
    """A started ranked table of these players (each seated as a player)."""
    host = TakeSeat(0, players[0], f"h-{players[0]}", player=players[0])
    command = OpenTable("2019", (None,) * len(players), f"seed-{game_id}", host=host, ranked=True,
                        first_player=0, **settings)  # fmt: skip
    open_table(ctx, command, {"by": "test"}, game_id=game_id)
    for name in players[1:]:
        send_to_table(ctx, game_id, TakeSeat(None, name, f"h-{name}", player=name), {"by": "test"})


def snapshot(client: RedisClient, namespace: str) -> dict[str, Any]:
    """Every ratings key of the namespace and its whole value."""
    found: dict[str, Any] = {}
    for raw in client.scan_iter(match=f"{namespace}:*ratings*", count=1000):
        key = raw.decode() if isinstance(raw, bytes) else str(raw)
        kind = client.type(key)
        kind = kind.decode() if isinstance(kind, bytes) else kind
        if kind == "hash":
            found[key] = client.hgetall(key)
        elif kind == "zset":
            found[key] = client.zrange(key, 0, -1, withscores=True)
        elif kind == "list":
            found[key] = client.lrange(key, 0, -1)
    return found


def expected_ratings(ctx: Context, game_ids: list[str]) -> dict[str, Rating]:
    """The ratings the rules of ratings give for these tables (the fold in order)."""
    return replay(game for game_id in game_ids for game in table_games(ctx, game_id))[0]


@pytest.fixture
def stopping() -> Iterator[list[Any]]:
    """Workers started by a test, stopped after it."""
    started: list[Any] = []
    yield started
    for worker in started:
        worker.stop()


def test_ranked_games_ended_by_workers_rate_each_player_once(
    redis_url: str, ctx: Context, single_client: RedisClient, stopping: list[Any]
) -> None:
    """Two workers time out the first seat of six ranked tables (it forfeits at once: a leaver,
    last, and the game was not played, so only the leaver's rating moves); the test also
    records every table itself, over and over, from two threads as they end. Each leaver's
    rating counts their games once, and equals the fold of the games in order; `rebuild`
    writes the same keys with the same values."""
    stopping += [start_worker(redis_url, ctx), start_worker(redis_url, ctx)]
    people = ["ann", "bob", "cy", "dee"]
    tables = {f"r{n}": [people[n % 4], people[(n + 1) % 4]] for n in range(6)}
    for game_id, players in tables.items():
        ranked_table(ctx, game_id, players, turn_seconds=1, on_timeout="forfeit")
    done = threading.Event()
    rounds = [0, 0]  # each seer's rounds over every table

    def see_them_end(seer: int) -> None:
        while not done.is_set():
            for game_id in tables:
                record_table(ctx, game_id)
            rounds[seer] += 1

    seers = [threading.Thread(target=see_them_end, args=(seer,)) for seer in range(2)]
    for seer in seers:
        seer.start()
    try:
        for game_id in tables:
            wait_for(ctx, game_id, over, 30)
        after = list(rounds)

        def again() -> bool:
            """Each seer has gone over every table at least once more since the last end."""
            return all(n > seen + 1 for n, seen in zip(rounds, after, strict=True))

        wait_until(again, "each seer to record every table again after the last end")
    finally:
        done.set()
        for seer in seers:
            seer.join(10)
    played = {p: sum(p in players for players in tables.values()) for p in people}
    left = {p: sum(players[0] == p for players in tables.values()) for p in people}
    ratings = ctx.ratings.all_ratings("2019")
    assert {p: r.games for p, r in ratings.items()} == left
    for person in people:
        assert len(ctx.ratings.history("2019", person)) == left[person]
        stats = ctx.ratings.statistics("2019", person)
        assert stats["games"] == played[person]
        assert stats["abandons"] == left[person]
    assert ratings == expected_ratings(ctx, list(tables))
    for game_id in tables:
        (game,) = table_games(ctx, game_id)
        assert game.rated and game.seats[0].left and game.ranks() == [2, 1], game_id
        assert not game.played, game_id
    before = snapshot(single_client, ctx.settings.namespace)
    assert before
    report = rebuild(ctx)
    assert report.rated == {"2019": 6}
    assert snapshot(single_client, ctx.settings.namespace) == before


def test_a_worker_killed_between_a_games_end_and_its_rating_leaves_it_to_a_fresh_worker(
    redis_url: str, ctx: Context, single_client: RedisClient, stopping: list[Any]
) -> None:
    """A real worker ends a ranked game (the first seat's time runs out: it forfeits) while
    the edition's ratings can't be written (their hash holds a string: Redis refuses with
    WRONGTYPE, as any failure of Redis there would). The worker is stopped at that point, the
    end appended, the players told, the rating not applied, and is SIGKILLed there. Once Redis
    takes writes again, a fresh worker's sweep rates the game, once."""
    ratings_key = ctx.ratings.ratings_key("2019")
    single_client.set(ratings_key, "not a hash")  # every rating write fails from here
    ranked_table(ctx, "killed", ["eve", "fay"], turn_seconds=1, on_timeout="forfeit")
    worker = start_worker(redis_url, ctx)
    stopping.append(worker)
    ended = wait_for(ctx, "killed", over, 30)
    relays = ctx.games.store.relays
    deadline = time.monotonic() + 10
    while not any(item.game_id == "killed" for item in relays.overdue(time.time() + 3600)):
        assert time.monotonic() < deadline, "the end's relay record is gone"
        time.sleep(0.1)
    wait_for_sweeps(ctx, 2)  # the worker's sweep tries again, and fails again
    assert not ctx.ratings.recorded("2019", "killed#1")
    assert any(item.game_id == "killed" for item in relays.overdue(time.time() + 3600))
    worker.kill()
    assert all(process.returncode == -signal.SIGKILL for process in worker.processes())
    assert ctx.games.load("killed").version == ended.version  # it died with nothing more done
    single_client.delete(ratings_key)
    assert ctx.ratings.all_ratings("2019") == {}
    stopping.append(start_worker(redis_url, ctx))
    wait_until(lambda: ctx.ratings.all_ratings("2019"), "a fresh worker's sweep to rate the game")
    wait_for_sweeps(ctx, 2)  # a sweep or two more: none rates it again
    ratings = ctx.ratings.all_ratings("2019")
    assert {p: r.games for p, r in ratings.items()} == {"eve": 1}  # fay stayed: not played
    assert ratings == expected_ratings(ctx, ["killed"])
    assert [len(ctx.ratings.history("2019", p)) for p in ("eve", "fay")] == [1, 0]
    assert not any(item.game_id == "killed" for item in relays.overdue(time.time() + 3600))
    assert record_table(ctx, "killed") == 0


def test_a_game_that_ends_before_one_rated_already_folds_the_edition_again(
    ctx: Context, single_client: RedisClient
) -> None:
    """Games recorded in any order (a sweep late with an older game) end with the ratings
    and histories of the fold in order, as rebuild writes them."""
    for n, players in enumerate([["ann", "bob"], ["bob", "cy"], ["ann", "cy"], ["cy", "bob"]]):
        ranked_table(ctx, f"o{n}", players)
        send_to_table(ctx, f"o{n}", AbandonSeat(n % 2), {"by": "test"})
        send_to_table(ctx, f"o{n}", AbandonSeat(1 - n % 2), {"by": "test"})
    ctx.ratings.clear("2019")
    games = [game for n in (3, 1, 0, 2) for game in table_games(ctx, f"o{n}")]
    assert all(record_finished(ctx.ratings, game) for game in games)
    late = snapshot(single_client, ctx.settings.namespace)
    rebuild(ctx)
    assert snapshot(single_client, ctx.settings.namespace) == late
    assert ctx.ratings.all_ratings("2019") == replay(games)[0]


@pytest.mark.parametrize("kind", ["single", "cluster"])
def test_the_record_script_keeps_an_edition_in_one_slot(
    request: pytest.FixtureRequest, kind: str
) -> None:
    """On a cluster as on one server, a rated game is recorded at once, once."""
    client: RedisClient = request.getfixturevalue(f"{kind}_client")
    namespace = new_namespace("ratings")
    try:
        store = RatingStore(client, namespace=namespace)
        game = FinishedGame("g#1", "classic", 5, True, [
            SeatRecord(0, "p0", winner=True, tokens=4), SeatRecord(1, "p1", tokens=1)])  # fmt: skip
        assert record_finished(store, game) and not record_finished(store, game)
        assert store.ratings("classic", ["p0", "p1"]) == replay([game])[0]
        assert [p for p, _ in store.board("classic", 0, 10)] == ["p0", "p1"]
        assert store.statistics("classic", "p0")["wins"] == 1
    finally:
        delete_namespace(client, namespace)
