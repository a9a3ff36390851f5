"""The storage lifecycle through the API, on real Redis: a finished game old enough leaves Redis
for the archive, and its views, feed, replays, export and verification are what they were; a
game not over, or over too recently, stays; a rematch brings an archived game back."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask

from events.audit import verify_lines
from events.connection import RedisClient
from play.archive import archive_finished
from service.cli import main
from service.deps import services
from tests.api.players import Player, new_game
from tests.api.test_fair_deals import finish

AUDITOR = {"Authorization": "Bearer audit-secret"}


def everything_seen(player: Player, game: str) -> dict[str, object]:
    """What the API shows of a game: each seat's view and feed, a spectator's, the
    auditor's feed, and replays at a few versions."""
    client = player.client
    head = int(player.look().headers["ETag"].strip('"'))
    return {
        "view": player.look().json,
        "etag": player.look().headers["ETag"],
        "feed": player.feed().json,
        "feed after 5": player.feed(after=5).json,
        "spectator": client.get(f"/games/{game}").json,
        "auditor": client.get(f"/games/{game}/events", headers=AUDITOR).json,
        "replays": [
            client.get(f"/games/{game}/versions/{v}", headers=player.auth()).json
            for v in (1, 6, head)
        ],
    }


def test_a_finished_game_is_archived_and_still_served(
    make_app: Callable[..., Flask],
    redis_client: RedisClient,
    namespace: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = tmp_path / "archive"
    app = make_app(
        {"LOVELETTER_ARCHIVE_DIR": str(folder), "LOVELETTER_AUDITOR_TOKEN": "audit-secret"}
    )
    client = app.test_client()
    ctx = services(app).context
    done, done_players = new_game(client, "classic", ["human", "human"])
    playing, _ = new_game(client, "classic", ["human", "human"])
    finish(done_players)
    before = everything_seen(done_players[0], done)
    stored = [(e.version, e.event, e.meta) for e in ctx.games.store.read(done)]

    # Over, but not for long enough: everything stays.
    report = archive_finished(ctx, older_than=3600)
    assert report.archived == 0
    assert list(redis_client.scan_iter(match=f"{namespace}:{{{done}}}:*"))

    report = archive_finished(ctx, now=time.time() + 1, older_than=0)
    assert report.archived == 1
    assert not list(redis_client.scan_iter(match=f"{namespace}:{{{done}}}:*"))  # nothing left
    assert list(redis_client.scan_iter(match=f"{namespace}:{{{playing}}}:*"))  # not over: stays
    assert ctx.games.archive is not None
    assert ctx.games.archive.exists(done) and not ctx.games.archive.exists(playing)
    listed = client.get("/games?status=over").json["games"]
    assert done not in [game["id"] for game in listed]  # it left the lobby too

    assert everything_seen(done_players[0], done) == before
    view = done_players[0].look().json
    assert client.get(f"/games/{done}/versions/{view['game']['version'] + 1}").status_code == 404
    refused = done_players[0].send({"type": "forfeit"})
    assert refused.status_code == 409 and refused.json["code"] == "game-over"

    # `loveletter export` finds it in the archive, and `loveletter verify` proves it.
    for name, value in {
        "REDIS_URL": app.config["REDIS_URL"],
        "LOVELETTER_NAMESPACE": namespace,
        "LOVELETTER_ARCHIVE_DIR": str(folder),
    }.items():
        monkeypatch.setenv(name, value)
    exported = tmp_path / "game.jsonl"
    assert main(["export", done, "-o", str(exported)]) == 0
    assert verify_lines(exported.read_text().splitlines()).ok
    assert main(["verify", str(exported)]) == 0
    assert "verified" in capsys.readouterr().out

    # Playing again at the table brings the game back into Redis, its history whole.
    again = client.post(f"/games/{done}/rematch", headers=done_players[0].auth())
    assert again.status_code == 200, again.json
    assert again.json["game"]["status"] == "playing"
    assert int(again.headers["ETag"].strip('"')) > len(stored)
    assert list(redis_client.scan_iter(match=f"{namespace}:{{{done}}}:*"))
    restored = [(e.version, e.event, e.meta) for e in ctx.games.store.read(done)]
    assert restored[: len(stored)] == stored
    assert main(["export", done, "-o", str(exported)]) == 0
    assert verify_lines(exported.read_text().splitlines()).ok
