"""My games through real gunicorn: a page is read from the player's index and loads only its own
games (loveletter_my_games_loads_total), pages come in order with no game twice or missing,
the status filter holds, and `loveletter rebuild` writes the same index from the events."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import requests

from events.connection import RedisClient
from events.players import MY_TURN
from game.table import AbandonSeat, Asked, Asker, LeaveSeat, OpenTable, TakeSeat
from play.context import Context
from play.lobby import open_table, send_to_table
from play.mygames import listed
from play.settings import Settings
from tests.api.conftest import APIs, api_env

LOVELETTER = str(Path(sys.executable).with_name("loveletter"))
PAGE = 7
STATUSES = ("open", "playing", "over")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def player(base: str, name: str) -> tuple[str, str]:
    """A new guest's token and id."""
    token = requests.post(f"{base}/players", json={"name": name}, timeout=10).json()["token"]
    return token, requests.get(f"{base}/players/me", headers=bearer(token), timeout=10).json()["id"]


def seat(name: str, player_id: str) -> TakeSeat:
    return TakeSeat(None, name, f"hash-{name}", player_id)


def tables(ctx: Context, ann: str, bob: str) -> tuple[list[str], str]:
    """Ann's games, made through the use cases (the real append and relay): open tables, games
    waiting on her, on a bot, games over that she left to a bot; and a table she left before
    its start (no longer hers)."""
    games = []
    for number in range(10):
        games.append(open_table(ctx, OpenTable("2019", (None, None), f"o{number}",
                                               host=seat("ann", ann)))[0])  # fmt: skip
    for number in range(20):  # even: ann plays first; odd: the bot does (no worker plays it)
        opened = OpenTable("2019", (None, "random"), f"p{number}", first_player=number % 2,
                           host=seat("ann", ann))  # fmt: skip
        games.append(open_table(ctx, opened)[0])
    for number in range(8):
        opened = OpenTable("2019", (None, None), f"x{number}", host=seat("ann", ann),
                           seated=(seat("bob", bob),))  # fmt: skip
        game_id = open_table(ctx, opened)[0]
        send_to_table(ctx, game_id, Asked(Asker(player=ann), AbandonSeat(0)))
        send_to_table(ctx, game_id, Asked(Asker(player=bob), AbandonSeat(1)))
        games.append(game_id)
    left = open_table(ctx, OpenTable("2019", (None, None), "left", host=seat("ann", ann)))[0]
    send_to_table(ctx, left, Asked(Asker(player=ann), LeaveSeat(0)))
    return games, left


def expected(ctx: Context, ann: str, games: list[str], status: str | None) -> list[str]:
    """Ann's games from their events alone: waiting on her first, then the latest moved."""
    found = []
    for game_id in games:
        game = ctx.games.load(game_id)
        assert game.table is not None
        where = listed(game.table, ann)
        if status is None or where.status == status:
            found.append((where.my_turn, game.at or 0, game_id))
    return [game_id for *_, game_id in sorted(found, reverse=True)]


def loads(base: str) -> float:
    """Games loaded by pages of my games so far (/metrics)."""
    text = requests.get(f"{base}/metrics", timeout=10).text
    name = "loveletter_my_games_loads_total"
    lines = [line for line in text.splitlines() if line.split(" ")[0] == name]
    assert lines, f"no {name} in /metrics"
    return sum(float(line.split()[-1]) for line in lines)


def all_pages(base: str, token: str, status: str | None) -> tuple[list[dict[str, Any]], int]:
    """Every page of my games (of `status`), PAGE at a time, checking each loaded only its own
    games; the games in the order given and the total."""
    query = "" if status is None else f"&status={status}"
    games: list[dict[str, Any]] = []
    while True:
        before = loads(base)
        answer = requests.get(f"{base}/players/me/games?limit={PAGE}&offset={len(games)}{query}",
                              headers=bearer(token), timeout=10)  # fmt: skip
        assert answer.status_code == 200, answer.text
        page, total = answer.json()["games"], answer.json()["total"]
        assert loads(base) - before == len(page) == min(PAGE, total - len(games))
        games += page
        if len(games) >= total:
            return games, total


def test_pages_of_my_games_load_only_their_games_in_order(
    start_apis: APIs, redis_client: RedisClient, namespace: str
) -> None:
    (base,) = start_apis(1)
    (token, ann), (_, bob) = player(base, "ann"), player(base, "bob")
    ctx = Context.on(redis_client, Settings(namespace=namespace, queue=namespace))
    games, left = tables(ctx, ann, bob)
    for status in (None, *STATUSES):
        listed_games, total = all_pages(base, token, status)
        ids = [game["id"] for game in listed_games]
        assert ids == expected(ctx, ann, games, status)  # in order, none twice, none missing
        assert total == len(ids) and left not in ids
        assert all(status in (None, game["status"]) for game in listed_games)
    every = all_pages(base, token, None)[0]
    assert [game["my_turn"] for game in every] == [True] * 10 + [False] * 28
    assert sum(game["left"] for game in every) == 8 and all(
        game["status"] == "over" for game in every if game["left"]
    )
    deep = requests.get(f"{base}/players/me/games?offset=100000", headers=bearer(token), timeout=10)
    assert deep.json() == {"games": [], "total": 38}
    too_deep = requests.get(f"{base}/players/me/games?offset=100001", headers=bearer(token),
                            timeout=10)  # fmt: skip
    assert too_deep.status_code == 422
    assert too_deep.headers["Content-Type"].startswith("application/problem+json")


def test_rebuild_writes_the_index_the_events_say(
    start_apis: APIs, redis_client: RedisClient, redis_url: str, namespace: str
) -> None:
    (base,) = start_apis(1)
    (token, ann), (_, bob) = player(base, "ann"), player(base, "bob")
    ctx = Context.on(redis_client, Settings(namespace=namespace, queue=namespace))
    games, left = tables(ctx, ann, bob)
    index = ctx.my_games
    written = {status: index.scores(ann, status) for status in (None, *STATUSES)}
    for game_id in games:  # what each append wrote is what the events say
        game = ctx.games.load(game_id)
        assert game.table is not None
        where = listed(game.table, ann)
        assert written[None][game_id] == (game.at or 0) + (MY_TURN if where.my_turn else 0)
        assert {s for s in STATUSES if game_id in written[s]} == {where.status}
    redis_client.delete(index.key(ann), index.key(ann, "playing"))  # lost, as before the index
    redis_client.zadd(index.key(ann, "open"), {left: 1, games[-1]: 2})  # and strays
    redis_client.zadd(index.key(bob, "over"), {games[0]: 3})
    rebuilt = subprocess.run([LOVELETTER, "rebuild"], env=api_env(redis_url, namespace),
                             capture_output=True, text=True, timeout=120)  # fmt: skip
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert "my games: " in rebuilt.stdout
    assert {status: index.scores(ann, status) for status in (None, *STATUSES)} == written
    assert games[0] not in index.scores(bob, "over")
    assert [game["id"] for game in all_pages(base, token, None)[0]] == expected(
        ctx, ann, games, None
    )
