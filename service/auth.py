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
from collections.abc import Callable
from typing import Any

import jwt
from flask import current_app, g, request

from events.players import device_id, digest
from game.audiences import Audience, Reader, audience_at, seat_held
from game.state import Phase
from game.table import Asker, Table
from play.identities import external_player
from play.players import TOKEN_PREFIX
from service.deps import context, services
from service.errors import ApiError
from service.jwt_auth import Subject, TrustedIssuer, looks_like_jwt
from service.requestlog import note_seat
from service.schemas.players import player_name

ISSUER = "loveletter-jwt"  # the app's extension: its TrustedIssuer (or None)
UNSET = object()
# What a refused JWT's problem says, by the first of these kinds the error is (never the
# library's own words, which name its internals and change between its versions).
JWT_REFUSALS: tuple[tuple[type[jwt.PyJWTError], str], ...] = (
    (jwt.ExpiredSignatureError, "The bearer JWT has expired: ask its issuer for a new one."),
    (jwt.ImmatureSignatureError, "The bearer JWT is not valid yet (nbf or iat)."),
    (jwt.InvalidAudienceError, "The bearer JWT is not meant for this service (aud)."),
    (jwt.InvalidIssuerError, "The bearer JWT was not made by the trusted issuer (iss)."),
    (jwt.MissingRequiredClaimError, "The bearer JWT lacks a claim: exp, iss, aud and sub are"
     " required."),
    (jwt.PyJWKClientError, "The bearer JWT can't be checked: the issuer's key set has no key"
     " for it, or can't be read now."),
)  # fmt: skip
JWT_REFUSED = "The bearer JWT failed its checks (signature, algorithm or form)."


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
    one; 401 for a JWT that fails its checks, and for a player token that names nobody (it
    was revoked). Touches the player's presence."""
    found: Any = g.get("player", UNSET)
    if found is not UNSET:
        return found
    token = bearer()
    player = None
    if token and looks_like_jwt(token):
        player = _jwt_player(token)
    elif token and token.startswith(TOKEN_PREFIX):
        ctx = context()
        player = ctx.players.by_token(token)
        if player is None:  # revoked, or never made: it acts for nobody, anywhere
            raise ApiError(
                401,
                "unauthorized",
                "Unauthorized",
                "This player token is unknown or was revoked: sign in again.",
                headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
            )
        ctx.devices.used(player, digest(token))
    g.player = player
    if player is not None:
        context().presence.touch(player)
    return player


def _jwt_player(token: str) -> str | None:
    subject = verified_subject(token)
    if subject is None:
        return None
    name = player_name(subject.name, subject.subject)
    return external_player(context(), subject.issuer, subject.subject, name)


def verified_subject(token: str) -> Subject | None:
    """Who a JWT of the trusted issuer names (None when no issuer is trusted); 401
    `invalid-token` when it fails its checks, said in our words."""
    issuer = trusted_issuer()
    if issuer is None:
        return None
    try:
        return issuer.verify(token)
    except jwt.PyJWTError as error:  # a bad token, or a key its issuer lacks
        detail = next((said for kind, said in JWT_REFUSALS if isinstance(error, kind)), None)
        raise ApiError(
            401,
            "invalid-token",
            "Unauthorized",
            detail or JWT_REFUSED,
            headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
        ) from None


def player_token_digest() -> str | None:
    """The digest of the request's player token (None for a JWT, or no player token)."""
    token = bearer()
    return digest(token) if token and token.startswith(TOKEN_PREFIX) else None


def request_device() -> str | None:
    """The device id of the request's player token (None for a JWT, or no player token)."""
    found = player_token_digest()
    return None if found is None else device_id(found)


def holding(holder: str, token_digest: str | None) -> str:
    """What a ticket stands for: its holder, and the player token it was taken with (the
    streams it opens close once that token is revoked)."""
    return holder if token_digest is None else f"{holder} {token_digest}"


def held(stands_for: str) -> tuple[str, Callable[[], bool] | None]:
    """A ticket's holder, and whether the player token it was taken with still acts."""
    holder, _, token_digest = stands_for.partition(" ")
    return holder, (context().devices.alive(token_digest) if token_digest else None)


def request_asker() -> Asker:
    """Who the request is, as the table judges a command it sends: its bearer's hash (a seat
    token's) and the player it names."""
    token = bearer()
    return Asker(token_hash(token) if token else None, request_player())


def asked_meta(seat: int) -> dict[str, Any]:
    """What an append's record says of who sent it: the seat, and the player asking."""
    meta: dict[str, Any] = {"by": "seat", "seat": seat}
    player = request_player()
    if player is not None:
        meta["player"] = player
    return meta


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
        game_id = (request.view_args or {}).get("game_id")
        if player is not None and seat is not None and game_id is not None:
            ctx = context()
            if ctx.presence.touch(f"{game_id}/{seat}"):  # back at this game: push its turn again
                ctx.push.seen(player, game_id)
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
        raise _seat_token_wanted()
    return seat


def _seat_token_wanted() -> ApiError:
    return ApiError(
        401,
        "unauthorized",
        "Unauthorized",
        "Send this game's seat token as `Authorization: Bearer <token>`.",
        headers={"WWW-Authenticate": "Bearer"},
    )


def reader(table: Table) -> Reader:
    """Who the request is: the auditor (403 while a game is played), a seat's token (401
    unless it holds a seat of this table), a player (as the seat it holds here, else as a
    spectator), or a spectator (no token)."""
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
    seat = seat_of_request(table)
    note_seat(seat)
    if seat is not None:
        return Reader(token_hash(token), player=g.get("player"))
    player = request_player()
    if player is None:  # a seat token of another game, or one whose seat was left
        raise _seat_token_wanted()
    return Reader(player=player)  # a player without a seat here watches, as anyone may


def audience(table: Table, version: int | None = None) -> Audience:
    """The request's audience for the table as it is (or for its event at `version`): the
    auditor, and a seat once the game that event belongs to is over, see everything."""
    found = audience_at(table, reader(table), table.version if version is None else version)
    assert found is not None  # reader() refused whoever may read nothing
    return found
