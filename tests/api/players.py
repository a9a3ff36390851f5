"""Drive games through the HTTP API in tests: a player holds a seat's token."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import requests
from flask.testing import FlaskClient
from werkzeug.test import TestResponse


@dataclass
class Player:
    """One seat of one game, talking to the API with its token."""

    client: FlaskClient
    game: str
    token: str | None
    seat: int | None = None
    keys: int = field(default=0)

    def auth(self) -> dict[str, str]:
        """The Authorization header of this seat (none for a spectator)."""
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def look(self) -> TestResponse:
        """GET the game as this seat sees it."""
        return self.client.get(f"/games/{self.game}", headers=self.auth())

    def send(self, command: dict[str, Any], version: int | str | None = None) -> TestResponse:
        """POST a command decided on `version` (default: the version seen now)."""
        if version is None:
            version = self.look().headers["ETag"]
        self.keys += 1
        headers = {**self.auth(), "If-Match": str(version), "Idempotency-Key": f"k-{self.keys}"}
        return self.client.post(f"/games/{self.game}/commands", json=command, headers=headers)

    def feed(self, after: int = 0, wait: float = 0) -> TestResponse:
        """GET the event feed as this seat sees it."""
        query = f"after={after}&wait={wait}"
        return self.client.get(f"/games/{self.game}/events?{query}", headers=self.auth())


def new_game(
    client: FlaskClient, edition: str, seats: list[str], **settings: Any
) -> tuple[str, list[Player]]:
    """Create a game and fill every human seat; the players in seat order (bots: None)."""
    created = client.post(
        "/games", json={"edition": edition, "seats": seats, "name": "p0", **settings}
    )
    assert created.status_code == 201, created.json
    game = created.json["game"]["id"]
    players: list[Player | None] = [None] * len(seats)
    first = created.json["seat"]
    players[first] = Player(client, game, created.json["token"], first)
    for index, kind in enumerate(seats):
        if kind == "human" and players[index] is None:
            joined = client.post(f"/games/{game}/seats", json={"name": f"p{index}"})
            assert joined.status_code == 201, joined.json
            players[index] = Player(client, game, joined.json["token"], joined.json["seat"])
    return game, [p for p in players if p is not None]


def two_humans(base: str, edition: str, **options: Any) -> tuple[str, dict[int, str]]:
    """A started game of two humans (ann creates, bob joins) through the API at `base`: its id
    and each seat's token."""
    body = {"edition": edition, "seats": ["human", "human"], "name": "ann", **options}
    created = requests.post(f"{base}/games", json=body, timeout=10)
    assert created.status_code == 201, created.text
    game = created.json()["game"]["id"]
    joined = requests.post(f"{base}/games/{game}/seats", json={"name": "bob"}, timeout=10)
    assert joined.status_code == 201, joined.text
    tokens = {
        created.json()["seat"]: created.json()["token"],
        joined.json()["seat"]: joined.json()["token"],
    }
    return game, tokens
