"""Stream tickets: short-lived stand-ins for a seat's token, for clients that can only put a
secret in a URL (a browser's EventSource sends no headers).

A ticket is random; only its SHA-256 is stored, under the game's hash tag, naming the seat it
stands for, and Redis forgets it when its time is up. It opens the game's event stream and
nothing else.
"""

from __future__ import annotations

import hashlib
import secrets

from events.connection import RedisClient, as_text
from events.store import game_key


class StreamTickets:
    """Tickets to one game's stream, each standing for one seat for `seconds`."""

    def __init__(self, redis_client: RedisClient, *, namespace: str, seconds: int) -> None:
        self.redis = redis_client
        self.namespace = namespace
        self.seconds = seconds

    def issue(self, game_id: str, seat: int) -> str:
        """A fresh ticket for the seat's stream of the game."""
        ticket = secrets.token_urlsafe(24)
        self.redis.set(self._key(game_id, ticket), seat, ex=self.seconds)
        return ticket

    def seat(self, game_id: str, ticket: str) -> int | None:
        """The seat a ticket of this game stands for, while it lasts (else None)."""
        found = self.redis.get(self._key(game_id, ticket))
        return None if found is None else int(as_text(found))

    def _key(self, game_id: str, ticket: str) -> str:
        digest = hashlib.sha256(ticket.encode()).hexdigest()
        return game_key(self.namespace, game_id, f"ticket:{digest}")
