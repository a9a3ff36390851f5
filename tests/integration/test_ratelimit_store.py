"""The rate limiter's allowances in Redis, on a single server and on a cluster."""

from __future__ import annotations

import threading
import uuid
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.connection import RedisClient
from play.settings import Limit
from service.errors import ApiError
from service.ratelimit import ALLOWANCE_SHARE, RateLimiter

pytestmark = pytest.mark.redis


def limiter(client: RedisClient, namespace: str, address: int = 3, seat: int = 2) -> RateLimiter:
    """`address` requests per address and `seat` per seat, per minute."""
    return RateLimiter(
        client,
        namespace=namespace,
        address_limit=Limit(address, 60),
        seat_limit=Limit(seat, 60),
    )


def admitted(limits: RateLimiter, seat: str, address: str = "10.0.0.1") -> bool:
    """Whether one request is admitted."""
    try:
        limits.check("commands", address, seat)
    except ApiError as refusal:
        assert refusal.status == 429
        return False
    return True


class CountingRoundTrips:
    """Counts the limiter's calls to Redis."""

    def __init__(self, limits: RateLimiter) -> None:
        self.calls = 0
        grant = limits._grant

        def counted(keys: list[str], args: list[int]) -> list[Any]:
            self.calls += 1
            return grant(keys, args)

        limits._grant = counted  # type: ignore[method-assign]


def test_redis_holds_what_was_granted_with_the_window_expiry(
    client: RedisClient, namespace: str
) -> None:
    limits = limiter(client, namespace, address=100, seat=100)
    for _ in range(3):
        assert admitted(limits, "ann")
    address = f"{namespace}:ratelimit:commands:address:10.0.0.1"
    seat = f"{namespace}:ratelimit:commands:seat:ann"
    # allowances of 1 then 2 (a sixteenth of 100 is 6): 3 granted, all spent
    assert [int(client.get(key) or 0) for key in (address, seat)] == [3, 3]
    assert all(0 < client.pttl(key) <= 60_000 for key in (address, seat))


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


def test_one_process_admits_exactly_the_limit(client: RedisClient, namespace: str) -> None:
    limits = limiter(client, namespace, address=1000, seat=50)
    outcomes = [admitted(limits, "ann") for _ in range(60)]
    assert outcomes == [True] * 50 + [False] * 10
    assert int(client.get(f"{namespace}:ratelimit:commands:seat:ann") or 0) == 50


def test_allowances_spare_round_trips(client: RedisClient, namespace: str) -> None:
    limits = limiter(client, namespace, address=10_000, seat=1000)
    trips = CountingRoundTrips(limits)
    assert all(admitted(limits, "ann") for _ in range(100))
    # allowances of 1, 2, 4, ..., 62 (a sixteenth of 1000): 7 asks cover 100 requests
    assert trips.calls == 7


def test_a_refusal_is_remembered_until_its_window_ends(client: RedisClient, namespace: str) -> None:
    limits = limiter(client, namespace, address=1000, seat=1)
    assert admitted(limits, "ann")
    trips = CountingRoundTrips(limits)
    for _ in range(5):
        with pytest.raises(ApiError) as refusal:
            limits.check("commands", "10.0.0.1", "ann")
        assert 1 <= int(refusal.value.headers["Retry-After"]) <= 60
    assert trips.calls == 1


def test_a_small_limit_asks_for_one_at_a_time(client: RedisClient, namespace: str) -> None:
    first, second = limiter(client, namespace, seat=5), limiter(client, namespace, seat=5)
    statuses = [admitted(limits, "ann", address=f"10.0.0.{i}")
                for i, limits in enumerate([first, second] * 4)]  # fmt: skip
    assert statuses == [True] * 5 + [False] * 3


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    limit=st.integers(min_value=1, max_value=200),
    processes=st.integers(min_value=1, max_value=3),
    senders=st.lists(st.integers(min_value=0, max_value=2), min_size=1, max_size=300),
)
def test_no_window_admits_more_than_its_limit(
    client: RedisClient, namespace: str, limit: int, processes: int, senders: list[int]
) -> None:
    """However requests are spread over processes: at most the limit, and no fewer than the
    limit less what the other processes may hold unspent."""
    seat = uuid.uuid4().hex  # a new key for each example
    limiters = [limiter(client, namespace, address=10**6, seat=limit) for _ in range(processes)]
    outcomes = [admitted(limiters[sender % processes], seat) for sender in senders]
    count = sum(outcomes)
    assert count <= limit
    unspent = (processes - 1) * max(1, limit // ALLOWANCE_SHARE)
    assert count >= min(len(senders), limit - unspent)
    client.delete(f"{namespace}:ratelimit:commands:seat:{seat}")


def test_a_flushed_script_cache_is_loaded_again(client: RedisClient, namespace: str) -> None:
    client.script_flush()
    limiter(client, namespace).check("commands", "10.0.0.9", "dee")
    assert int(client.get(f"{namespace}:ratelimit:commands:seat:dee") or 0) == 1


@pytest.mark.parametrize("processes", [1, 2, 3])
def test_sixty_concurrent_clients_get_their_limit(
    client: RedisClient, namespace: str, processes: int
) -> None:
    """720 requests from 60 threads of one address over 1-3 limiters (API processes), limit
    600: at most 600 admitted, and at least 600 less what the other limiters may hold."""
    limits = [limiter(client, namespace, address=600, seat=10_000) for _ in range(processes)]
    barrier = threading.Barrier(60)
    counts: list[int] = []

    def client_thread(number: int) -> None:
        mine = limits[number % processes]
        barrier.wait()
        counts.append(sum(admitted(mine, f"seat-{number}") for _ in range(12)))

    threads = [threading.Thread(target=client_thread, args=(n,)) for n in range(60)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    early = (processes - 1) * 600 / ALLOWANCE_SHARE
    assert 600 - early <= sum(counts) <= 600
