"""Seat tokens and audiences: who is asking, and what they may see.

A seat token is a random secret handed out once; only its SHA-256 is stored (in the game's
stream) and tokens are compared in constant time. The auditor's token comes from configuration.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from flask import request

from game.audiences import Audience, Reader, audience_at, seat_held
from game.state import Phase
from game.table import Table
from service.deps import services
from service.errors import ApiError
from service.requestlog import note_seat


def new_token() -> str:
    """A fresh seat token (shown once to its holder)."""
    return secrets.token_urlsafe(32)


def keyed_token(key: str, game_id: str) -> str:
    """The seat token of a join (or a creation) sent with an Idempotency-Key: derived from the
    key (HMAC-SHA256), so a repeated request gets the same token again while the server keeps
    neither the token nor the key."""
    digest = hmac.new(key.encode(), f"seat-token:{game_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def token_hash(token: str) -> str:
    """What is stored of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def bearer() -> str | None:
    """The request's `Authorization: Bearer <token>`, if any."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def request_seat_key() -> str | None:
    """The rate-limit identity of the request's seat token (its hash), if it has one."""
    token = bearer()
    return token_hash(token) if token else None


__all__ = ["Audience", "Reader", "audience", "reader", "require_seat", "seat_of"]


def seat_of(table: Table, token: str | None) -> int | None:
    """The seat this token belongs to (constant-time comparison), or None."""
    return seat_held(table, token_hash(token)) if token else None


def require_seat(table: Table) -> int:
    """The seat of the request's token; 401 when there is no token or it is not this game's."""
    seat = seat_of(table, bearer())
    note_seat(seat)
    if seat is None:
        raise ApiError(
            401,
            "unauthorized",
            "Unauthorized",
            "Send this game's seat token as `Authorization: Bearer <token>`.",
            headers={"WWW-Authenticate": "Bearer"},
        )
    return seat


def reader(table: Table) -> Reader:
    """Who the request is: the auditor (403 while a game is played), a seat's token (401
    unless it holds a seat of this table), or a spectator (no token)."""
    token = bearer()
    over = table.game is not None and table.game.phase is Phase.OVER
    auditor = services().settings.auditor_token
    if token and auditor and hmac.compare_digest(token.encode(), auditor.encode()):
        if not over:
            raise ApiError(
                403,
                "game-in-progress",
                "Forbidden",
                "An auditor sees a game's whole record once the game is over.",
            )
        return Reader(auditor=True)
    if token is None:
        return Reader()
    require_seat(table)
    return Reader(token_hash(token))


def audience(table: Table, version: int | None = None) -> Audience:
    """The request's audience for the table as it is (or for its event at `version`): the
    auditor, and a seat once the game that event belongs to is over, see everything."""
    found = audience_at(table, reader(table), table.version if version is None else version)
    assert found is not None  # reader() refused whoever may read nothing
    return found
