"""The OpenAPI document's notes beyond the schemas: operation ids, the bearer scheme, the headers
every answer carries, tagged unions, examples and the "your turn" webhook. Decorators here only
annotate views (no wrapper, so no cost per request)."""

from __future__ import annotations

import copy
import http
from collections.abc import Callable, Mapping
from typing import Any, Literal, TypeVar

import marshmallow as ma
from apispec import BasePlugin
from flask_smorest import Api

F = TypeVar("F", bound=Callable[..., Any])
Token = Literal[
    "required", "optional", "player", "player-optional", "seat-or-player", "anyone", "jwt", "none"
]

SEAT_TOKEN = "seatToken"
PLAYER_TOKEN = "playerToken"
PLAYER_JWT = "playerJwt"
Schemes = list[dict[str, list[str]]]
_SEAT: Schemes = [{SEAT_TOKEN: []}]
_PLAYER: Schemes = [{PLAYER_TOKEN: []}, {PLAYER_JWT: []}]
SECURITY: dict[str, Schemes] = {
    "required": _SEAT + _PLAYER,  # a seat's token, or the player's holding the seat
    "optional": [{}, *_SEAT, *_PLAYER],  # {}: anonymous (a spectator) is fine too
    "player": _PLAYER,
    "player-optional": [{}, *_PLAYER],  # a player's seat, or a seat token alone
    "seat-or-player": _SEAT + _PLAYER,  # a seat's, or any player's (a spectator with a name)
    "anyone": [{}, *_SEAT, *_PLAYER],
    "jwt": [{PLAYER_JWT: []}],
    "none": [],
}
PLAYER_SCHEME = {
    "type": "http",
    "scheme": "bearer",
    "description": "A player's secret token: `plr_` and 43 URL-safe characters, answered once "
    "by createPlayer or redeemTransferCode, revoked by revokeDevice or signOut. It acts for "
    "every seat its player holds, and reads a game where it holds no seat as a spectator.",
}
PLAYER_JWT_SCHEME = {
    "type": "http",
    "scheme": "bearer",
    "bearerFormat": "JWT",
    "description": "A JWT of the operator's trusted issuer (checked: signature, exp, iss, aud; "
    "sub names the player, made at first sight). It acts and reads as a player token does.",
}
SECURITY_SCHEME = {
    "type": "http",
    "scheme": "bearer",
    "description": "A seat's secret token (43 URL-safe characters), answered once by createGame "
    "or joinGame: it acts for that seat of that game, and reads the game as that seat (the "
    "operator's auditor token sees whole games once they are over). Wherever it is accepted, "
    "the token or JWT of the player holding the seat is too.",
}
REQUEST_ID = "REQUEST_ID"  # components: the X-Request-ID parameter and header
ETAG = "ETAG"
IF_NONE_MATCH = "IF_NONE_MATCH"
GAME_VERSION = "x-game-version"  # an operation's marker: its answers carry the version as ETag
HEADERS = {
    REQUEST_ID: {
        "description": "This request's id: the one sent, when it is 1-64 letters, digits or "
        "`._:-`, else one made by the server. It is in the server's log line of the request and "
        "in the `request_id` of a problem.",
        "schema": {"type": "string", "pattern": "^[A-Za-z0-9._:-]{1,64}$"},
    },
    ETAG: {
        "description": 'The game\'s version, e.g. `"12"`: send it as If-Match with a command, '
        "or as If-None-Match to be answered 304 while nothing changed.",
        "schema": {"type": "string", "pattern": '^"[0-9]+"$'},
    },
}
PARAMETERS = {
    REQUEST_ID: {
        "in": "header",
        "name": "X-Request-ID",
        "required": False,
        "description": "An id of your choosing for this request (1-64 letters, digits or `._:-`)"
        ", answered back and logged; any other value is replaced by one of the server's.",
        "schema": {"type": "string"},
    },
    IF_NONE_MATCH: {
        "in": "header",
        "name": "If-None-Match",
        "required": False,
        "description": "The ETag (game version) you have: 304 with no body while it is current.",
        "schema": {"type": "string"},
    },
}


def problems(*statuses: int) -> Callable[[F], F]:
    """Document these problem responses by their components, as flask-smorest's `alt_response`
    does, but on the view itself: each of its wrappers would cost every request a call."""

    def decorate(view: F) -> F:
        apidoc = copy.deepcopy(getattr(view, "_apidoc", {}))
        responses = apidoc.setdefault("response", {}).setdefault("responses", {})
        for status in reversed(statuses):  # the order stacked alt_response decorators give
            responses.setdefault(status, []).append(http.HTTPStatus(status).name)
        view._apidoc = apidoc  # type: ignore[attr-defined]
        return view

    return decorate


