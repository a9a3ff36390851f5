"""Nothing leaks at the joints of a game's life, through real gunicorn and real Redis: a rematch
seen by a waiter of the finished game, a seat left and taken again under an open stream and its
ticket, webhook URLs once the game is over, keys of archived games, repeated joins, creations
and rematches, reads and waiters per address, and the archive's cache."""

from __future__ import annotations

import gzip
import hashlib
import os
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
import requests

from events.archive import DirectoryArchive
from events.connection import RedisClient
from events.store import DROP_SCRIPT
from play.archive import archive_finished
from play.context import Context
from play.settings import Settings
from tests.api.conftest import APIs
from tests.api.players import two_humans
from tests.sse import EventStream
from tests.waits import wait_for_waiters, wait_until

pytestmark = [pytest.mark.redis, pytest.mark.slow]

AUDITOR = "audit-secret"
HIDDEN_URL = "http://192.0.0.9/hooks/s3cr3t-path"  # globally reachable; nobody answers there


class Holder:
    """Someone holding a seat's token (or none: a spectator) of one game."""

    def __init__(self, base: str, game: str, token: str | None) -> None:
        self.base, self.game, self.token = base, game, token
        self.keys = 0

    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def get(self, path: str, **options: Any) -> requests.Response:
        url = f"{self.base}/games/{self.game}{path}"
        return requests.get(url, headers=self.auth(), timeout=options.pop("timeout", 10))

    def post(self, path: str, body: Any = None, **headers: str) -> requests.Response:
        url = f"{self.base}/games/{self.game}{path}"
        return requests.post(url, json=body, headers={**self.auth(), **headers}, timeout=10)

    def version(self) -> int:
        return int(self.get("").headers["ETag"].strip('"'))

    def feed(self, after: int = 0) -> list[dict[str, Any]]:
        answer = self.get(f"/events?after={after}&limit=5000")
        assert answer.status_code == 200, answer.text
        events: list[dict[str, Any]] = answer.json()["events"]
        return events

    def send(self, command: dict[str, Any], key: str | None = None) -> requests.Response:
        self.keys += 1
        return self.post(
            "/commands",
            command,
            **{"If-Match": str(self.version()), "Idempotency-Key": key or f"k-{self.keys}"},
        )

    def stream(self, path: str = "") -> EventStream:
        return EventStream(self.base, f"/games/{self.game}/stream{path}", self.auth())


def finished_game(base: str) -> tuple[Holder, Holder]:
    """A 2019 game of two humans that seat 0 forfeited: over."""
    game, tokens = two_humans(base, "2019")
    ann, bob = Holder(base, game, tokens[0]), Holder(base, game, tokens[1])
    assert ann.send({"type": "forfeit"}).status_code == 200
    assert ann.get("").json()["game"]["status"] == "over"
    return ann, bob


@pytest.fixture
def api(start_apis: APIs, tmp_path: Path) -> str:
    """One API process with an archive folder and an auditor."""
    (base,) = start_apis(
        1,
        LOVELETTER_ARCHIVE_DIR=str(tmp_path / "archive"),
        LOVELETTER_AUDITOR_TOKEN=AUDITOR,
        LOVELETTER_RATE_LIMIT_SEAT="off",
    )
    return base


def test_a_long_poll_on_a_finished_game_sees_the_rematch_as_its_seat(api: str) -> None:
    """Finding 1: seat 0 long-polls its finished game; seat 1 asks for a rematch. The answer
    hides the rematch's seed and the other hand, exactly as the feed shows it afterwards."""
    ann, bob = finished_game(api)
    head = ann.version()
    answers: list[tuple[requests.Response, float]] = []

    def poll() -> None:
        started = time.monotonic()
        answer = ann.get(f"/events?after={head}&wait=20", timeout=30)
        answers.append((answer, time.monotonic() - started))

    polling = threading.Thread(target=poll)
    polling.start()
    wait_for_waiters(api, 1)  # the poll waits: the rematch wakes it
    assert bob.post("/rematch").status_code == 200
    polling.join(30)
    assert answers, "the long poll did not answer within 30 s"
    ((answer, waited),) = answers
    assert waited < 10  # woken by the rematch, not at the end of its 20 s wait
    assert answer.status_code == 200, answer.text
    events = answer.json()["events"]
    started = next(event for event in events if event["type"] == "game_started")
    dealt = next(event for event in events if event["type"] == "round_started")
    assert started["seed"] is None
    assert dealt["hands"][1] is None and dealt["hands"][0] is not None
    assert dealt["deck"] == [None] * len(dealt["deck"]) and dealt["set_aside"] is None
    assert events == ann.feed(after=head)[: len(events)]


