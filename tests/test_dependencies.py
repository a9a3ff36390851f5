"""The lock files agree with pyproject.toml's ranges, pin every package with its hashes, and
hold nothing of the machine they were made on."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
PIN = re.compile(r"^([A-Za-z0-9._-]+)(?:\[[^\]]*\])?==([^ ;\\]+)")
LOCKS = {"requirements.txt": (), "requirements-dev.txt": ("dev",)}


def pins(name: str) -> dict[str, str]:
    """Package -> pinned version in a lock file; every pin must carry hashes."""
    text = (ROOT / name).read_text(encoding="utf-8")
    found: dict[str, str] = {}
    for block in re.split(r"\n(?=\S)", text):
        match = PIN.match(block)
        if match is None:
            assert block.startswith("#"), block[:200]
            continue
        assert "--hash=sha256:" in block, block
        found[canonicalize_name(match.group(1))] = match.group(2)
    return found


def declared(extras: tuple[str, ...]) -> list[Requirement]:
    """The project's requirements with these extras."""
    names = [*PROJECT["dependencies"]]
    for extra in extras:
        names += PROJECT["optional-dependencies"][extra]
    return [Requirement(name) for name in names]


@pytest.mark.parametrize(("lock", "extras"), LOCKS.items())
def test_each_lock_pins_every_declared_dependency_within_its_range(
    lock: str, extras: tuple[str, ...]
) -> None:
    pinned = pins(lock)
    for requirement in declared(extras):
        version = pinned.get(canonicalize_name(requirement.name))
        assert version is not None, f"{requirement.name} is not in {lock}: regenerate it"
        assert requirement.specifier.contains(version), (requirement, version)


def test_the_dev_lock_runs_the_same_service_as_the_runtime_lock() -> None:
    runtime, dev = pins("requirements.txt"), pins("requirements-dev.txt")
    assert {name: dev.get(name) for name in runtime} == runtime


@pytest.mark.parametrize("lock", LOCKS)
def test_a_lock_names_no_machine_path_or_package_host(lock: str) -> None:
    text = (ROOT / lock).read_text(encoding="utf-8")
    for pattern in ("://", "file:", "--index", "--extra-index", "--find-links", "/home/", "/opt/"):
        assert pattern not in text, pattern


def test_dependencies_have_ranges_and_tools_only_the_dev_extra() -> None:
    runtime = {canonicalize_name(r.name): r for r in declared(())}
    for requirement in runtime.values():
        assert requirement.specifier, f"{requirement.name} has no range"
        assert not any(spec.operator == "==" for spec in requirement.specifier), requirement
    assert not {"pyyaml", "requests", "pytest"} & set(runtime)
