"""The load driver of `loveletter bench cluster`: it plays the human seats of many games over
HTTP, each game due at a time, and records every call and every acknowledged command."""

from __future__ import annotations

import heapq
import json
import random
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.client import JsonClient
from events.commands import encode_command
from service.schemas.commands import engine_command, load_command

EDITION = "2019"
BOT = "heuristic"
HUMAN = 0
POLLS = (0.5, 1.0, 2.0, 4.0)  # seconds between looks at a game whose bot is to move
RETRY_SECONDS = 1.0  # after a 503 or a lost connection, as Retry-After says


@dataclass
class Call:
    """One HTTP call of the driver: when it started (seconds into the play), how long it took,
    what it answered (0: no answer)."""

    mode: str
    kind: str  # create, command, read
    started: float
    seconds: float
    status: int


@dataclass
class Ack:
    """A 2xx answer: the game's version after the command, and the command as recorded."""

    mode: str
    game_id: str
    version: int
    command: dict[str, Any] | None  # None: the game's creation
    at: float  # seconds into the play
    completion: float  # from the first attempt to this answer


@dataclass
class Pending:
    """A command being sent, retried with the same key until it is answered."""

    body: dict[str, Any]
    recorded: dict[str, Any]
    key: str
    version: int
    first: float


@dataclass
class Game:
    """One human seat, at one game at a time (a new one begins when a game ends)."""

    mode: str
    game_id: str | None = None
    token: str = ""
    version: int = 0
    legal: list[dict[str, Any]] = field(default_factory=list)
    pending: Pending | None = None
    move: bool = False  # the seat is to act (else: look again later)
    seen: bool = False  # the seat's view was read since the game began (its legal commands)
    looks: int = 0  # looks in a row that found nothing new


