"""The commands that read games, as an operator runs them: which Redis they read (said on
stderr), a clear refusal when there is none, export of every game, verify of a game not over."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from events.connection import RedisClient
from events.redis_server import EmbeddedRedis
from play.context import Context
from play.settings import Settings
from service.cli import main
from tests.integration.test_games import open_table, play_through
from tests.redis_keys import delete_namespace, delete_queue, new_namespace

MAIN = "import sys; from service.cli import main; sys.exit(main())"


def loveletter(env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run `loveletter ARGS` as a user would (a fresh process)."""
    return subprocess.run(
        [sys.executable, "-c", MAIN, *args],
        env=env, cwd=cwd, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


@pytest.mark.parametrize(
    "command", [["export", "some-game"], ["export", "--all", "out"], ["rebuild"]]
)
def test_without_a_redis_a_reading_command_says_so_and_starts_none(
    tmp_path: Path, subprocess_env: dict[str, str], command: list[str]
) -> None:
    """No REDIS_URL and no `loveletter serve` for the data folder: a clear refusal naming both
    settings, and no empty Redis started (nor its folder made)."""
    env = {**subprocess_env, "LOVELETTER_DATA_DIR": str(tmp_path / "data")}
    done = loveletter(env, tmp_path, *command)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "REDIS_URL" in done.stderr and "LOVELETTER_DATA_DIR" in done.stderr
    assert str(tmp_path / "data") in done.stderr
    assert not (tmp_path / "data").exists() and not (tmp_path / ".loveletter").exists()
    assert not (tmp_path / "out").exists()


def test_a_reading_command_uses_the_server_running_for_the_data_folder(
    tmp_path: Path, subprocess_env: dict[str, str]
) -> None:
    """As beside a running `loveletter serve`: its embedded server is read, and named."""
    env = {**subprocess_env, "LOVELETTER_DATA_DIR": str(tmp_path / "data")}
    with EmbeddedRedis(tmp_path / "data" / "redis") as server:
        url = server.url
        done = loveletter(env, tmp_path, "export", "no-such-game")
    assert done.returncode == 1, done.stderr
    assert f"reading games from {url} (the embedded server of {tmp_path / 'data'})" in done.stderr
    assert "no game 'no-such-game'" in done.stderr


@pytest.fixture
def reading(
    redis_url: str, single_client: RedisClient, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Context]:
    """The environment of an operator whose REDIS_URL names the games' Redis (in a namespace
    of this test's); the context of the use cases on it."""
    name = new_namespace("cli")
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("LOVELETTER_NAMESPACE", name)
    yield Context.on(single_client, Settings(namespace=name, queue=name))
    delete_namespace(single_client, name)
    delete_queue(single_client, name)


def test_export_all_writes_every_game_and_names_the_redis(
    reading: Context, redis_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for number in range(3):
        open_table(reading, f"all-{number}", "classic", 2, f"seed-{number}")
    assert main(["export", "--all", str(tmp_path / "games")]) == 0
    found = sorted(path.name for path in (tmp_path / "games").iterdir())
    assert found == ["all-0.jsonl", "all-1.jsonl", "all-2.jsonl"]
    out, err = capsys.readouterr()
    assert f"reading games from {redis_url} (REDIS_URL)" in err
    assert "exported 3 game(s)" in out
    assert main(["verify", str(tmp_path / "games" / "all-1.jsonl")]) == 0


def test_verify_says_a_game_is_not_over(
    reading: Context, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game still being played verifies as far as it went, and says it is not over; once
    over, it verifies whole."""
    open_table(reading, "going", "2019", 2, "unfinished")
    path = tmp_path / "going.jsonl"
    assert main(["export", "going", "--out", str(path)]) == 0
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert "verified so far: the game is not over (playing)" in out, out
    assert "1 deal(s) will open when their rounds end" in out, out
    play_through(reading, "going", 5)
    assert main(["export", "going", "--out", str(path)]) == 0
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("verified: ") and "not over" not in out, out


def test_rebuild_reads_the_configured_redis(
    reading: Context, redis_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    open_table(reading, "rebuilt", "classic", 2, "r")
    assert main(["rebuild"]) == 0
    out, err = capsys.readouterr()
    assert f"reading games from {redis_url} (REDIS_URL)" in err
    assert "index: " in out


def test_rebuild_recomputes_the_ratings_with_the_same_numbers(
    reading: Context, single_client: RedisClient, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three ranked games and a lost ratings hash: `loveletter rebuild` writes back every
    ratings key with the very values the live projection wrote."""
    from game.table import AbandonSeat
    from play.lobby import send_to_table
    from tests.integration.test_ratings import ranked_table, snapshot

    for n, players in enumerate([["ann", "bob"], ["bob", "cy"], ["cy", "ann"]]):
        ranked_table(reading, f"cli{n}", players)
        for seat in (n % 2, 1 - n % 2):
            send_to_table(reading, f"cli{n}", AbandonSeat(seat), {"by": "test"})
    live = snapshot(single_client, reading.settings.namespace)
    assert len(live) > 5
    single_client.delete(reading.ratings.ratings_key("2019"))  # lost, say
    assert main(["rebuild"]) == 0
    assert "ratings: 3 table(s) read; finished games: 2019 3 (3 rated)" in capsys.readouterr().out
    assert snapshot(single_client, reading.settings.namespace) == live


def test_rebuild_lists_player_tokens_made_before_devices_were(
    reading: Context, single_client: RedisClient, capsys: pytest.CaptureFixture[str]
) -> None:
    """A token an older service made (its key only, no device): `rebuild` lists it among its
    player's devices, so revoking every other device reaches it too; a second run lists none."""
    from events.players import Player, digest
    from play.players import new_guest, new_player_token

    player, token = new_guest(reading, "ann")
    old = new_player_token()
    single_client.set(f"{reading.settings.namespace}:player-token:{digest(old)}", player.id)
    assert len(reading.devices.devices(player.id)) == 1
    assert main(["rebuild"]) == 0
    assert "devices: 1 player token(s) listed that were not" in capsys.readouterr().out
    listed = reading.devices.devices(player.id)
    assert len(listed) == 2 and [d.created_at is None for d in listed].count(True) == 1
    assert reading.devices.revoke_all(player.id, keep=listed[0].id) == 1
    assert reading.players.by_token(old) is None and reading.players.by_token(token) == player.id
    assert main(["rebuild"]) == 0
    assert "devices: 0 player token(s) listed that were not" in capsys.readouterr().out
    assert isinstance(reading.players.get(player.id), Player)
