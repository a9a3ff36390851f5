"""A long poll of a quiet game waits its whole `wait`, however long (up to the 30 s allowed)."""

from __future__ import annotations

import time

import pytest
from flask.testing import FlaskClient

from tests.api.players import new_game

QUIET_SECONDS = 6.0  # longer than redis-py's default read timeout (5 s)


@pytest.mark.slow
def test_a_quiet_feed_answers_after_its_whole_wait(client: FlaskClient) -> None:
    """No event comes: the answer is 200 with no events once `wait` has passed (not a 503)."""
    _, players = new_game(client, "classic", ["human", "human"])
    head = players[0].feed().json["version"]
    started = time.monotonic()
    answer = players[0].feed(after=head, wait=QUIET_SECONDS)
    waited = time.monotonic() - started
    assert answer.status_code == 200, answer.json
    assert answer.json["events"] == [] and answer.json["version"] == head
    assert QUIET_SECONDS - 0.5 <= waited < QUIET_SECONDS + 10
