"""Which player each identity of the operator's trusted issuer is, and the server's secrets.

An identity (an issuer and a subject) names its player through `{ns}:identity:<SHA-256 of iss
NUL sub>`: found in one GET, the same from every process, and movable to another player (a
guest linked to the identity). The digest is not a secret (it only names a Redis key); the
player's id is made with a server secret (play/players.py). A secret the operator does not
set is made once, at random, and kept in Redis beside the players (`{ns}:secret:<name>`), so
every process of the service shares it.
"""

from __future__ import annotations

import hashlib
import secrets
from importlib.resources import files
from typing import Any

from events.connection import RedisClient, as_text

MOVE_SCRIPT = files("events").joinpath("identity.lua").read_text(encoding="utf-8")


def identity_digest(issuer: str, subject: str) -> str:
    """What names an identity of the issuer in Redis."""
    return hashlib.sha256(f"{issuer}\0{subject}".encode()).hexdigest()


class IdentityStore:
    """The identities of one namespace, and its kept secrets."""

    def __init__(self, redis_client: RedisClient, *, namespace: str) -> None:
        self.redis = redis_client
        self.namespace = namespace
        self._move = redis_client.register_script(MOVE_SCRIPT)
        self._secrets: dict[str, str] = {}

    def key(self, digest: str) -> str:
        """The key naming the player of an identity."""
        return f"{self.namespace}:identity:{digest}"

    def player(self, digest: str) -> str | None:
        """The player this identity is, if it was seen."""
        found: Any = self.redis.get(self.key(digest))
        return None if found is None else as_text(found)

    def claim(self, digest: str, player_id: str) -> str:
        """Make the identity this player unless it is one already; the player it is."""
        if self.redis.set(self.key(digest), player_id, nx=True):
            return player_id
        found = self.player(digest)
        assert found is not None  # identities are moved, never removed
        return found

    def move(self, digest: str, now: str | None, player_id: str) -> bool:
        """Point the identity at `player_id` if it still names `now` (None: nobody)."""
        return bool(self._move(keys=[self.key(digest)], args=[now or "", player_id]))

    def secret(self, name: str) -> str:
        """A server secret kept in Redis, made at random the first time any process asks."""
        found = self._secrets.get(name)
        if found is None:
            key = f"{self.namespace}:secret:{name}"
            self.redis.set(key, secrets.token_hex(32), nx=True)
            stored: Any = self.redis.get(key)
            found = self._secrets[name] = as_text(stored)
        return found
