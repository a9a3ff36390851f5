"""Every scenario file in the repository passes (the shared examples and our own)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scenarios import run_scenario

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
FILES = sorted(SCENARIOS.rglob("*.json"))


def test_there_are_enough_scenarios() -> None:
    """The shared examples are here, and at least 60 scenarios of our own."""
    shared = [path for path in FILES if path.parent.name == "shared-examples"]
    assert len(shared) >= 10
    assert len(FILES) - len(shared) >= 60


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_scenario_passes(path: Path) -> None:
    """The scenario's steps run and all its expectations hold."""
    result = run_scenario(json.loads(path.read_text(encoding="utf-8")))
    assert result.passed, f"step {result.step}: {result.message}"
