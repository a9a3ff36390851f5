"""Seat tokens and audiences: who is asking, and what they may see.

A seat token is a random secret handed out once; only its SHA-256 is stored (in the game's
stream) and tokens are compared in constant time. The auditor's token comes from configuration.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from flask import request

from game.state import Phase
from game.table import Table
from service.deps import services
from service.errors import ApiError
from service.requestlog import note_seat


def new_token() -> str:
    """A fresh seat token (shown once to its holder)."""
    return secrets.token_urlsafe(32)


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


@dataclass(frozen=True)
class Audience:
    """Who is looking: a seat, a spectator (seat None), or the whole truth (`everything`)."""

    seat: int | None = None
    everything: bool = False


def seat_of(table: Table, token: str | None) -> int | None:
    """The seat this token belongs to (constant-time comparison), or None."""
    if not token:
        return None
    wanted = token_hash(token)
    found = None
    for index, seat in enumerate(table.seats):
        if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, wanted):
            found = index
    return found


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


def audience(table: Table) -> Audience:
    """The request's audience: the auditor or a seat see everything once the game is over."""
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
        return Audience(None, everything=True)
    if token is None:
        return Audience()
    seat = require_seat(table)
    return Audience(seat, everything=over)
