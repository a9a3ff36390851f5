"""Long polls through real gunicorn: with nothing happening, the feed answers 200 and no events
once its `wait` is over, for every wait up to the documented maximum."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from service.schemas.games import MAX_WAIT_SECONDS


def quiet_game(base_url: str) -> tuple[str, int]:
    """A game waiting for a second player who never comes: its id and version."""
    created = requests.post(
        f"{base_url}/games",
        json={"edition": "2019", "seats": ["human", "human"], "name": "ann"},
        timeout=10,
    )
    assert created.status_code == 201, created.text
    game = created.json()["game"]
    return game["id"], game["version"]


def poll(base_url: str, game: str, after: int, wait: float) -> tuple[requests.Response, float]:
    """GET the feed with this wait; the answer and how long it took."""
    start = time.monotonic()
    response = requests.get(
        f"{base_url}/games/{game}/events", params={"after": after, "wait": wait}, timeout=wait + 30
    )
    return response, time.monotonic() - start


@pytest.mark.slow
def test_long_polls_with_nothing_happening_answer_200_after_their_wait(gunicorn_app: str) -> None:
    """8 seconds (beyond the Redis client's 5-second socket timeout) and the maximum, at once."""
    game, version = quiet_game(gunicorn_app)
    waits = (8.0, float(MAX_WAIT_SECONDS))
    with ThreadPoolExecutor(len(waits)) as pool:
        answers = list(pool.map(lambda wait: poll(gunicorn_app, game, version, wait), waits))
    for wait, (response, took) in zip(waits, answers, strict=True):
        assert response.status_code == 200, (wait, response.text)
        assert response.json() == {"version": version, "events": []}
        assert wait <= took < wait + 10, (wait, took)  # its whole wait, then the answer


def test_a_wait_beyond_the_maximum_is_refused(gunicorn_app: str) -> None:
    game, version = quiet_game(gunicorn_app)
    response, took = poll(gunicorn_app, game, version, MAX_WAIT_SECONDS + 1)
    assert response.status_code == 422, response.text
    assert "wait" in response.json()["errors"]["query"]
    assert took < MAX_WAIT_SECONDS / 2  # refused at once, never waited
