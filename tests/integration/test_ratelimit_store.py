"""The rate limiter's counting in Redis, on a single server and on a cluster."""

from __future__ import annotations

import pytest

from events.connection import RedisClient
from service.config import Limit
from service.errors import ApiError
from service.ratelimit import RateLimiter

pytestmark = pytest.mark.redis


def limiter(client: RedisClient, namespace: str) -> RateLimiter:
    """3 requests per address and 2 per seat, per minute."""
    return RateLimiter(
        client, namespace=namespace, address_limit=Limit(3, 60), seat_limit=Limit(2, 60)
    )


def test_both_counters_count_and_expire_with_their_window(
    client: RedisClient, namespace: str
) -> None:
    limits = limiter(client, namespace)
    limits.check("commands", "10.0.0.1", "ann")
    limits.check("commands", "10.0.0.1", "bob")
    address = f"{namespace}:ratelimit:commands:address:10.0.0.1"
    seats = [f"{namespace}:ratelimit:commands:seat:{name}" for name in ("ann", "bob")]
    assert [int(client.get(key) or 0) for key in (address, *seats)] == [2, 1, 1]
    assert all(0 < client.pttl(key) <= 60_000 for key in (address, *seats))


def test_the_first_limit_passed_is_refused_with_its_scope(
    client: RedisClient, namespace: str
) -> None:
    limits = limiter(client, namespace)
    for _ in range(2):
        limits.check("commands", "10.0.0.1", "ann")
    with pytest.raises(ApiError) as seat_refusal:
        limits.check("commands", "10.0.0.1", "ann")
    assert seat_refusal.value.status == 429 and seat_refusal.value.extra["scope"] == "seat"
    with pytest.raises(ApiError) as address_refusal:
        limits.check("commands", "10.0.0.1", "cat")
    assert address_refusal.value.extra["scope"] == "address"


def test_a_flushed_script_cache_is_loaded_again(client: RedisClient, namespace: str) -> None:
    client.script_flush()
    limiter(client, namespace).check("commands", "10.0.0.9", "dee")
    assert int(client.get(f"{namespace}:ratelimit:commands:seat:dee") or 0) == 1
