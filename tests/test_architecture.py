"""The dependency direction of docs/architecture.md, and the code's own checks (ruff, mypy)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OURS = ("game", "events", "service", "workers", "scenarios")
ALLOWED = {
    "game": set(),
    "events": {"game"},
    "workers": {"game", "events"},
    "service": {"game", "events", "workers", "scenarios"},
    "scenarios": {"game"},
}
IO_MODULES = {"os", "socket", "subprocess", "requests", "redis", "time", "pathlib", "io"}


def imports_of(path: Path) -> set[str]:
    """Top-level package names a module imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", OURS)
def test_each_folder_imports_only_what_it_may(package: str) -> None:
    """game imports nothing of ours; events and scenarios only game; workers game and events."""
    for path in sorted((ROOT / package).rglob("*.py")):
        ours = imports_of(path) & set(OURS) - {package}
        assert ours <= ALLOWED[package], f"{path.relative_to(ROOT)} imports {ours}"


def test_game_does_no_io() -> None:
    """The rules never touch files, sockets, processes or the clock (bots may time a search)."""
    for path in sorted((ROOT / "game").rglob("*.py")):
        found = imports_of(path) & IO_MODULES
        if path.parent.name == "bots":
            found -= {"time"}
        assert not found, f"{path.relative_to(ROOT)} imports {found}"


def test_ruff_finds_nothing() -> None:
    """The linter's rules of pyproject.toml hold everywhere."""
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", str(ROOT)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_nothing() -> None:
    """Type hints are consistent across the packages."""
    done = subprocess.run([sys.executable, "-m", "mypy"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
