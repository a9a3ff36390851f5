"""Redis-backed fixed-window rate limits, per client address and per seat.

A window starts with a key's first request and lasts `Limit.seconds`. Redis holds, per key,
how many requests the window has granted, never more than the limit. A process asks for a
few at a time (an allowance: 1, then twice as many each time it runs out, at most a sixteenth
of the limit) and admits requests from it without a round trip; a refusal is remembered until
the window ends, since the count only grows. So no window admits more than its limit, and
allowances left unspent in other processes can refuse a client at most (processes - 1) x a
sixteenth of the limit early. A request's keys are asked for in one Lua call (on Redis
Cluster, whose scripts may not span slots, one call per key). Keys are
`{ns}:ratelimit:{bucket}:{address|seat}:{identity}`. Over the limit: 429 problem+json
`rate-limited` with `Retry-After` (whole seconds). Reads (views, feeds, replays, streams) have a
bucket of their own with its own address limit.

Waiters (open streams and long polls) are also capped per address, across processes: each holds
a place in its address's sorted set in Redis, scored by when its lease ends (renewed while it
waits), so the places of a process that died free themselves.
"""

from __future__ import annotations

import contextlib
import functools
import math
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from flask import Flask, current_app, request
from redis.cluster import RedisCluster

from events.connection import RedisClient, Script
from events.locks import short_lock
from events.recent import Recent
from play.settings import Limit
from service.apidoc import problems
from service.deps import services
from service.errors import ApiError

