"""Redis-backed fixed-window rate limits, per client address and per seat.

A window starts with a key's first request and lasts `Limit.seconds`. Both of a request's
counters are counted in one pipelined round trip, each by a small Lua script (one key each, so
Redis Cluster is fine) that increments it, sets its expiry when new, and answers the count and
the time left. Keys are `{ns}:ratelimit:{bucket}:{address|seat}:{identity}`. Over the limit:
429 problem+json `rate-limited` with `Retry-After` (whole seconds).
"""

from __future__ import annotations

import copy
import functools
import hashlib
import math
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import request
from redis.exceptions import NoScriptError

from events.connection import RedisClient
from service.config import Limit
from service.errors import ApiError

HIT_SCRIPT = """
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
"""
HIT_SHA = hashlib.sha1(HIT_SCRIPT.encode()).hexdigest()

# The seat identity of the current request (e.g. a hash of its seat token), or None.
SeatKey = Callable[[], str | None]
F = TypeVar("F", bound=Callable[..., Any])


class RateLimiter:
    """Counts hits per (bucket, scope, identity) in Redis and refuses those over the limit."""

    def __init__(
        self,
        redis_client: RedisClient,
        *,
        namespace: str,
        address_limit: Limit | None,
        seat_limit: Limit | None,
    ) -> None:
        self.redis = redis_client
        self.prefix = f"{namespace}:ratelimit:"
        self.address_limit = address_limit
        self.seat_limit = seat_limit

    def check(self, bucket: str, address: str | None, seat: str | None) -> None:
        """Count the request against its address's limit and its seat's (one round trip);
        raise the 429 ApiError of the first one it is over."""
        scopes = [
            (scope, identity, limit)
            for scope, identity, limit in (
                ("address", address, self.address_limit),
                ("seat", seat, self.seat_limit),
            )
            if identity and limit is not None
        ]
        if not scopes:
            return
        keys = [f"{self.prefix}{bucket}:{scope}:{identity}" for scope, identity, _ in scopes]
        try:
            replies = self._hit(keys, scopes)
        except NoScriptError:  # a new or flushed server: load the script, then count
            self.redis.script_load(HIT_SCRIPT)
            replies = self._hit(keys, scopes)
        for (scope, _, limit), (count, ttl_ms) in zip(scopes, replies, strict=True):
            _refuse_over(scope, limit, int(count), int(ttl_ms))

    def _hit(self, keys: list[str], scopes: list[tuple[str, str, Limit]]) -> list[Any]:
        """EVALSHA once per key in one pipeline (no SCRIPT EXISTS round trip first)."""
        pipe = self.redis.pipeline(transaction=False)
        for key, (_, _, limit) in zip(keys, scopes, strict=True):
            pipe.evalsha(HIT_SHA, 1, key, limit.seconds * 1000)
        replies: list[Any] = pipe.execute()
        return replies


def _refuse_over(scope: str, limit: Limit, count: int, ttl_ms: int) -> None:
    """The 429 problem when `count` requests in the window are over `limit`."""
    if count > limit.count:
        retry_after = max(1, math.ceil(ttl_ms / 1000))
        raise ApiError(
            429,
            "rate-limited",
            "Too many requests",
            f"At most {limit.count} requests per {limit.seconds} s per {scope};"
            f" retry in {retry_after} s.",
            headers={"Retry-After": str(retry_after)},
            scope=scope,
        )


def rate_limited(bucket: str = "default", *, seat: SeatKey | None = None) -> Callable[[F], F]:
    """Decorate a view (outermost, above flask-smorest's decorators) to rate-limit it.

    `bucket` separates counters of different kinds of calls (e.g. "commands", "lobby");
    `seat` returns the request's seat identity, or None when it has none (address limit only).
    """

    def decorate(view: F) -> F:
        @functools.wraps(view)
        def limited(*args: Any, **kwargs: Any) -> Any:
            from service.deps import services  # the app's limiter, built by create_app

            identity = seat() if seat is not None else None
            services().limiter.check(bucket, request.remote_addr, identity)
            return view(*args, **kwargs)

        _document_429(limited)
        return cast(F, limited)

    return decorate


def _document_429(view: Any) -> None:
    """Add the 429 response to the view's OpenAPI description (flask-smorest's `_apidoc`)."""
    apidoc = copy.deepcopy(getattr(view, "_apidoc", {}))
    responses = apidoc.setdefault("response", {}).setdefault("responses", {})
    responses.setdefault(429, []).append("TOO_MANY_REQUESTS")
    view._apidoc = apidoc
