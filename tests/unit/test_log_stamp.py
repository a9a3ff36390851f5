"""The log lines' time: what datetime's isoformat writes, faster."""

from __future__ import annotations

import datetime

from hypothesis import given
from hypothesis import strategies as st

from play.logs import utc_stamp


def by_datetime(ns: int) -> str:
    """The time as datetime.now(UTC).isoformat() would write it, with Z."""
    second, rest = divmod(ns, 1_000_000_000)
    when = datetime.datetime.fromtimestamp(second, datetime.UTC).replace(microsecond=rest // 1000)
    return when.isoformat().replace("+00:00", "Z")


@given(st.integers(min_value=0, max_value=4_102_444_800 * 10**9))
def test_the_stamp_is_datetimes_isoformat(ns: int) -> None:
    assert utc_stamp(ns) == by_datetime(ns)


def test_whole_seconds_and_the_same_second_again() -> None:
    assert utc_stamp(1_764_633_600_000_000_000) == "2025-12-02T00:00:00Z"
    assert utc_stamp(1_764_633_600_000_000_999) == "2025-12-02T00:00:00Z"
    assert utc_stamp(1_764_633_600_001_000_000) == "2025-12-02T00:00:00.001000Z"
    assert utc_stamp(1_764_633_601_000_001_000) == "2025-12-02T00:00:01.000001Z"
