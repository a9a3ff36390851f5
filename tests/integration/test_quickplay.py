"""The quick-play queue on a real Redis (single and cluster): one match per entry whatever runs
the script, cancels against matches, players gone, a match whose process died opened by the
sweep, and bots filling a table by a real worker's sweep, with no request."""

from __future__ import annotations

import random
import secrets
import threading
import time

from events.connection import RedisClient
from events.players import Player
from events.queue import Entry, QuickPlayQueue
from play.context import Context
from play.quickplay import enter, entry_json, sweep_queue
from tests.integration.workers import start_worker


def entry(player: str, seats: tuple[int, ...] = (2,), **fields: object) -> Entry:
    now = int(time.time() * 1000)
    values: dict[str, object] = {
        "id": secrets.token_urlsafe(12), "player": player, "edition": "2019", "ranked": False,
        "seats": seats, "bots_after_ms": None, "bot": "medium", "rating": 0.0, "at_ms": now,
        "seen_ms": now, "state": "waiting", "secret": "s", **fields,
    }  # fmt: skip
    return Entry(**values)  # type: ignore[arg-type]


def test_concurrent_match_attempts_match_each_entry_once(
    client: RedisClient, namespace: str
) -> None:
    queue = QuickPlayQueue(client, namespace=namespace)
    rng = random.Random(7)
    entries = []
    for n in range(120):
        seats = tuple(sorted(rng.sample([2, 3, 4, 5], rng.randint(1, 3))))
        made = entry(f"p{n}", seats)
        assert queue.enter(made) == (True, made.id)
        entries.append(made)
    matches = []

    def attempt() -> None:
        for _ in range(40):
            found = queue.match("2019:0", secrets.token_hex(8), int(time.time() * 1000))
            if found is not None:
                matches.append(found)

    threads = [threading.Thread(target=attempt) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seated = [entry_id for match in matches for entry_id in match.entries]
    assert len(seated) == len(set(seated)) and len(seated) >= 100
    states = {made.id: queue.get(made.id) for made in entries}
    for match in matches:
        assert len(match.entries) == match.seats  # people only: every seat a person
        for seat, entry_id in enumerate(match.entries):
            found = states[entry_id]
            assert found is not None and found.state == "matched"
            assert (found.game, found.seat) == (match.game, seat)
            assert match.seats in found.seats
    waiting = [made for made in entries if states[made.id].state == "waiting"]  # type: ignore[union-attr]
    assert len(waiting) + len(seated) == len(entries)
    assert queue.waiting("2019:0") == len(waiting)


def test_a_cancel_and_a_match_racing_leave_the_entry_one_or_the_other(
    client: RedisClient, namespace: str
) -> None:
    queue = QuickPlayQueue(client, namespace=namespace)
    outcomes = set()
    for n in range(40):
        ann, bob = entry(f"ann{n}"), entry(f"bob{n}")
        queue.enter(ann)
        queue.enter(bob)
        found: list[object] = []

        def cancel(made: Entry = ann, found: list[object] = found) -> None:
            found.append(queue.cancel(made))

        def match(game: str = f"g{n}", found: list[object] = found) -> None:
            found.append(queue.match("2019:0", game, int(time.time() * 1000)))

        threads = [threading.Thread(target=cancel), threading.Thread(target=match)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        state = queue.get(ann.id).state  # type: ignore[union-attr]
        match = next(item for item in found if not isinstance(item, str))
        outcomes.add(state)
        if state == "cancelled":
            assert match is None and queue.get(bob.id).state == "waiting"  # type: ignore[union-attr]
            queue.cancel(bob)
        else:
            assert (
                state == "matched" and match is not None and set(match.entries) == {ann.id, bob.id}
            )
    assert outcomes <= {"cancelled", "matched"}


def test_players_gone_are_dropped_and_may_come_back(client: RedisClient, namespace: str) -> None:
    queue = QuickPlayQueue(client, namespace=namespace, gone_ms=1000)
    old = int(time.time() * 1000) - 5000
    gone = entry("ann", seen_ms=old, at_ms=old)
    queue.enter(gone)
    here = entry("bob", seen_ms=old, at_ms=old)
    queue.enter(here)
    assert queue.touch_player("bob", int(time.time() * 1000))  # bob's inbox stream is open
    assert queue.match("2019:0", "g1", int(time.time() * 1000)) is None
    assert queue.get(gone.id).state == "dropped"  # type: ignore[union-attr]
    assert queue.get(here.id).state == "waiting"  # type: ignore[union-attr]
    again = entry("ann")
    assert queue.enter(again) == (True, again.id)
    match = queue.match("2019:0", "g2", int(time.time() * 1000))
    assert match is not None and set(match.entries) == {here.id, again.id}


def guest(ctx: Context, name: str) -> str:
    player = secrets.token_hex(10)
    ctx.players.create(Player(player, name, "guest", time.time()))
    return player


def test_a_match_whose_process_died_before_the_table_opened_is_opened_by_the_sweep(
    ctx: Context,
) -> None:
    ann, bob = guest(ctx, "ann"), guest(ctx, "bob")
    first = enter(ctx, ann, "classic", [2])
    queue = ctx.quickplay
    made = entry(bob, edition="classic", secret="t")
    queue.enter(made)
    match = queue.match("classic:0", "deadbeefdeadbeef", int(time.time() * 1000))  # then died
    assert match is not None
    assert entry_json(queue.get(first.id))["state"] == "waiting"  # type: ignore[arg-type]
    assert queue.overdue(int(time.time() * 1000)) == []
    assert sweep_queue(ctx, time.time() + 6) == 1
    assert sweep_queue(ctx, time.time() + 6) == 0  # once
    shown = entry_json(queue.get(made.id))  # type: ignore[arg-type]
    assert shown["state"] == "matched" and shown["game"] == "deadbeefdeadbeef"
    table = ctx.games.load("deadbeefdeadbeef").table
    assert table is not None and table.status == "playing"
    assert {seat.player for seat in table.seats} == {ann, bob}
    inbox = [e.data for e in ctx.players.inbox(bob) if e.data["type"] == "matched"]
    assert [e["game"] for e in inbox] == ["deadbeefdeadbeef"]


def test_bots_fill_the_table_by_a_workers_sweep_with_no_request(
    ctx: Context, redis_url: str
) -> None:
    ann = guest(ctx, "ann")
    waiting = enter(ctx, ann, "2019", [2, 3], bots_after=1, bot="easy")
    assert waiting.state == "waiting"
    worker = start_worker(redis_url, ctx)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            found = ctx.quickplay.get(waiting.id)
            assert found is not None
            if found.opened is not None:
                break
            ctx.quickplay.touch(waiting.id, int(time.time() * 1000))
            time.sleep(0.2)
        assert found.state == "matched" and found.game is not None
        table = ctx.games.load(found.game).table
        assert table is not None and [seat.bot for seat in table.seats] == [None, "easy"]
        assert table.seats[0].player == ann and table.status == "playing"
    finally:
        worker.stop()
