"""The game driver of `loveletter bench api`: 2-player human-vs-human games played over HTTP.

Each timed call is one real command (`POST /games/{id}/commands`) of whichever seat must act.
The driver holds both seats and, having chosen the game's seed, mirrors the game with the rules
engine: it knows the acting seat's legal commands without a GET (a command's answer is the
sender's view, whose `legal` is empty when the other seat acts next), and checks every answer
against the mirror. Starting a game (create, join, one GET that checks the mirror) is the
untimed `prepare` step; the harness counts its requests.
"""

from __future__ import annotations

import random
import uuid
from typing import Any

from game import table as tables
from game.legal import legal_commands
from game.table import OpenTable, Table, TakeSeat
from service.auth import token_hash
from service.bench_client import JsonClient
from service.tables import command_json

EDITION = "2019"
NAMES = ("p0", "p1")


class GameDriver:
    """One simulated client: plays one game at a time, both seats, one command per call."""

    def __init__(self, base_url: str, edition: str = EDITION, seed: int | None = None) -> None:
        self.client = JsonClient(base_url)
        self.edition = edition
        self.rng = random.Random(seed)
        self.prefix = uuid.uuid4().hex[:12]
        self.sent = 0
        self.games_started = 0
        self.game_id = ""
        self.tokens: dict[int, str] = {}
        self.table: Table | None = None  # the mirror; None: start a new game first
        self.version = 0

    def prepare(self) -> int:
        """Start a new game if there is none being played; the number of requests sent."""
        if self.table is not None and self.table.status == "playing":
            return 0
        self.table = None
        self._start()
        return 3

    def __call__(self) -> None:
        """Send one legal command of the seat that must act; check the answer against the mirror."""
        table = self.table
        if table is None or table.game is None or table.status != "playing":
            raise RuntimeError("no game being played: call prepare() first")
        seat = table.game.current
        assert seat is not None
        command = self.rng.choice(legal_commands(table.game))
        self.sent += 1
        headers = {
            "Authorization": f"Bearer {self.tokens[seat]}",
            "If-Match": f'"{self.version}"',
            "Idempotency-Key": f"{self.prefix}-{self.sent}",
        }
        self.table = None  # until the answer is checked
        status, body = self.client.post(
            f"/games/{self.game_id}/commands", command_json(command), headers
        )
        if status != 200:
            raise RuntimeError(f"command answered {status}: {body}")
        events = tables.decide(table, command)
        for event in events:
            table = tables.evolve(table, event)
        self._check(body, table, self.version + len(events), seat)
        self.table, self.version = table, self.version + len(events)

    def _start(self) -> None:
        """Create a game with a seed of ours, take the second seat, and check the mirror."""
        seed = f"bench-{self.rng.getrandbits(64):016x}"
        create = {
            "edition": self.edition,
            "seats": ["human", "human"],
            "name": NAMES[0],
            "seed": seed,
            "on_timeout": "bot",
            "autostart": True,
        }
        status, created = self.client.post("/games", create)
        if status != 201:
            raise RuntimeError(f"create answered {status}: {created}")
        game_id: str = created["game"]["id"]
        status, joined = self.client.post(f"/games/{game_id}/seats", {"name": NAMES[1]})
        if status != 201:
            raise RuntimeError(f"join answered {status}: {joined}")
        tokens = {created["seat"]: created["token"], joined["seat"]: joined["token"]}
        table, version = mirror(self.edition, seed, tokens)
        assert table.game is not None and table.game.current is not None
        current = table.game.current
        auth = {"Authorization": f"Bearer {tokens[current]}"}
        status, seen = self.client.get(f"/games/{game_id}", auth)
        if status != 200:
            raise RuntimeError(f"view answered {status}: {seen}")
        self._check(seen, table, version, current)
        self.game_id, self.tokens, self.table, self.version = game_id, tokens, table, version
        self.games_started += 1

    @staticmethod
    def _check(body: Any, table: Table, version: int, seat: int) -> None:
        """The server's view of `seat` agrees with the mirror: same version, same legal list."""
        state = table.game
        expected = []
        if state is not None and state.current == seat:
            expected = [command_json(command) for command in legal_commands(state)]
        if body["game"]["version"] != version or body["legal"] != expected:
            raise RuntimeError(
                f"the server's game (v{body['game']['version']}) left the mirror (v{version})"
            )


def mirror(edition: str, seed: str, tokens: dict[int, str]) -> tuple[Table, int]:
    """The table as the server built it from our create and join requests, and its version."""
    host = TakeSeat(0, NAMES[0], token_hash(tokens[0]))
    commands: list[OpenTable | TakeSeat] = [
        OpenTable(edition, (None, None), seed, on_timeout="bot", autostart=True, host=host),
        TakeSeat(None, NAMES[1], token_hash(tokens[1])),
    ]
    table: Table | None = None
    version = 0
    for command in commands:
        for event in tables.decide(table, command):
            table = tables.evolve(table, event)
            version += 1
    assert table is not None
    return table, version


def make_game_driver(base_url: str) -> GameDriver:
    """One simulated client of the real app (its first game is started here, untimed)."""
    driver = GameDriver(base_url)
    driver.prepare()
    return driver
