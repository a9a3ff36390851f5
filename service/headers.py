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
VERSION = re.compile(r"[0-9]{1,18}")
# Stream ids are 64-bit: an `after` is capped far below, past any real version (same answers).
LAST_VERSION = 2**62


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


def fingerprint(body: Any) -> str:
    """A digest of the request: method, path and body (as JSON with sorted keys, so the same
    command written differently is the same request)."""
    text = orjson.dumps(body, option=orjson.OPT_SORT_KEYS)
    line = f"{request.method} {request.path}\n".encode()
    return hashlib.sha256(line + text).hexdigest()