def operation(
    operation_id: str, *, token: Token = "none", game_version: bool = False, **doc: Any
) -> Callable[[F], F]:
    """Name an operation for generated clients, say whether it takes a seat token, and mark
    answers that carry the game's version (ETag; If-None-Match gives 304). `doc` is merged
    into the operation as written (like flask-smorest's `doc`, without its wrapper)."""

    def decorate(view: F) -> F:
        apidoc = copy.deepcopy(getattr(view, "_apidoc", {}))
        manual = apidoc.setdefault("manual_doc", {})
        manual.update(doc, operationId=operation_id, security=SECURITY[token])
        if game_version:
            manual[GAME_VERSION] = True
        view._apidoc = apidoc  # type: ignore[attr-defined]
        return view

    return decorate


class Tagged(ma.fields.Raw):
    """A JSON object that is one of several documented components, told apart by a member
    (`tag`): documented as `oneOf` with a discriminator; written as is."""

    def __init__(self, tag: str, components: Mapping[str, str], **options: Any) -> None:
        super().__init__(**options)
        self.tag = tag
        self.components = dict(components)  # tag value -> component name


def schema_ref(name: str) -> str:
    """The reference of a schema component."""
    return f"#/components/schemas/{name}"


def one_of(tag: str, components: Mapping[str, str]) -> dict[str, Any]:
    """`oneOf` the named components, with a discriminator on `tag`."""
    return {
        "oneOf": [{"$ref": schema_ref(name)} for name in components.values()],
        "discriminator": {
            "propertyName": tag,
            "mapping": {value: schema_ref(name) for value, name in components.items()},
        },
    }


def _tagged2properties(self: Any, field: ma.fields.Field, **_: Any) -> dict[str, Any]:
    """apispec: a Tagged field is its `oneOf`."""
    return one_of(field.tag, field.components) if isinstance(field, Tagged) else {}


class ContractPlugin(BasePlugin):
    """Adds to every operation what the app does for every request: X-Request-ID in and out,
    and the ETag (with If-None-Match and 304) where answers carry the game's version."""

    def operation_helper(
        self, path: str | None = None, operations: dict[str, Any] | None = None, **_: Any
    ) -> None:
        """Complete each operation of a path (before apispec resolves references)."""
        for operation_doc in (operations or {}).values():
            parameters = operation_doc.setdefault("parameters", [])
            parameters.append(REQUEST_ID)
            versioned = operation_doc.pop(GAME_VERSION, False)
            responses = operation_doc.get("responses", {})
            if versioned and operation_doc.get("operationId", "").startswith("get"):
                parameters.append(IF_NONE_MATCH)
                responses.setdefault(
                    "304",
                    {"description": "Not modified since the version in If-None-Match"},
                )
            for status, response in responses.items():
                if isinstance(response, dict):
                    headers = response.setdefault("headers", {})
                    headers["X-Request-ID"] = REQUEST_ID
                    if versioned and (str(status).startswith("2") or str(status) == "304"):
                        headers["ETag"] = ETAG


def document(api: Api, *, webhooks: Mapping[str, Any]) -> None:
    """Register the components the notes above refer to (before any blueprint)."""
    spec = api.spec
    spec.components.security_scheme(SEAT_TOKEN, SECURITY_SCHEME)
    spec.components.security_scheme(PLAYER_TOKEN, PLAYER_SCHEME)
    spec.components.security_scheme(PLAYER_JWT, PLAYER_JWT_SCHEME)
    for name, header in HEADERS.items():
        spec.components.header(name, header)
    for name, parameter in PARAMETERS.items():
        spec.components.parameter(name, parameter["in"], parameter)
    api.ma_plugin.converter.add_attribute_function(_tagged2properties)
    spec.options["webhooks"] = dict(webhooks)


WEBHOOK_HEADERS = {
    "webhook-id": "The message's id (the same on every retry of one notice)",
    "webhook-timestamp": "Seconds since the Unix epoch when it was sent",
    "webhook-signature": "`v1,<base64 HMAC-SHA256 of id.timestamp.body>` keyed with the "
    "base64-decoded part of the secret after `whsec_` (Standard Webhooks)",
}


def turn_ready_webhook(payload: str, example: Mapping[str, Any]) -> dict[str, Any]:
    """The `webhooks` entry of the "your turn" call, whose body is the `payload` component."""
    return {
        "turnReady": {
            "post": {
                "operationId": "turnReady",
                "summary": "Your turn: the seat must act (sent to the URL set by setWebhook)",
                "description": "Signed as Standard Webhooks are; retried with backoff until a "
                "2xx answer. It names the game, seat and version only: fetch the view with the "
                "seat's token.",
                "parameters": [
                    {"in": "header", "name": name, "required": True, "description": text}
                    | {"schema": {"type": "string"}}
                    for name, text in WEBHOOK_HEADERS.items()
                ],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {"$ref": schema_ref(payload)},
                            "example": dict(example),
                        }
                    },
                },
                "responses": {
                    "2XX": {"description": "Delivered"},
                    "default": {"description": "Not delivered: retried later"},
                },
            }
        }
    }
