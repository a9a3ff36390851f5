"""A property of a table's whole life, through a real gunicorn and a real Redis: hypothesis
draws sequences of operations (create, join, leave, start, commands, forfeit, rematch, archive,
webhook set) over several tables, and opens waiters of every kind (long poll, stream by
header, stream by ticket, spectator stream and long poll) at random points. After each
operation every waiter catches up, and every event any waiter received must equal that event
as the same holder reads it from the feed then: never more. A holder whose token lost its seat
must have received nothing since, and its waiters must be closed."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import requests
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from play.archive import archive_finished
from play.context import Context
from play.settings import Settings
from tests.api.conftest import APIs
from tests.sse import EventStream

pytestmark = [pytest.mark.redis, pytest.mark.slow]

TABLES = 2
KINDS = ("create", "join", "leave", "start", "command", "command", "forfeit", "rematch",
         "archive", "webhook", "wait", "wait", "wait")  # fmt: skip
WAITERS = ("poll", "stream", "ticket", "spectator stream", "spectator poll")
CATCH_UP_SECONDS = 15.0


@dataclass
class Holder:
    """A seat's token as handed out (it may have left its seat since), or None: a spectator."""

    token: str | None
    seat: int | None = None

    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}


class Waiter:
    """A long poll (asked again and again) or a stream, in a thread, noting what it receives."""

    def __init__(self, base: str, game: str, holder: Holder, kind: str, after: int) -> None:
        self.base, self.game, self.holder, self.kind = base, game, holder, kind
        self.last = after
        self.received: list[dict[str, Any]] = []
        self.checked = 0  # how many of `received` were compared already
        self.closed = threading.Event()
        self.problem: str | None = None
        self.stream: EventStream | None = None
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            if "poll" in self.kind:
                self._poll()
            else:
                self._follow()
        except Exception as error:  # a broken connection after close() is expected
            if not self._stop.is_set():
                self.problem = f"{self.kind}: {error!r}"
        finally:
            self.closed.set()

    def _poll(self) -> None:
        while not self._stop.is_set():
            answer = requests.get(
                f"{self.base}/games/{self.game}/events?after={self.last}&wait=2&limit=5000",
                headers=self.holder.auth(),
                timeout=15,
            )
            if answer.status_code in (401, 403):
                return
            assert answer.status_code == 200, answer.text
            for event in answer.json()["events"]:
                self._note(event)

    def _follow(self) -> None:
        path = f"/games/{self.game}/stream?after={self.last}"
        headers = self.holder.auth()
        if self.kind == "ticket":
            ticket = requests.post(
                f"{self.base}/games/{self.game}/stream-tickets", headers=headers, timeout=10
            )
            if ticket.status_code != 201:
                return
            path, headers = ticket.json()["url"] + f"&after={self.last}", {}
        self.stream = EventStream(self.base, path, headers, timeout=60)
        if self.stream.status != 200:
            return
        while (message := self.stream.next()) is not None:
            if message.comment is None and message.event == "message":
                assert message.id == message.data["version"]
                self._note(message.data)

    def _note(self, event: dict[str, Any]) -> None:
        assert event["version"] == self.last + 1, (self.kind, event["version"], self.last)
        self.received.append(event)
        self.last = event["version"]

    def stop(self) -> None:
        """Hang up: a stream's socket is shut down (which wakes its reader at once)."""
        self._stop.set()
        sock = None if self.stream is None else self.stream.connection.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def join(self) -> None:
        self.thread.join(20)
        if self.stream is not None:
            self.stream.close()


@dataclass
class Table:
    """A table as the test drives it: its id and everyone handed a token there."""

    game: str
    holders: list[Holder] = field(default_factory=list)
    names: int = 0


