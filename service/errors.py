"""RFC 9457 problem details (application/problem+json) for every error the service returns.

A problem's `type` is `PROBLEM_BASE + <slug>`, e.g.
`https://loveletter.example/problems/not-found`; the slugs are stable and documented in the
OpenAPI description. Views raise `ApiError`; everything else (werkzeug HTTP errors, webargs
validation, a lost Redis, a bug) is turned into a problem by the handlers registered here.
"""

from __future__ import annotations

from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

import redis
from flask import Flask, Request, Response, current_app
from redis.exceptions import (
    AskError,
    ClusterError,
    ReadOnlyError,
    RedisClusterException,
    TryAgainError,
)
from werkzeug.exceptions import HTTPException

from events.replicas import NotReplicated
from game.errors import IllegalCommand
from play import logs
from play.lobby import Busy
from play.send_command import KeyReused, StaleVersion
from service import metrics, requestlog

PROBLEM_BASE = "https://loveletter.example/problems/"
PROBLEM_CONTENT_TYPE = "application/problem+json"

# Slugs of werkzeug's HTTP errors; any other status gets a slug made from its phrase.
HTTP_SLUGS = {
    400: "bad-request",
    401: "unauthorized",
    403: "forbidden",
    404: "not-found",
    405: "method-not-allowed",
    406: "not-acceptable",
    409: "conflict",
    413: "payload-too-large",
    415: "unsupported-media-type",
    422: "validation-error",
    429: "rate-limited",
    500: "internal-error",
    503: "service-unavailable",
}

# A refusal is 422 but for these, which are about timing rather than the command itself.
CONFLICT_CODES = frozenset(
    {
        "not-your-turn",
        "round-over",
        "game-over",
        "game-started",
        "game-not-started",
        "game-not-over",
        "game-not-in-play",
        "seats-open",
    }
)

# Refusals about who asks (the table decides them with the version a command is applied to),
# answered as a token checked at the door would be.
ASKER_CODES = {"unauthorized": (401, "Unauthorized"), "forbidden": (403, "Forbidden")}

log = logs.get(__name__)


def problem_type(slug: str) -> str:
    """The stable `type` URI of a problem slug."""
    return PROBLEM_BASE + slug


