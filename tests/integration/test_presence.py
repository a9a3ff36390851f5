"""Presence on a real Redis: a player seen for the first time is written at once; seen again, the
renewal goes out in the background (one pipeline for every renewal due), never in the request."""

from __future__ import annotations

import time

import pytest

from events.connection import RedisClient
from events.players import Presence

pytestmark = pytest.mark.redis


def test_a_first_touch_is_written_at_once_and_a_renewal_in_the_background(
    client: RedisClient, namespace: str
) -> None:
    presence = Presence(client, namespace=namespace, every=1.0, ttl=75)
    presence.touch("ann")
    assert presence.here(["ann", "bob"]) == [True, False]
    client.delete(presence.key("ann"))  # so that a write of the renewal shows
    presence.touch("ann")  # within `every`: nothing to write
    time.sleep(1.05)
    presence.touch("ann")  # a renewal: left to the background writer
    assert presence.here(["ann"]) == [False]
    deadline = time.monotonic() + 5
    while not presence.here(["ann"])[0] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert presence.here(["ann"]) == [True]
    assert 70 <= int(client.ttl(presence.key("ann"))) <= 75


def test_renewals_due_are_written_by_flush_in_one_go(client: RedisClient, namespace: str) -> None:
    presence = Presence(client, namespace=namespace, every=0.2, ttl=75)
    names = [f"p{number}" for number in range(50)]
    for name in names:
        presence.touch(name)
    client.delete(*[presence.key(name) for name in names])
    time.sleep(0.25)
    for name in names:
        presence.touch(name)
    presence.flush()
    assert presence.here(names) == [True] * len(names)
