"""What `loveletter serve` writes while a game is played, as an operator reads it: JSON lines
(its output is not a terminal), one per request with its id, method, path, status, duration,
game and seat, never a token; RQ quiet unless --verbose; the banner once everything is up."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

import pytest

from tests.e2e.conftest import Serve, Served

BANNER_FIRST, BANNER_LAST = "Love Letter  ", "Ctrl-C stops everything."


def call(
    served: Served, method: str, path: str, body: Any = None, **headers: str
) -> tuple[int, dict[str, str], Any]:
    """Status, headers and JSON body of one request (problems included)."""
    data = None if body is None else json.dumps(body).encode()
    if data is not None:
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(served.base + path, data, headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, dict(answer.headers), json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read() or b"null")


def play(served: Served, token: str, game: str) -> int:
    """Send the first legal command until the game is over (following the feed on the bot's
    turns); how many commands were sent."""
    auth = {"Authorization": f"Bearer {token}"}
    sent = 0
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        status, headers, view = call(served, "GET", f"/games/{game}", **auth)
        assert status == 200, view
        if view["game"]["status"] == "over":
            return sent
        if view["legal"]:
            status, _, answer = call(
                served, "POST", f"/games/{game}/commands", view["legal"][0], **auth,
                **{"If-Match": headers["ETag"], "Idempotency-Key": f"move-{sent}"},
            )  # fmt: skip
            assert status == 200, answer
            sent += 1
        else:
            after = headers["ETag"].strip('"')
            call(served, "GET", f"/games/{game}/events?after={after}&wait=5", **auth)
    raise AssertionError(served.output())


def lines(output: str) -> tuple[list[dict[str, Any]], list[str], list[dict[str, Any]]]:
    """The JSON lines before the banner, the banner, and the JSON lines after it; anything else
    fails the test."""
    before: list[dict[str, Any]] = []
    after: list[dict[str, Any]] = []
    banner: list[str] = []
    for line in output.splitlines():
        if line.startswith(BANNER_FIRST) or (banner and banner[-1] != BANNER_LAST):
            banner.append(line)
            continue
        (after if banner else before).append(json.loads(line))  # JSON, or this fails
    assert banner and banner[-1] == BANNER_LAST, output
    return before, banner, after


@pytest.mark.slow
def test_one_json_line_per_request_with_its_id_and_never_a_token(serve: Serve) -> None:
    served = serve("--workers", "1", "--threads", "4")
    body = {"edition": "2019", "seats": ["human", "random"], "name": "ann"}
    status, headers, created = call(served, "POST", "/games", body, **{"X-Request-ID": "trace-1"})
    assert status == 201 and headers["X-Request-ID"] == "trace-1"
    token, game = created["token"], created["game"]["id"]
    commands = play(served, token, game)
    status, headers, problem = call(
        served, "GET", "/games/no-such-game", **{"X-Request-ID": "not an id!"}
    )
    assert status == 404 and problem["request_id"] == headers["X-Request-ID"] != "not an id!"

    output = served.output()
    assert token not in output
    before, _, after = lines(output)
    assert not [line for line in before + after if line["logger"].startswith("rq")]
    requests = [line for line in after if line["logger"] == "loveletter.requests"]
    assert requests == after, [line for line in after if line not in requests]  # only requests
    for line in requests:
        assert {"request_id", "method", "path", "status", "duration_ms", "game", "seat",
                "timestamp", "level"} <= set(line), line  # fmt: skip
        assert isinstance(line["duration_ms"], float) and len(line["request_id"]) >= 7
    first = next(line for line in requests if line["path"] != "/healthz")  # the fixture polls
    assert (first["request_id"], first["method"], first["path"]) == ("trace-1", "POST", "/games")
    assert (first["status"], first["game"], first["seat"]) == (201, game, 0)
    moves = [line for line in requests if line["path"] == f"/games/{game}/commands"]
    assert len(moves) == commands and {(m["status"], m["seat"]) for m in moves} == {(200, 0)}
    missing = [line for line in requests if line["path"] == "/games/no-such-game"]
    assert [line["request_id"] for line in missing] == [problem["request_id"]]
    assert missing[0]["status"] == 404 and missing[0]["seat"] is None
    served.stop()


@pytest.mark.slow
def test_verbose_shows_what_rq_does(serve: Serve) -> None:
    served = serve("--workers", "1", "--threads", "2", "--verbose")
    status, _, created = call(
        served, "POST", "/games", {"edition": "2019", "seats": ["random", "random"]}
    )
    assert status == 201
    deadline = time.monotonic() + 60
    while call(served, "GET", f"/games/{created['game']['id']}")[2]["game"]["status"] != "over":
        assert time.monotonic() < deadline, served.output()
        time.sleep(0.5)
    before, _, after = lines(served.output())
    rq = [line for line in before + after if line["logger"].startswith("rq")]
    assert any("bot_turn" in line["event"] for line in rq), rq[:5]
    served.stop()
