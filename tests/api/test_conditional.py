"""Answers tagged with the game's version, through real gunicorn: one Date header each (the
server's), and a 304 when If-None-Match names the version."""

from __future__ import annotations

import pytest
import requests

from tests.api.test_long_poll import quiet_game

pytestmark = [pytest.mark.redis, pytest.mark.slow]


def dates(response: requests.Response) -> list[str]:
    """Every Date header of the answer, as sent (requests would join them)."""
    found: list[str] = response.raw.headers.getlist("Date")
    return found


@pytest.mark.parametrize("path", ["/games/{game}", "/games/{game}/events?after=0"])
def test_a_tagged_answer_is_dated_once_and_a_304_when_its_tag_is_named(
    gunicorn_app: str, path: str
) -> None:
    game, version = quiet_game(gunicorn_app)
    url = gunicorn_app + path.format(game=game)
    answer = requests.get(url, timeout=10)
    assert answer.status_code == 200, answer.text
    assert answer.headers["ETag"] == f'"{version}"'
    assert len(dates(answer)) == 1
    again = requests.get(url, headers={"If-None-Match": f'"{version}"'}, timeout=10)
    assert again.status_code == 304 and again.content == b""
    assert again.headers["ETag"] == f'"{version}"' and len(dates(again)) == 1
    other = requests.get(url, headers={"If-None-Match": f'"{version + 1}"'}, timeout=10)
    assert other.status_code == 200 and other.json() == answer.json()
