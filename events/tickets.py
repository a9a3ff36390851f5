"""Stream tickets: short-lived stand-ins for a seat's token, for clients that can only put a
secret in a URL (a browser's EventSource sends no headers).

A ticket is random; only its SHA-256 is stored, under the game's hash tag, with the hash of the
seat token it was taken with, and Redis forgets it when its time is up. It opens the game's
event stream as long as that token holds its seat, and nothing else.
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

    def issue(self, game_id: str, token_hash: str) -> str:
        """A fresh ticket standing for the seat token with this hash, on the game's stream."""
        ticket = secrets.token_urlsafe(24)
        self.redis.set(self._key(game_id, ticket), token_hash, ex=self.seconds)
        return ticket

    def holder(self, game_id: str, ticket: str) -> str | None:
        """The hash of the seat token a ticket of this game was taken with, while it lasts."""
        found = self.redis.get(self._key(game_id, ticket))
        return None if found is None else as_text(found)

    def _key(self, game_id: str, ticket: str) -> str:
        digest = hashlib.sha256(ticket.encode()).hexdigest()
        return game_key(self.namespace, game_id, f"ticket:{digest}")
