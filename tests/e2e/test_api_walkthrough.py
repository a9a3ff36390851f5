"""The curl walkthrough of docs/api.md, run as written against `loveletter serve`: a whole game."""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.conftest import REPO_ROOT, Serve, Served

SECTION = "## A whole game with curl"


def walkthrough() -> list[str]:
    """The shell blocks of the walkthrough, in order."""
    text = (REPO_ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.*?)```", section, flags=re.DOTALL)


@pytest.fixture(scope="module")
def server(serve: Serve) -> Iterator[Served]:
    """A server for the walkthrough, stopped with SIGTERM at the end (nothing left)."""
    served = serve("--workers", "1", "--threads", "4")
    yield served
    served.stop(signal.SIGTERM)


def test_the_readme_walkthrough_plays_a_whole_game(server: Served, tmp_path: Path) -> None:
    """Every block runs in one shell, in order; the game ends with a winner printed."""
    assert shutil.which("curl") and shutil.which("bash"), "the walkthrough needs curl and bash"
    blocks = walkthrough()
    assert len(blocks) >= 5, "the walkthrough lost some of its steps"
    script = "\n".join(blocks).replace("API=http://127.0.0.1:8000", f"API={server.base}")
    assert f"API={server.base}" in script
    done = subprocess.run(
        ["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"winners: \[.+\]", done.stdout), done.stdout + done.stderr
