"""The folder archive: compressed export lines per game, written whole, kept inside the folder
whatever the game id."""

from __future__ import annotations

from pathlib import Path

import pytest

from events.archive import DirectoryArchive


def test_the_folder_archive_keeps_ids_inside_it(tmp_path: Path) -> None:
    archive = DirectoryArchive(tmp_path / "archive")
    for game_id in ("..", ".", "a-b_c~d", "x" * 200):
        archive.put(game_id, ['{"version":1}', '{"version":2}'])
        assert archive.get(game_id) == ['{"version":1}', '{"version":2}']
        assert archive.path(game_id).resolve().is_relative_to((tmp_path / "archive").resolve())
    archive.put("..", ['{"version":1}'])  # replaced whole
    assert archive.get("..") == ['{"version":1}']
    assert sorted(archive.list()) == sorted(["..", ".", "a-b_c~d", "x" * 200])
    assert archive.get("missing") is None and not archive.exists("missing")
    with pytest.raises(ValueError):
        archive.path("../etc")
    assert not list((tmp_path / "archive").rglob("*.part"))


def test_a_games_chat_is_archived_beside_it_and_is_no_game(tmp_path: Path) -> None:
    """The chat's file can't be taken for a game's, even one whose id ends like it."""
    archive = DirectoryArchive(tmp_path / "archive")
    archive.put("g", ['{"version":1}'])
    archive.put("g.chat", ['{"version":1}'])
    assert archive.get_chat("g") == []
    archive.put_chat("g", ['{"id":"1-0"}', '{"holder":"p","muted":["1"]}'])
    assert archive.get_chat("g") == ['{"id":"1-0"}', '{"holder":"p","muted":["1"]}']
    assert archive.get("g.chat") == ['{"version":1}']
    assert sorted(archive.list()) == ["g", "g.chat"]
