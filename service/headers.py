"""The request headers of conditional and repeatable calls: If-Match, Idempotency-Key."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import orjson
from flask import request

from events.store import Idempotency
from service.errors import ApiError

IDEMPOTENCY_KEY = re.compile(r"[A-Za-z0-9._~:-]{1,100}")
SECRET_KEY_LENGTH = 32  # the least length of a key that stands for its caller (create, join)
VERSION = re.compile(r"[0-9]{1,18}")
# Stream ids are 64-bit: an `after` is capped far below, past any real version (same answers).
LAST_VERSION = 2**62


SECRET_KEY_DOC = {  # the Idempotency-Key of a call without a seat token (create, join)
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": "A random key of your choosing (at least 32 characters: a UUID will do),"
    " kept secret like a token: the same request with the same key gets the first answer"
    " again, its token included; with another request, a 422 idempotency-key-reused",
    "schema": {"type": "string", "pattern": "^[A-Za-z0-9._~:-]{32,100}$"},
}
SEAT_KEY_DOC = {  # the optional Idempotency-Key of a seat's table command (rematch)
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": "A key of your choosing: the same request with the same key gets the first"
    " answer again; with another request, a 422 idempotency-key-reused",
    "schema": {"type": "string", "pattern": "^[A-Za-z0-9._~:-]{1,100}$"},
}


def if_match(*, strict: bool = True) -> int | None:
    """The version in If-Match (`"12"`, `W/"12"` or `12`); None without the header. One that
    is not a version is a 400 (`strict`) or None."""
    header = request.headers.get("If-Match")
    if header is None:
        return None
    text = header.strip().removeprefix("W/").strip('"')
    if VERSION.fullmatch(text):
        return int(text)
    if strict:
        raise ApiError(400, "bad-if-match", "Bad request", "If-Match must be a game version.")
    return None


def expected_version() -> int:
    """The version the client decided on (If-Match); 428 without it."""
    version = if_match()
    if version is None:
        raise ApiError(
            428,
            "precondition-required",
            "Precondition required",
            "Send the game version you decided on as If-Match (the ETag of the view).",
        )
    return version


def idempotency(scope: str, body: Any) -> Idempotency:
    """The caller's Idempotency-Key (required), bound to this request's method, path and body."""
    key = request.headers.get("Idempotency-Key")
    if key is None or not IDEMPOTENCY_KEY.fullmatch(key):
        raise ApiError(
            400,
            "idempotency-key-required",
            "Bad request",
            "Send an Idempotency-Key header: 1-100 letters, digits or ._~:- characters.",
        )
    return Idempotency(scope, key, fingerprint(body))


def optional_idempotency(scope: str, body: Any) -> Idempotency | None:
    """The caller's Idempotency-Key if it sent one, as `idempotency` reads it."""
    if request.headers.get("Idempotency-Key") is None:
        return None
    return idempotency(scope, body)


def secret_idempotency(scope: str, body: Any) -> tuple[str, Idempotency] | None:
    """The Idempotency-Key of a call whose caller has no token (create, join): the key stands
    for its caller, so it must be unguessable (at least SECRET_KEY_LENGTH characters, e.g. a
    random UUID). The key itself, and what is stored of it: its SHA-256, never the key."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if len(key) < SECRET_KEY_LENGTH or not IDEMPOTENCY_KEY.fullmatch(key):
        raise ApiError(
            400,
            "idempotency-key-too-short",
            "Bad request",
            f"Without a seat token, the Idempotency-Key stands for you: send a random one of"
            f" {SECRET_KEY_LENGTH} to 100 letters, digits or ._~:- characters (a UUID will do).",
        )
    digest = hashlib.sha256(key.encode()).hexdigest()
    return key, Idempotency(scope, digest, fingerprint(body))


def fingerprint(body: Any) -> str:
    """A digest of the request: method, path and body (as JSON with sorted keys, so the same
    command written differently is the same request)."""
    text = orjson.dumps(body, option=orjson.OPT_SORT_KEYS)
    line = f"{request.method} {request.path}\n".encode()
    return hashlib.sha256(line + text).hexdigest()