class Life:
    """Runs operations against the API and checks every waiter after each one."""

    def __init__(self, base: str, ctx: Context) -> None:
        self.base, self.ctx = base, ctx
        self.tables: dict[int, Table] = {}
        self.waiters: list[Waiter] = []

    def url(self, table: Table, path: str = "") -> str:
        return f"{self.base}/games/{table.game}{path}"

    def run(self, kind: str, index: int, pick: int) -> None:
        table = self.tables.get(index)
        if kind == "create" or table is None:
            if table is None:
                self._create(index, pick)
            return
        holders = table.holders
        holder = holders[pick % len(holders)]
        if kind == "join":
            table.names += 1
            joined = requests.post(self.url(table, "/seats"), json={"name": f"j{table.names}"},
                                   timeout=10)  # fmt: skip
            self._expect(joined)
            if joined.status_code == 201:
                holders.append(Holder(joined.json()["token"], joined.json()["seat"]))
        elif kind == "leave":
            self._expect(requests.delete(self.url(table, f"/seats/{holder.seat}"),
                                         headers=holder.auth(), timeout=10))  # fmt: skip
        elif kind == "start":
            self._expect(requests.post(self.url(table, "/start"), headers=holder.auth(),
                                       timeout=10))  # fmt: skip
        elif kind in ("command", "forfeit"):
            self._play(table, kind, pick)
        elif kind == "rematch":
            self._expect(requests.post(self.url(table, "/rematch"), headers=holder.auth(),
                                       timeout=10))  # fmt: skip
        elif kind == "archive":
            archive_finished(self.ctx, now=time.time() + 1, older_than=0)
        elif kind == "webhook":
            url = f"http://127.0.0.1:9/hooks/secret-{pick}"
            self._expect(requests.put(self.url(table, f"/seats/{holder.seat}/webhook"),
                                      json={"url": url}, headers=holder.auth(),
                                      timeout=10))  # fmt: skip
        elif kind == "wait":
            self._wait(table, pick)

    def _create(self, index: int, pick: int) -> None:
        body = {"edition": "2019", "seats": ["human"] * (2 + pick % 2), "name": "c",
                "autostart": pick % 3 != 0}  # fmt: skip
        created = requests.post(f"{self.base}/games", json=body, timeout=10)
        assert created.status_code == 201, created.text
        host = Holder(created.json()["token"], created.json()["seat"])
        self.tables[index] = Table(created.json()["game"]["id"], [host])

    def _play(self, table: Table, kind: str, pick: int) -> None:
        for holder in table.holders:
            view = requests.get(self.url(table), headers=holder.auth(), timeout=10)
            if view.status_code != 200:
                continue
            legal = view.json()["legal"]
            if kind == "forfeit" and view.json()["game"]["status"] == "playing":
                legal = [{"type": "forfeit"}]
            if legal:
                headers = {**holder.auth(), "If-Match": view.headers["ETag"],
                           "Idempotency-Key": f"k{time.monotonic_ns()}"}  # fmt: skip
                sent = requests.post(self.url(table, "/commands"), json=legal[pick % len(legal)],
                                     headers=headers, timeout=10)  # fmt: skip
                self._expect(sent)
                return

    def _wait(self, table: Table, pick: int) -> None:
        kind = WAITERS[pick % len(WAITERS)]
        holder = Holder(None) if "spectator" in kind else table.holders[
            (pick // len(WAITERS)) % len(table.holders)]  # fmt: skip
        after = 0 if pick % 2 else self.head(table)
        self.waiters.append(Waiter(self.base, table.game, holder, kind, after))

    def head(self, table: Table) -> int:
        return int(requests.get(self.url(table), timeout=10).headers["ETag"].strip('"'))

    @staticmethod
    def _expect(answer: requests.Response) -> None:
        assert answer.status_code < 500, answer.text

    def check(self) -> None:
        """Every waiter catches up (or closes); what each received since the last check is
        the holder's feed now, event for event; a holder that may no longer read received
        nothing since."""
        heads = {table.game: self.head(table) for table in self.tables.values()}
        deadline = time.monotonic() + CATCH_UP_SECONDS
        for waiter in self.waiters:
            while waiter.last < heads[waiter.game] and not waiter.closed.is_set():
                assert time.monotonic() < deadline, f"{waiter.kind} stuck at {waiter.last}"
                time.sleep(0.01)
            assert waiter.problem is None, waiter.problem
        feeds: dict[tuple[str, str | None], dict[int, dict[str, Any]] | None] = {}
        for waiter in self.waiters:
            new = waiter.received[waiter.checked :]
            waiter.checked = len(waiter.received)
            key = (waiter.game, waiter.holder.token)
            if key not in feeds:
                answer = requests.get(f"{self.base}/games/{waiter.game}/events?after=0&limit=5000",
                                      headers=waiter.holder.auth(), timeout=10)  # fmt: skip
                assert answer.status_code in (200, 401), answer.text
                feeds[key] = None if answer.status_code == 401 else {
                    event["version"]: event for event in answer.json()["events"]}  # fmt: skip
            feed = feeds[key]
            if feed is None:  # the token left its seat: nothing since, and closed
                assert new == [], (waiter.kind, new)
                assert waiter.closed.wait(CATCH_UP_SECONDS), waiter.kind
                continue
            for event in new:
                assert event == feed[event["version"]], (waiter.kind, waiter.holder, event)

    def close(self) -> None:
        for waiter in self.waiters:
            waiter.stop()
        for waiter in self.waiters:
            waiter.join()


@pytest.fixture
def life(start_apis: APIs, redis_url: str, namespace: str, tmp_path: Path) -> tuple[str, Context]:
    archive = str(tmp_path / "archive")
    (base,) = start_apis(
        1,
        LOVELETTER_ARCHIVE_DIR=archive,
        LOVELETTER_RATE_LIMIT_SEAT="off",
        LOVELETTER_WEBHOOK_ALLOW_PRIVATE="1",
    )
    settings_ = {"REDIS_URL": redis_url, "LOVELETTER_NAMESPACE": namespace,
                 "LOVELETTER_ARCHIVE_DIR": archive}  # fmt: skip
    return base, Context.from_settings(Settings.load(settings_))


OPERATION = st.tuples(st.sampled_from(KINDS), st.integers(0, TABLES - 1), st.integers(0, 10_000))


@given(operations=st.lists(OPERATION, min_size=4, max_size=30))
@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    phases=(Phase.explicit, Phase.reuse, Phase.generate),  # a real server is too slow to shrink
)
def test_every_waiter_receives_what_its_holder_reads_never_more(
    life: tuple[str, Context], operations: list[tuple[str, int, int]]
) -> None:
    base, ctx = life
    driven = Life(base, ctx)
    try:
        for kind, index, pick in [("create", 0, 1), ("wait", 0, 3), *operations]:
            driven.run(kind, index, pick)
            driven.check()
    finally:
        driven.close()
