"""The game driver of `loveletter bench api`: 2-player human-vs-human games played over HTTP.

Each timed call is one real command (`POST /games/{id}/commands`) of whichever seat must act.
The driver holds both seats and chooses each game's seed, so it can play the game with the rules
engine beforehand: a script of legal commands, each with the version and the `legal` list the
server must answer with. Every answer is checked against it. Like a database benchmark that
loads its data first, the driver sets up its games before the clock starts (create, join, one
GET that checks the opening); should they run out, `prepare` sets up another inside the
measured window, untimed, and the harness counts those requests.
"""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass
from typing import Any

import orjson

from bench.client import JsonClient
from game.legal import legal_commands
from game.table import OpenTable, Table, TakeSeat, step
from service.schemas.commands import wire_command

EDITION = "2019"
NAMES = ("p0", "p1")
STAND_IN_HASH = "-"  # the scripts' seats: their real tokens come from the server
GAMES_READY = 32  # games set up before the clock starts; more are set up if a driver runs out


@dataclass(frozen=True)
class Move:
    """One scripted command: who sends it, its JSON, and what the answer must show."""

    seat: int
    body: bytes
    version: int  # the game's version once the command's events are appended
    legal: list[dict[str, Any]]  # the sender's legal commands then ([] if the other acts next)


@dataclass(frozen=True)
class Ready:
    """A game set up on the server and waiting for its first command."""

    game_id: str
    tokens: dict[int, str]
    version: int
    moves: tuple[Move, ...]


@dataclass(frozen=True)
class Script:
    """A whole game played by the rules engine from a seed: its opening and every move."""

    seed: str
    version: int  # after create and join
    first_seat: int
    first_legal: list[dict[str, Any]]
    moves: tuple[Move, ...]


class GameDriver:
    """One simulated client: plays one game at a time, both seats, one command per call."""

    def __init__(
        self,
        base_url: str,
        edition: str = EDITION,
        seed: int | None = None,
        ready: int = GAMES_READY,
    ) -> None:
        self.client = JsonClient(base_url)
        self.edition = edition
        self.rng = random.Random(seed)
        self.prefix = uuid.uuid4().hex[:12]
        self.sent = 0
        self.games_started = 0
        self.game_id = ""
        self.tokens: dict[int, str] = {}
        self.version = 0
        self.moves: list[Move] = []  # what is left of the game being played, in reverse
        self.ready = [self._set_up(self._script()) for _ in range(ready)]

    def prepare(self) -> int:
        """Begin the next game if there is none being played; the number of requests sent
        (0 when a game set up beforehand is left)."""
        if self.moves:
            return 0
        if self.ready:
            self._begin(self.ready.pop())
            return 0
        self._begin(self._set_up(self._script()))
        return 3

    def reconnect(self) -> None:
        """Send the next request on a new connection."""
        self.client.close()

    def __call__(self) -> None:
        """Send the next scripted command; check the answer against the script."""
        if not self.moves:
            raise RuntimeError("no game being played: call prepare() first")
        move = self.moves.pop()
        self.sent += 1
        headers = {
            "Authorization": f"Bearer {self.tokens[move.seat]}",
            "If-Match": f'"{self.version}"',
            "Idempotency-Key": f"{self.prefix}-{self.sent}",
        }
        status, body = self.client.post(f"/games/{self.game_id}/commands", move.body, headers)
        if status != 200:
            self.moves.clear()  # the game left the script: start another
            raise RuntimeError(f"command answered {status}: {body}")
        self._check(body, move.version, move.legal)
        self.version = move.version

    def _script(self) -> Script:
        """Play a new game with the rules engine: random legal commands to its end."""
        seed = f"bench-{self.rng.getrandbits(64):016x}"
        table, opening = mirror(self.edition, seed)
        version = opening
        assert table.game is not None and table.game.current is not None
        first_seat = table.game.current
        first_legal = [wire_command(command) for command in legal_commands(table.game)]
        moves = []
        while table.status == "playing":
            assert table.game is not None and table.game.current is not None
            seat = table.game.current
            command = self.rng.choice(legal_commands(table.game))
            events, table = step(table, command)
            version += len(events)
            game = table.game
            legal = []
            if table.status == "playing" and game is not None and game.current == seat:
                legal = [wire_command(next_command) for next_command in legal_commands(game)]
            moves.append(Move(seat, orjson.dumps(wire_command(command)), version, legal))
        return Script(seed, opening, first_seat, first_legal, tuple(moves))

    def _set_up(self, script: Script) -> Ready:
        """Create the script's game, take the second seat, and check the opening view."""
        create = {
            "edition": self.edition,
            "seats": ["human", "human"],
            "name": NAMES[0],
            "seed": script.seed,
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
        auth = {"Authorization": f"Bearer {tokens[script.first_seat]}"}
        status, seen = self.client.get(f"/games/{game_id}", auth)
        if status != 200:
            raise RuntimeError(f"view answered {status}: {seen}")
        self._check(seen, script.version, script.first_legal)
        return Ready(game_id, tokens, script.version, script.moves)

    def _begin(self, game: Ready) -> None:
        """Play `game` from now on."""
        self.game_id, self.tokens, self.version = game.game_id, game.tokens, game.version
        self.moves = list(reversed(game.moves))
        self.games_started += 1

    @staticmethod
    def _check(body: Any, version: int, legal: list[dict[str, Any]]) -> None:
        """The server's answer agrees with the script: same version, same legal list."""
        if body["game"]["version"] != version or body["legal"] != legal:
            raise RuntimeError(
                f"the server's game (v{body['game']['version']}) left the script (v{version})"
            )


def mirror(edition: str, seed: str) -> tuple[Table, int]:
    """The table as the server builds it from our create and join requests, and its version.

    Seat tokens are the server's; the game does not depend on them, so the script's seats
    carry a stand-in.
    """
    commands: list[OpenTable | TakeSeat] = [
        OpenTable(
            edition, (None, None), seed, on_timeout="bot", autostart=True,
            host=TakeSeat(0, NAMES[0], STAND_IN_HASH),
        ),
        TakeSeat(None, NAMES[1], STAND_IN_HASH),
    ]  # fmt: skip
    table: Table | None = None
    version = 0
    for command in commands:
        events, table = step(table, command)
        version += len(events)
    assert table is not None
    return table, version


def make_game_driver(base_url: str) -> GameDriver:
    """One simulated client of the real app (its games are set up and the first begun here)."""
    driver = GameDriver(base_url)
    driver.prepare()
    return driver