# Per key, ARGV holds (limit, wanted, window ms); the reply is (granted, ms left in the window).
GRANT_SCRIPT = """
local replies = {}
for i, key in ipairs(KEYS) do
  local limit, wanted, window = tonumber(ARGV[3*i-2]), tonumber(ARGV[3*i-1]), ARGV[3*i]
  local granted = math.max(0, math.min(wanted, limit - tonumber(redis.call('GET', key) or 0)))
  if granted > 0 and redis.call('INCRBY', key, granted) == granted then
    redis.call('PEXPIRE', key, window)
  end
  local ttl = redis.call('PTTL', key)
  if ttl == -1 then redis.call('PEXPIRE', key, window) end
  if ttl < 0 then ttl = tonumber(window) end
  replies[i] = {granted, ttl}
end
return replies
"""
# KEYS[1] an address's waiters; ARGV: now (ms), lease end (ms), cap, waiter id, key's TTL (ms).
HOLD_SCRIPT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
"""
# A waiter gives its place up: a script, so that it runs on a held connection (see Script).
RELEASE_SCRIPT = "return redis.call('ZREM', KEYS[1], ARGV[1])"
READS = "reads"  # the bucket of reads, limited per address on their own
THINKING_BOTS = frozenset({"search", "hard"})  # bots that search sampled worlds: real CPU
LEASE_SECONDS = 120.0  # a waiter's place is kept this long past its last renewal
EXTENSION = "loveletter-limiter"
ALLOWANCE_SHARE = 16  # an allowance is at most this fraction of the limit
KEPT_ALLOWANCES = 10_000  # keys whose allowance each process remembers
ASK_WAIT_SECONDS = 1.0  # how long a thread waits for another's ask before asking itself

# The seat identity of the current request (e.g. a hash of its seat token), or None.
SeatKey = Callable[[], str | None]
F = TypeVar("F", bound=Callable[..., Any])


@dataclass
class Allowance:
    """What this process may still admit for one key until `ends` (monotonic seconds)."""

    left: int  # -1: Redis granted none, so the window refuses until it ends
    ends: float
    size: int  # how many were asked for

    @property
    def refused(self) -> bool:
        """Whether Redis refused this window."""
        return self.left < 0


@dataclass(frozen=True)
class Ask:
    """A key whose allowance is spent: ask Redis for `size` more."""

    key: str
    scope: str
    limit: Limit
    size: int


class RateLimiter:
    """Admits or refuses requests per (bucket, scope, identity), counting in Redis."""

    def __init__(
        self,
        redis_client: RedisClient,
        *,
        namespace: str,
        address_limit: Limit | None,
        seat_limit: Limit | None,
        bucket_limits: Mapping[str, Limit | None] | None = None,
        waiters_per_address: int | None = None,
    ) -> None:
        self.redis = redis_client
        self.prefix = f"{namespace}:ratelimit:"
        self.address_limit = address_limit
        self.seat_limit = seat_limit
        self.bucket_limits = dict(bucket_limits or {})  # a bucket's own address limit
        self.waiters_per_address = waiters_per_address
        self._script = Script(redis_client, GRANT_SCRIPT)  # loads itself when missing
        self._hold = Script(redis_client, HOLD_SCRIPT)
        self._release = Script(redis_client, RELEASE_SCRIPT)
        self._allowances: Recent[str, Allowance] = Recent(KEPT_ALLOWANCES)
        self._asking: dict[str, threading.Event] = {}  # keys being asked for, by one thread
        self._lock = short_lock()

    def check(self, bucket: str, address: str | None, seat: str | None) -> None:
        """Count the request against its address's limit and its seat's; raise the 429
        ApiError of the first one it is over."""
        asks: list[Ask] = []
        try:
            for scope, identity, limit in (
                ("address", address, self.bucket_limits.get(bucket, self.address_limit)),
                ("seat", seat, self.seat_limit),
            ):
                if identity and limit is not None:
                    key = f"{self.prefix}{bucket}:{scope}:{identity}"
                    size = self._spend(key, scope, limit)
                    if size is not None:
                        asks.append(Ask(key, scope, limit, size))
        except ApiError:  # refused by a remembered refusal: the asks taken so far are let go
            self._answered(asks)
            raise
        if asks:
            self._ask(asks)

    def check_one(self, bucket: str, scope: str, identity: str, limit: Limit | None) -> None:
        """Count the request against `limit` for one identity of its own (e.g. a chat's
        poster); raise the 429 ApiError when it is over."""
        if limit is None:
            return
        key = f"{self.prefix}{bucket}:{scope}:{identity}"
        size = self._spend(key, scope, limit)
        if size is not None:
            self._ask([Ask(key, scope, limit, size)])

    def hold(self, address: str | None) -> Place | None:
        """A waiter's place among its address's (None: no cap); a 429 problem when the
        address holds as many as it may."""
        if self.waiters_per_address is None or not address:
            return None
        place = Place(self, f"{self.prefix}waiters:{address}", uuid.uuid4().hex)
        if not place.renew(first=True):
            raise ApiError(
                429,
                "too-many-waiters",
                "Too many requests",
                f"At most {self.waiters_per_address} streams and long polls may wait at once"
                " per address; close one first.",
                headers={"Retry-After": "1"},
            )
        return place

    def _spend(self, key: str, scope: str, limit: Limit) -> int | None:
        """Admit one request from this process's allowance for `key` (None), or say how many
        to ask Redis for: twice the last allowance, at most a share of the limit. One thread
        asks for a key at a time; the others wait for its answer, lest each thread's ask
        replace another's allowance."""
        while True:
            now = time.monotonic()
            with self._lock:
                allowance = self._allowances.get(key)
                if allowance is not None and now < allowance.ends:
                    if allowance.refused:
                        raise _refusal(scope, limit, math.ceil((allowance.ends - now) * 1000))
                    if allowance.left > 0:
                        allowance.left -= 1
                        return None
                asking = self._asking.get(key)
                if asking is None:
                    self._asking[key] = threading.Event()
                    last = allowance.size if allowance is not None else 0
                    return max(1, min(2 * last, limit.count // ALLOWANCE_SHARE))
            asking.wait(ASK_WAIT_SECONDS)

    def _ask(self, asks: list[Ask]) -> None:
        """Ask Redis for allowances in one call; keep them; raise the first refusal."""
        args = [
            value for ask in asks for value in (ask.limit.count, ask.size, ask.limit.seconds * 1000)
        ]
        refusals = []
        try:
            replies = self._grant([ask.key for ask in asks], args)
            now = time.monotonic()
            with self._lock:
                for ask, (granted, ttl_ms) in zip(asks, replies, strict=True):
                    allowance = Allowance(int(granted) - 1, now + ttl_ms / 1000, ask.size)
                    self._allowances.put(ask.key, allowance)
                    if granted == 0:
                        refusals.append(_refusal(ask.scope, ask.limit, int(ttl_ms)))
        finally:
            self._answered(asks)
        if refusals:
            raise refusals[0]

    def _answered(self, asks: list[Ask]) -> None:
        """These asks are over: threads waiting on them look at the allowances again."""
        with self._lock:
            answered = [self._asking.pop(ask.key) for ask in asks]
        for event in answered:
            event.set()

    def _grant(self, keys: list[str], args: list[int]) -> list[Any]:
        """[granted, ttl ms] per key, in one script call."""
        if not isinstance(self.redis, RedisCluster):
            replies: list[Any] = self._script(keys=keys, args=args)
            return replies
        # A cluster script may not span slots: one call per key, each to its node.
        return [
            reply
            for index, key in enumerate(keys)
            for reply in self._script(keys=[key], args=args[3 * index : 3 * index + 3])
        ]


class Place:
    """A waiter's place in its address's set: renewed while it waits, given up after."""

    def __init__(self, limiter: RateLimiter, key: str, waiter: str) -> None:
        self.limiter, self.key, self.waiter = limiter, key, waiter
        self.renewed = 0.0

    def renew(self, *, first: bool = False) -> bool:
        """Take (first) or keep the place for another lease; False when it is refused."""
        now = time.time()
        if not first and now - self.renewed < LEASE_SECONDS / 2:
            return True
        lease_ms = int(LEASE_SECONDS * 1000)
        cap = (self.limiter.waiters_per_address or 0) if first else 2**31
        now_ms = int(now * 1000)
        args: list[int | str] = [now_ms, now_ms + lease_ms, cap, self.waiter, lease_ms]
        taken = bool(self.limiter._hold(keys=[self.key], args=args))
        self.renewed = now
        return taken

    def release(self) -> None:
        """Give the place up (the waiter is done)."""
        with contextlib.suppress(Exception):  # a lost Redis: the lease ends by itself
            self.limiter._release(keys=[self.key], args=[self.waiter])


def count_against(bucket: str, limit: Limit | None, player: str | None, what: str) -> None:
    """Count one of `what` (e.g. "guests") against `limit` per player, given one, and per client
    address; a 429 problem naming `what` when either is over it (a player's refusal spends
    nothing of its address's)."""
    if limit is None:
        return
    for scope, identity in (("player", player), ("address", request.remote_addr)):
        if not identity:
            continue
        try:
            limiter().check_one(bucket, scope, identity, limit)
        except ApiError as error:
            retry_after = error.headers.get("Retry-After", "1")
            raise ApiError(
                429,
                "rate-limited",
                "Too many requests",
                f"At most {limit.count} {what} per {limit.seconds} s per {scope}; retry in"
                f" {retry_after} s.",
                headers=error.headers,
                scope=scope,
            ) from None


def count_bot_table(bots: Iterable[str | None], player: str | None) -> None:
    """Count a table about to be opened (or played again) against the budget of tables with
    thinking bots, when any of `bots` (its seats' and its takeover bot) is one."""
    if THINKING_BOTS.isdisjoint(bots):
        return
    limit = services().settings.bot_tables
    count_against("bot-tables", limit, player, "tables with search or hard bots")


def _refusal(scope: str, limit: Limit, ttl_ms: int) -> ApiError:
    """The 429 problem of a request over `limit`, `ttl_ms` before its window ends."""
    retry_after = max(1, math.ceil(ttl_ms / 1000))
    return ApiError(
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
            identity = seat() if seat is not None else None
            limiter().check(bucket, request.remote_addr, identity)
            return view(*args, **kwargs)

        return problems(429)(cast(F, limited))

    return decorate


def install_limiter(app: Flask, limiter: RateLimiter) -> None:
    """Give the app its limiter (what `rate_limited` views count with)."""
    app.extensions[EXTENSION] = limiter


def limiter() -> RateLimiter:
    """The current app's limiter."""
    found: RateLimiter = current_app.extensions[EXTENSION]
    return found
