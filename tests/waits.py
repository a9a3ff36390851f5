"""How the tests wait: on something they can observe, with a deadline, saying what they waited
for when it does not come (never a bare sleep standing for "it has started")."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

import requests

T = TypeVar("T")

POLL_SECONDS = 0.02


def wait_until(condition: Callable[[], T], what: str, seconds: float = 30.0) -> T:
    """Ask `condition` again and again until its answer is true; that answer. After `seconds`,
    an AssertionError naming `what` (and the last answer)."""
    deadline = time.monotonic() + seconds
    while True:
        answer = condition()
        if answer:
            return answer
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds:g} s for {what}; last seen: {answer!r}")
        time.sleep(POLL_SECONDS)


def waiters(base: str) -> float:
    """How many long polls and streams the API at `base` says wait for news now (/metrics)."""
    text = requests.get(f"{base}/metrics", timeout=10).text
    values = [
        line.split()[-1] for line in text.splitlines() if line.startswith("loveletter_waiters ")
    ]
    return sum(float(value) for value in values)


def wait_for_waiters(base: str, count: int, seconds: float = 30.0) -> None:
    """Until the API at `base` says `count` clients wait for news (parked long polls, streams)."""
    deadline = time.monotonic() + seconds
    while (seen := waiters(base)) != count:
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds:g} s for {count} waiting client(s) at {base}:"
                                 f" {seen:g} wait")  # fmt: skip
        time.sleep(POLL_SECONDS)
