"""The API benchmark measures the service's own seat limit."""

from bench.api import SEAT_LIMIT
from play.settings import Settings, parse_limit


def test_the_benchmark_seat_limit_is_the_service_default() -> None:
    assert parse_limit(SEAT_LIMIT) == Settings().rate_limit_seat
