"""Long polls through real gunicorn: with nothing happening, the feed answers 200 and no events
once its `wait` is over, for every wait up to the documented maximum."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from service.cli import bench_api
from service.schemas.games import MAX_WAIT_SECONDS


@pytest.fixture
def live_app(redis_url: str, namespace: str) -> Iterator[str]:
    """The app under gunicorn (one worker, four threads) in this test's namespace."""
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "LOVELETTER_NAMESPACE": namespace,
        "LOVELETTER_QUEUE": namespace,
    }
    with bench_api._server(bench_api.COMMAND_APP, env, 1, 4) as base_url:
        yield base_url


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
def test_long_polls_with_nothing_happening_answer_200_after_their_wait(live_app: str) -> None:
    """8 seconds (beyond the Redis client's 5-second socket timeout) and the maximum, at once."""
    game, version = quiet_game(live_app)
    waits = (8.0, float(MAX_WAIT_SECONDS))
    with ThreadPoolExecutor(len(waits)) as pool:
        answers = list(pool.map(lambda wait: poll(live_app, game, version, wait), waits))
    for wait, (response, took) in zip(waits, answers, strict=True):
        assert response.status_code == 200, (wait, response.text)
        assert response.json() == {"version": version, "events": []}
        assert wait <= took < wait + 3, (wait, took)


def test_a_wait_beyond_the_maximum_is_refused(live_app: str) -> None:
    game, version = quiet_game(live_app)
    response, took = poll(live_app, game, version, MAX_WAIT_SECONDS + 1)
    assert response.status_code == 422, response.text
    assert "wait" in response.json()["errors"]["query"]
    assert took < 2