class Driver:
    """Plays the human seats on threads: each game is due at a time; a thread takes the next
    due game, makes one call for it, and says when it is due again."""

    def __init__(self, bases: Mapping[str, Sequence[str]], think: float, seed: int) -> None:
        self.bases = bases
        self.think = think
        self.rng = random.Random(seed)
        self.t0 = time.monotonic()
        self.calls: list[Call] = []
        self.acks: list[Ack] = []
        self.games_started: Counter[str] = Counter()
        self.games_finished: Counter[str] = Counter()
        self.game_ids: dict[str, set[str]] = {mode: set() for mode in bases}
        self._due: list[tuple[float, int, Game]] = []
        self._count = 0
        self._lock = threading.Condition()
        self._running = True
        self._turn = 0
        self.wall0 = time.time()

    def now(self) -> float:
        """Seconds since the play began."""
        return time.monotonic() - self.t0

    def add(self, game: Game, delay: float) -> None:
        """Make `game` due in `delay` seconds."""
        with self._lock:
            self._count += 1
            heapq.heappush(self._due, (time.monotonic() + delay, self._count, game))
            self._lock.notify()

    def play(self, threads: int) -> list[threading.Thread]:
        """Start the threads (they play until `stop`)."""
        started = [
            threading.Thread(target=self._loop, name=f"driver-{n}", daemon=True)
            for n in range(threads)
        ]
        for thread in started:
            thread.start()
        return started

    def stop(self, threads: list[threading.Thread]) -> None:
        """No new call from now on; wait for the calls under way."""
        with self._lock:
            self._running = False
            self._lock.notify_all()
        for thread in threads:
            thread.join(60)

    def _loop(self) -> None:
        clients: dict[str, JsonClient] = {}
        rng = random.Random(self.rng.random())
        while True:
            with self._lock:
                while self._running and (not self._due or self._due[0][0] > time.monotonic()):
                    wait = self._due[0][0] - time.monotonic() if self._due else 1.0
                    self._lock.wait(max(min(wait, 1.0), 0.001))
                if not self._running:
                    return
                _, _, game = heapq.heappop(self._due)
            try:
                delay = self._step(game, clients, rng)
            except Exception as error:  # the driver's own bug: reported, the game starts over
                print(f"bench cluster: driver error: {error!r}", file=sys.stderr)
                game.game_id, game.pending = None, None
                delay = RETRY_SECONDS
            self.add(game, delay)

    def _client(self, clients: dict[str, JsonClient], mode: str) -> JsonClient:
        """A connection to the next API process of the mode's group (round robin)."""
        with self._lock:
            self._turn += 1
            base = self.bases[mode][self._turn % len(self.bases[mode])]
        if base not in clients:
            clients[base] = JsonClient(base, timeout=30.0)
        return clients[base]

    def _call(
        self,
        clients: dict[str, JsonClient],
        game: Game,
        kind: str,
        method: str,
        path: str,
        body: Any = None,
        headers: Mapping[str, str] | None = None,
    ) -> tuple[int, Any, float]:
        """One call (status 0 when the connection failed); its answer and when it started."""
        client = self._client(clients, game.mode)
        started = self.now()
        try:
            status, answer = client.request(method, path, body, headers)
        except (OSError, ValueError):
            client.close()
            status, answer = 0, None
        self.calls.append(Call(game.mode, kind, started, self.now() - started, status))
        return status, answer, started

    def _step(self, game: Game, clients: dict[str, JsonClient], rng: random.Random) -> float:
        """One call for the game; seconds until it is due again."""
        if game.game_id is None:
            return self._create(game, clients)
        if game.pending is not None or game.move:
            return self._send(game, clients, rng)
        return self._look(game, clients, rng)

    def _create(self, game: Game, clients: dict[str, JsonClient]) -> float:
        body = {"edition": EDITION, "seats": ["human", BOT], "name": "p0"}
        status, answer, _ = self._call(clients, game, "create", "POST", "/games", body)
        if status != 201:
            return RETRY_SECONDS
        game.game_id, game.token = answer["game"]["id"], answer["token"]
        game.version, game.legal, game.move = answer["game"]["version"], [], False
        game.seen = False  # the creation's answer has no legal commands: look at the view
        self.game_ids[game.mode].add(game.game_id)
        self.games_started[game.mode] += 1
        self.acks.append(Ack(game.mode, game.game_id, game.version, None, self.now(), 0.0))
        return 0.0

    def _look(self, game: Game, clients: dict[str, JsonClient], rng: random.Random) -> float:
        headers = {"Authorization": f"Bearer {game.token}"}
        if game.seen:  # else a 304 would hide the legal commands of a seat that acts first
            headers["If-None-Match"] = f'"{game.version}"'

        path = f"/games/{game.game_id}"
        status, answer, _ = self._call(clients, game, "read", "GET", path, None, headers)
        if status == 304:
            game.looks += 1
            return POLLS[min(game.looks, len(POLLS) - 1)]
        if status == 404:  # its creation was lost with a master: begin another
            game.game_id = None
            return 0.0
        if status != 200:
            return RETRY_SECONDS
        return self._seen(game, answer, rng)

    def _seen(self, game: Game, answer: Any, rng: random.Random) -> float:
        """Take in a view; when the game is over, begin another."""
        game.version = answer["game"]["version"]
        if answer["game"]["status"] == "over":
            self.games_finished[game.mode] += 1
            game.game_id, game.move = None, False
            return 0.0
        game.legal = answer["legal"]
        game.move, game.seen = bool(game.legal), True
        game.looks = 0
        if game.move:
            return rng.uniform(0.5, 1.5) * self.think
        return POLLS[0]

    def _send(self, game: Game, clients: dict[str, JsonClient], rng: random.Random) -> float:
        if game.pending is None:
            body = rng.choice(game.legal)
            recorded = json.loads(
                json.dumps(encode_command(engine_command(HUMAN, load_command(body))))
            )
            game.pending = Pending(body, recorded, uuid.uuid4().hex, game.version, self.now())
        pending = game.pending
        headers = {
            "Authorization": f"Bearer {game.token}",
            "If-Match": f'"{pending.version}"',
            "Idempotency-Key": pending.key,
        }
        path = f"/games/{game.game_id}/commands"
        status, answer, _ = self._call(
            clients, game, "command", "POST", path, pending.body, headers
        )
        if status in (0, 503):  # the same key again, until it is answered
            return RETRY_SECONDS
        game.pending, game.move = None, False
        if status != 200:  # 412: the game moved on (e.g. back, after a failover): look again
            return 0.0
        assert game.game_id is not None
        now = self.now()
        version = answer["game"]["version"]
        self.acks.append(
            Ack(game.mode, game.game_id, version, pending.recorded, now, now - pending.first)
        )
        return self._seen(game, answer, rng)
