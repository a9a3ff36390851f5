"""Deadlines are scheduled on whole seconds, rounded up: never before they are due."""

from __future__ import annotations

from play.follow_up import deadline


def test_a_fraction_of_a_second_rounds_up() -> None:
    assert deadline(1_764_480_000.001, 30) == 1_764_480_031.0


def test_a_whole_second_stays() -> None:
    assert deadline(1_764_480_000.0, 30) == 1_764_480_030.0