def test_a_seat_left_takes_its_streams_and_tickets_with_it(api: str) -> None:
    """Finding 2: a player takes a seat, a ticket, opens streams (by header and by ticket),
    and leaves; someone else takes the seat and the game starts. The first player's streams
    end without a single event from the leave on, and its ticket opens nothing."""
    body = {"edition": "2019", "seats": ["human", "human"], "name": "cy", "autostart": False}
    created = requests.post(f"{api}/games", json=body, timeout=10).json()
    game = created["game"]["id"]
    host = Holder(api, game, created["token"])
    joined = requests.post(f"{api}/games/{game}/seats", json={"name": "ann"}, timeout=10).json()
    ann = Holder(api, game, joined["token"])
    ticket = ann.post("/stream-tickets").json()["url"]
    left_at = ann.version() + 1
    header_stream = ann.stream("?after=0")
    ticket_stream = EventStream(api, ticket)
    try:
        for stream in (header_stream, ticket_stream):
            assert [m.id for m in stream.events(left_at - 1)] == list(range(1, left_at))
        leave = requests.delete(f"{api}/games/{game}/seats/1", headers=ann.auth(), timeout=10)
        assert leave.status_code == 204
        bob = requests.post(f"{api}/games/{game}/seats", json={"name": "bob"}, timeout=10)
        assert bob.status_code == 201 and bob.json()["seat"] == 1
        assert host.post("/start").status_code == 200
        for stream in (header_stream, ticket_stream):
            rest = []
            while (message := stream.next()) is not None:
                rest.append(message)
            assert [m for m in rest if m.comment is None] == []  # closed, nothing after
    finally:
        header_stream.close()
        ticket_stream.close()
    assert requests.get(api + ticket, timeout=10).status_code == 401
    assert ann.get("/stream").status_code == 401
    assert ann.get("/events?after=0").status_code == 401


def test_webhook_urls_are_shown_to_their_seat_only_even_after_the_game(api: str) -> None:
    """Finding 4: once the game is over, seat 1, a spectator and the auditor see seat 0's
    webhook event without its URL; seat 0 sees its own."""
    game, tokens = two_humans(api, "2019")
    ann, bob = Holder(api, game, tokens[0]), Holder(api, game, tokens[1])
    put = requests.put(
        f"{api}/games/{game}/seats/0/webhook", json={"url": HIDDEN_URL}, headers=ann.auth(),
        timeout=10,
    )  # fmt: skip
    assert put.status_code == 200, put.text
    assert ann.send({"type": "forfeit"}).status_code == 200

    def webhook_urls(holder: Holder) -> list[Any]:
        return [e["url"] for e in holder.feed() if e["type"] == "webhook_set"]

    assert webhook_urls(ann) == [HIDDEN_URL]
    for other in (bob, Holder(api, game, None), Holder(api, game, AUDITOR)):
        assert webhook_urls(other) == [None]
        assert HIDDEN_URL not in other.get("/events?after=0").text


def test_a_command_sent_again_after_archiving_gets_its_first_answer(
    api: str, redis_url: str, namespace: str, tmp_path: Path
) -> None:
    """Finding 5: the forfeit's answer was lost; the game is archived; the very same request
    gets the first answer (status, body, ETag), not a 412 or 409."""
    game, tokens = two_humans(api, "2019")
    ann = Holder(api, game, tokens[0])
    version = ann.version()
    headers = {"If-Match": str(version), "Idempotency-Key": "forfeit-1"}
    first = ann.post("/commands", {"type": "forfeit"}, **headers)
    assert first.status_code == 200, first.text
    ctx = Context.from_settings(
        Settings.load(
            {
                "REDIS_URL": redis_url,
                "LOVELETTER_NAMESPACE": namespace,
                "LOVELETTER_ARCHIVE_DIR": str(tmp_path / "archive"),
            }
        )
    )
    assert archive_finished(ctx, now=time.time() + 1, older_than=0).archived == 1
    again = ann.post("/commands", {"type": "forfeit"}, **headers)
    assert again.status_code == 200, again.text
    assert again.json() == first.json() and again.headers["ETag"] == first.headers["ETag"]
    other = ann.post("/commands", {"type": "forfeit"}, **{**headers, "Idempotency-Key": "x"})
    assert other.status_code == 412  # a new key is a new request, decided on a stale version


def test_join_create_and_rematch_are_idempotent(api: str) -> None:
    """Finding 6: a join, a creation and a rematch whose answers were lost, sent again with
    the same key and request, get their first answer; another request with the key is 422."""
    key = str(uuid.uuid4())
    body = {"edition": "2019", "seats": ["human", "human"], "name": "ann"}
    created = [
        requests.post(f"{api}/games", json=body, headers={"Idempotency-Key": key}, timeout=10)
        for _ in range(2)
    ]
    assert [answer.status_code for answer in created] == [201, 201], created[1].text
    assert created[0].json() == created[1].json()
    game = created[0].json()["game"]["id"]
    reused = requests.post(
        f"{api}/games", json={**body, "name": "cy"}, headers={"Idempotency-Key": key}, timeout=10
    )
    assert reused.status_code == 422 and reused.json()["type"].endswith("/idempotency-key-reused")

    join_key = str(uuid.uuid4())
    url, headers = f"{api}/games/{game}/seats", {"Idempotency-Key": join_key}
    joins = [requests.post(url, json={"name": "bob"}, headers=headers, timeout=10) for _ in "ab"]
    assert [answer.status_code for answer in joins] == [201, 201], joins[1].text
    assert joins[0].json() == joins[1].json()
    bob = Holder(api, game, joins[1].json()["token"])
    assert bob.get("").json()["view"]["you"] == 1  # the token answered again is the seat's
    short = requests.post(f"{api}/games/{game}/seats", json={"name": "cy"},
                          headers={"Idempotency-Key": "short"}, timeout=10)  # fmt: skip
    assert short.status_code == 400

    assert bob.send({"type": "forfeit"}).status_code in (200, 409)
    ann = Holder(api, game, created[0].json()["token"])
    if ann.get("").json()["game"]["status"] != "over":
        assert ann.send({"type": "forfeit"}).status_code == 200
    rematches = [bob.post("/rematch", None, **{"Idempotency-Key": "again-1"}) for _ in range(2)]
    assert [answer.status_code for answer in rematches] == [200, 200], rematches[1].text
    assert rematches[0].json() == rematches[1].json()
    assert rematches[0].headers["ETag"] == rematches[1].headers["ETag"]


