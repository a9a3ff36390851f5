"""Deadlines are scheduled on whole seconds, rounded up: never before they are due."""

from __future__ import annotations

from datetime import UTC, datetime

from workers.path import not_before


def test_a_fraction_of_a_second_rounds_up() -> None:
    assert not_before(1_764_480_000.001) == datetime(2025, 11, 30, 5, 20, 1, tzinfo=UTC)


def test_a_whole_second_stays() -> None:
    assert not_before(1_764_480_000.0) == datetime(2025, 11, 30, 5, 20, tzinfo=UTC)
