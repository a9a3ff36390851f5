"""Redis-backed fixed-window rate limits, per client address and per seat.

A window starts with a key's first request and lasts `Limit.seconds`. Both of a request's
counters are counted in one round trip by a small Lua script that increments each, sets its
expiry when new, and answers the counts and the times left: one call with both keys (on Redis
Cluster, whose scripts may not span slots, one call per key). Keys are
`{ns}:ratelimit:{bucket}:{address|seat}:{identity}`. Over the limit:
429 problem+json `rate-limited` with `Retry-After` (whole seconds).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import request
from redis.cluster import RedisCluster

from events.connection import RedisClient
from service.apidoc import problems
from service.config import Limit
from service.errors import ApiError

HIT_SCRIPT = """
local replies = {}
for i, key in ipairs(KEYS) do
  local count = redis.call('INCR', key)
  if count == 1 then redis.call('PEXPIRE', key, ARGV[i]) end
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then redis.call('PEXPIRE', key, ARGV[i]); ttl = tonumber(ARGV[i]) end
  replies[i] = {count, ttl}
end
return replies
"""

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
        self._script = redis_client.register_script(HIT_SCRIPT)  # loads itself when missing

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
        replies = self._hit(keys, [limit.seconds * 1000 for _, _, limit in scopes])
        for (scope, _, limit), (count, ttl_ms) in zip(scopes, replies, strict=True):
            _refuse_over(scope, limit, int(count), int(ttl_ms))

    def _hit(self, keys: list[str], windows: list[int]) -> list[Any]:
        """[count, ttl] per key, in one script call."""
        if not isinstance(self.redis, RedisCluster):
            replies: list[Any] = self._script(keys=keys, args=windows)
            return replies
        # A cluster script may not span slots: one call per key, each to its node.
        return [
            reply
            for key, window in zip(keys, windows, strict=True)
            for reply in self._script(keys=[key], args=[window])
        ]


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

        return problems(429)(cast(F, limited))

    return decorate
