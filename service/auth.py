"""Seat tokens, players and audiences: who is asking, and what they may see.

A seat token is a random secret handed out once; only its SHA-256 is stored (in the game's
stream) and tokens are compared in constant time. The auditor's token comes from configuration.
A player's bearer is a player token (`plr_...`) or a JWT of the trusted issuer
(service/jwt_auth.py); it acts for every seat its player holds.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import Any

import jwt
from flask import current_app, g, request

from game.audiences import Audience, Reader, audience_at, seat_held
from game.state import Phase
from game.table import Table
from play.players import TOKEN_PREFIX, external_player
from service.deps import context, services
from service.errors import ApiError
from service.jwt_auth import TrustedIssuer, looks_like_jwt
from service.requestlog import note_seat
from service.schemas.players import player_name

ISSUER = "loveletter-jwt"  # the app's extension: its TrustedIssuer (or None)
UNSET = object()


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


def trusted_issuer() -> TrustedIssuer | None:
    """The app's trusted issuer of JWTs, if one is configured."""
    extensions = current_app.extensions
    if ISSUER not in extensions:
        extensions[ISSUER] = TrustedIssuer.configured(services().settings)
    found: TrustedIssuer | None = extensions[ISSUER]
    return found


def request_player() -> str | None:
    """The player id of the request's bearer (a player token or the issuer's JWT), if it names
    one; 401 for a JWT that fails its checks. Touches the player's presence."""
    found: Any = g.get("player", UNSET)
    if found is not UNSET:
        return found
    token = bearer()
    player = None
    if token and looks_like_jwt(token):
        player = _jwt_player(token)
    elif token and token.startswith(TOKEN_PREFIX):
        player = context().players.by_token(token)
    g.player = player
    if player is not None:
        context().presence.touch(player)
    return player


def _jwt_player(token: str) -> str | None:
    issuer = trusted_issuer()
    if issuer is None:
        return None
    try:
        subject = issuer.verify(token)
    except jwt.PyJWTError as error:  # a bad token, or a key its issuer lacks
        raise ApiError(
            401,
            "invalid-token",
            "Unauthorized",
            f"The bearer JWT was refused: {error}.",
            headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
        ) from None
    name = player_name(subject.name, subject.subject)
    return external_player(context(), subject.issuer, subject.subject, name).id


def require_player() -> str:
    """The request's player; 401 without one."""
    player = request_player()
    if player is None:
        raise ApiError(
            401,
            "unauthorized",
            "Unauthorized",
            "Send a player token (or the trusted issuer's JWT) as `Authorization: Bearer ...`.",
            headers={"WWW-Authenticate": "Bearer"},
        )
    return player


def seat_of_request(table: Table) -> int | None:
    """The seat the request's bearer acts for at this table: a seat token's, or the seat its
    player holds. A seat token alone is marked present (a player is, by request_player)."""
    seat = seat_of(table, bearer())
    if seat is None:
        player = request_player()
        seat = None if player is None else table.seat_of_player(player)
    elif table.seats[seat].player is None:
        game_id = (request.view_args or {}).get("game_id")
        if game_id is not None:
            context().presence.touch(f"{game_id}/{seat}")
    return seat


def require_seat(table: Table) -> int:
    """The seat of the request's token; 401 when there is no token or it is not this game's."""
    seat = seat_of_request(table)
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
    return Reader(token_hash(token), player=g.get("player"))


def audience(table: Table, version: int | None = None) -> Audience:
    """The request's audience for the table as it is (or for its event at `version`): the
    auditor, and a seat once the game that event belongs to is over, see everything."""
    found = audience_at(table, reader(table), table.version if version is None else version)
    assert found is not None  # reader() refused whoever may read nothing
    return found