def test_reads_and_waiters_are_limited_per_address(
    start_apis: APIs, redis_client: RedisClient, namespace: str
) -> None:
    """Finding 7: views, feeds, replays and streams count in a bucket of their own; open
    streams and long polls are capped per address, across API processes."""
    first, second = start_apis(
        2, LOVELETTER_RATE_LIMIT_READS="8/minute", LOVELETTER_WAITERS_PER_ADDRESS="2"
    )
    game, tokens = two_humans(first, "2019")
    ann = Holder(first, game, tokens[0])
    with ann.stream("?after=0"), Holder(second, game, None).stream("?after=0"):
        refused = Holder(second, game, None).get("/events?after=0&wait=1")
        assert refused.status_code == 429, refused.text
        assert refused.json()["type"].endswith("/too-many-waiters")
    places = f"{namespace}:ratelimit:waiters:127.0.0.1"
    wait_until(lambda: redis_client.zcard(places) == 0, "the streams to give their places up")
    statuses = [ann.get(path).status_code for path in ("", "/events", "/versions/1") * 3]
    assert 429 in statuses and statuses[: statuses.index(429)] == [200] * (8 - 3)
    lobby = requests.get(f"{first}/games", timeout=10)
    assert lobby.status_code == 200  # the lobby listing has its own bucket too


def test_an_archived_game_is_decompressed_once_for_many_reads(
    api: str, redis_url: str, namespace: str, tmp_path: Path
) -> None:
    """Finding 7: reads of an archived game come from a small cache: once read, its file
    swapped for a broken one of the same size and time changes no answer."""
    ann, _ = finished_game(api)
    ctx = Context.from_settings(
        Settings.load(
            {
                "REDIS_URL": redis_url,
                "LOVELETTER_NAMESPACE": namespace,
                "LOVELETTER_ARCHIVE_DIR": str(tmp_path / "archive"),
            }
        )
    )
    assert archive_finished(ctx, now=time.time() + 1, older_than=0).archived == 1
    assert ctx.games.archive is not None
    path = Path(ctx.games.archive.path(ann.game))  # type: ignore[attr-defined]
    before = [ann.get(p).json() for p in ("", "/events?after=0", "/versions/3")]
    stat = path.stat()
    broken = b"\0" * stat.st_size  # not gzip: reading it again would fail
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, broken)
    finally:
        os.close(fd)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    with pytest.raises(OSError):
        gzip.decompress(path.read_bytes())
    for _ in range(3):
        assert [ann.get(p).json() for p in ("", "/events?after=0", "/versions/3")] == before


def test_the_archive_is_durable_before_the_game_leaves_redis(
    api: str, redis_url: str, namespace: str, tmp_path: Path
) -> None:
    """Finding 9: `loveletter archive` run under strace: the file, its folder, and every folder
    made for it (each synced in its parent) are fsynced before the script that drops the game's
    keys is sent to Redis."""
    ann, _ = finished_game(api)
    folder = tmp_path / "archive"  # the API's archive, which does not exist yet
    assert not folder.exists()
    log = tmp_path / "strace.log"
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "LOVELETTER_NAMESPACE": namespace,
        "LOVELETTER_ARCHIVE_DIR": str(folder),
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
    }
    command = [
        "strace", "-f", "-y", "-s", "200", "-o", str(log), "-e", "trace=fsync,sendto,write",
        sys.executable, "-c", "import sys; from service.cli import main; sys.exit(main())",
        "archive", "--older-than", "0",
    ]  # fmt: skip
    done = subprocess.run(command, env=env, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    lines = log.read_text().splitlines()
    drop_sha = hashlib.sha1(DROP_SCRIPT.encode()).hexdigest()
    dropped = next(i for i, line in enumerate(lines) if drop_sha in line and "EVALSHA" in line)
    synced = [line for line in lines[:dropped] if "fsync(" in line]
    shard = Path(DirectoryArchive(folder).path(ann.game)).parent
    for path in (folder.parent, folder, shard):  # each new folder's parent, and the file's
        assert any(f"<{path}>" in line for line in synced), (path, synced)
    assert any(".part>" in line for line in synced)  # the file itself, before its rename
    assert ann.get("").status_code == 200  # and it is served from the archive
