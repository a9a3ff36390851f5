"""One log line per request (its id, method, path, status, duration, game and seat; never a
token), and the request id in an `X-Request-ID` header on every answer.

The id is the client's `X-Request-ID` when it is a well-formed one, else a fresh one. It is
bound to the logging context for the whole request, so every line logged meanwhile carries it,
and problems carry it as `request_id` (service.errors).
"""

from __future__ import annotations

import re
import secrets
import time

import structlog
from flask import Flask, Request, Response, g, has_request_context, request

from play import logs

HEADER = "X-Request-ID"
WELL_FORMED = re.compile(r"[A-Za-z0-9._:-]{1,64}")
log = logs.Lines("loveletter.requests")


def request_id() -> str | None:
    """The current request's id (None outside a request)."""
    return g.get("request_id") if has_request_context() else None


def current_request() -> Request:
    """The request itself, not its proxy: one lookup for a hook that reads it many times."""
    found: Request = request._get_current_object()  # type: ignore[attr-defined]
    return found


def note_seat(seat: int | None) -> None:
    """Say which seat's token the request carried (logged by number, never the token)."""
    g.seat = seat


def note_game(game_id: str) -> None:
    """Say which game the request is about when its path does not (a game just created)."""
    g.game_id = game_id


def install(app: Flask) -> None:
    """Give every request an id and log every answer."""
    app.before_request(_start)
    app.after_request(_finish)


def _start() -> None:
    here, seen = g._get_current_object(), current_request()  # one lookup each
    sent = seen.headers.get(HEADER, "")
    here.request_id = sent if WELL_FORMED.fullmatch(sent) else secrets.token_hex(16)
    here.request_started = time.perf_counter()
    structlog.contextvars.clear_contextvars()
    structlog.contextvars.bind_contextvars(request_id=here.request_id)


def _finish(response: Response) -> Response:
    here, seen = g._get_current_object(), current_request()
    response.headers[HEADER] = here.get("request_id") or _late_id()
    started = here.get("request_started")
    game = here.get("game_id") or (seen.view_args or {}).get("game_id")
    log.info(
        "request",
        method=seen.method,
        path=seen.path,
        status=response.status_code,
        duration_ms=None if started is None else round((time.perf_counter() - started) * 1e3, 2),
        game=game,
        seat=here.get("seat"),
    )
    structlog.contextvars.clear_contextvars()
    return response


def _late_id() -> str:
    """An id for a request refused before `_start` ran (by an earlier before_request)."""
    g.request_id = secrets.token_hex(16)
    return str(g.request_id)