class ApiError(Exception):
    """An error a view raises; answered as a problem with these members (extra ones too)."""

    def __init__(
        self,
        status: int,
        type_slug: str,
        title: str,
        detail: str,
        *,
        headers: Mapping[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.type_slug = type_slug
        self.title = title
        self.detail = detail
        self.headers = dict(headers or {})
        self.extra = extra

    def to_response(self) -> Response:
        """The problem+json response of this error."""
        return problem_response(
            self.status, self.type_slug, self.title, self.detail, self.headers, **self.extra
        )


def problem_response(
    status: int,
    slug: str,
    title: str,
    detail: str,
    headers: Mapping[str, str] | None = None,
    **extra: Any,
) -> Response:
    """A problem+json response; `extra` members are added beside the standard ones."""
    body = {**extra, "type": problem_type(slug), "title": title, "status": status}
    body["detail"] = detail
    body["request_id"] = requestlog.request_id()
    response = current_app.response_class(
        current_app.json.dumps(body), status=status, mimetype=PROBLEM_CONTENT_TYPE
    )
    for name, value in (headers or {}).items():
        if name.lower() != "content-type":
            response.headers[name] = value
    return response


class ProblemRequest(Request):
    """A request whose JSON decoding errors are problems: malformed body 400, not JSON 415."""

    def on_json_loading_failed(self, e: ValueError | None) -> Any:
        """Raise the problem instead of werkzeug's plain BadRequest."""
        if e is None:
            raise ApiError(
                415,
                "unsupported-media-type",
                "Unsupported media type",
                "The request body must be JSON (Content-Type: application/json).",
            )
        raise ApiError(
            400, "malformed-json", "Malformed JSON", "The request body is not valid JSON."
        )


def register_error_handlers(app: Flask) -> None:
    """Answer every error with a problem; a view's bug becomes a logged 500 problem."""
    app.request_class = ProblemRequest
    app.register_error_handler(ApiError, _handle_api_error)
    app.register_error_handler(IllegalCommand, _handle_refusal)
    app.register_error_handler(StaleVersion, _handle_stale_version)
    app.register_error_handler(KeyReused, _handle_key_reused)
    app.register_error_handler(Busy, _handle_busy)
    app.register_error_handler(HTTPException, handle_http_exception)
    for unavailable in REDIS_UNAVAILABLE:
        app.register_error_handler(unavailable, _handle_redis_down)
    app.register_error_handler(NotReplicated, _handle_not_replicated)
    app.register_error_handler(Exception, _handle_unexpected)


def handle_http_exception(error: HTTPException) -> Response | HTTPException:
    """A werkzeug/webargs HTTP error as a problem (redirects pass through untouched)."""
    status = error.code
    if status is None or status < 400:
        return error
    data: Mapping[str, Any] = getattr(error, "data", None) or {}
    headers = {name: value for name, value in error.get_headers() if name.lower() != "content-type"}
    headers.update(data.get("headers") or {})
    messages = data.get("errors", data.get("messages"))
    if status == 400 and isinstance(messages, Mapping) and "json" in messages:
        return problem_response(
            400, "malformed-json", "Malformed JSON", "The request body is not valid JSON.", headers
        )
    if status == 422 and messages is not None:
        return problem_response(
            422,
            "validation-error",
            "Invalid request",
            _validation_detail(messages),
            headers,
            errors=messages,
        )
    phrase = _phrase(status)
    slug = HTTP_SLUGS.get(status) or phrase.lower().replace(" ", "-").replace("'", "")
    detail = str(data.get("message") or error.description or phrase)
    return problem_response(status, slug, phrase, detail, headers)


def _handle_api_error(error: ApiError) -> Response:
    return error.to_response()


def _handle_refusal(refusal: IllegalCommand) -> Response:
    """The rules refused a command: 409 when it is about timing, else 422 (with the rule);
    401 or 403 when the asker holds no seat, or not the one the command acts for."""
    metrics.record_command("illegal")
    status = 409 if refusal.code in CONFLICT_CODES else 422
    title = "Conflict" if status == 409 else "Illegal command"
    status, title = ASKER_CODES.get(refusal.code, (status, title))
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return problem_response(
        status, refusal.code, title, refusal.message, headers, code=refusal.code
    )


def _handle_stale_version(stale: StaleVersion) -> Response:
    """The command was decided on another version than the game's: 412 with the current one."""
    metrics.record_conflict()
    current = stale.current_version
    return problem_response(
        412,
        "stale-version",
        "Precondition failed",
        f"The game is at version {current}: look again and decide anew.",
        {"ETag": f'"{current}"'},
        current_version=current,
    )


def _handle_key_reused(_: KeyReused) -> Response:
    return problem_response(
        422,
        "idempotency-key-reused",
        "Idempotency key reused",
        "This Idempotency-Key was sent before with another request; use a new key per request.",
        code="idempotency-key-reused",
    )


def _handle_busy(_: Busy) -> Response:
    return problem_response(
        503, "busy", "Busy", "The game is changing fast; try again.", {"Retry-After": "1"}
    )


# What Redis answers while a server is down, a Cluster fails over or moves slots: try again.
# (ClusterError covers CLUSTERDOWN and MASTERDOWN; AskError covers MOVED; READONLY comes from
# a master just turned replica; RedisClusterException from a slot no master serves yet.)
REDIS_UNAVAILABLE: tuple[type[Exception], ...] = (
    redis.ConnectionError,
    redis.TimeoutError,
    ClusterError,
    AskError,
    TryAgainError,
    ReadOnlyError,
    RedisClusterException,
)


def _handle_not_replicated(error: NotReplicated) -> Response:
    log.warning("not replicated in time: %s", error)
    return problem_response(
        503,
        "not-replicated",
        "Not replicated yet",
        "The command was written but is not yet on enough replicas to be acknowledged. Send it"
        " again with the same Idempotency-Key: you get its answer once it is replicated, or"
        " it is applied anew if it was lost.",
        {"Retry-After": "1"},
    )


def _handle_redis_down(error: Exception) -> Response:
    log.warning("redis unavailable", error=str(error))
    return problem_response(
        503,
        "service-unavailable",
        "Service unavailable",
        "The game store is unreachable; try again shortly.",
        {"Retry-After": "1"},
    )


def _handle_unexpected(error: Exception) -> Response:
    log.exception("unhandled error", exc_info=error)
    return problem_response(
        500, "internal-error", "Internal server error", "An unexpected error occurred."
    )


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


def _validation_detail(messages: Any) -> str:
    """A one-line summary naming the invalid fields, e.g. `json.seat: Not a valid integer.`."""
    parts: list[str] = []

    def walk(prefix: str, node: Any) -> None:
        if isinstance(node, Mapping):
            for key, value in node.items():
                walk(f"{prefix}.{key}" if prefix else str(key), value)
        elif isinstance(node, list) and all(isinstance(item, str) for item in node):
            parts.append(f"{prefix}: {' '.join(node)}")
        elif isinstance(node, list):
            for position, value in enumerate(node):
                walk(f"{prefix}[{position}]", value)
        else:
            parts.append(f"{prefix}: {node}")

    walk("", messages)
    return "; ".join(parts[:5]) + ("; ..." if len(parts) > 5 else "") if parts else "Invalid."
