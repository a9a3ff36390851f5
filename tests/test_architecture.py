"""The layering of docs/architecture.md, no import cycles, and the code's own checks (ruff,
mypy)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OURS = ("game", "events", "play", "service", "workers", "bench", "scenarios")
ALLOWED = {
    "game": set(),
    "events": {"game"},
    "scenarios": {"game"},
    "play": {"game", "events"},
    "service": {"game", "events", "play", "scenarios"},
    "workers": {"game", "events", "play"},
    "bench": {"game", "events", "play", "service", "workers"},
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
    """game imports nothing of ours; events and scenarios only game; play game and events;
    the HTTP and RQ adapters those, never each other; the benchmarks anything."""
    for path in sorted((ROOT / package).rglob("*.py")):
        ours = imports_of(path) & set(OURS) - {package}
        assert ours <= ALLOWED[package], f"{path.relative_to(ROOT)} imports {ours}"


def module_name(path: Path) -> str:
    """The dotted module name of a file of ours."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_imports(path: Path, modules: set[str]) -> set[str]:
    """The modules of ours a file imports when it runs (`from a import b` names a.b when that
    is a module; imports for type checkers only are left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING")
        for inner in ast.walk(node)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                found.add(submodule if submodule in modules else node.module)
    return found & modules


def test_no_module_imports_itself_round_about() -> None:
    """No import cycle between modules of ours (a cycle knots two jobs into one)."""
    paths = {module_name(path): path for package in OURS for path in (ROOT / package).rglob("*.py")}
    graph = {name: module_imports(path, set(paths)) - {name} for name, path in paths.items()}
    done: set[str] = set()

    def visit(name: str, trail: list[str]) -> None:
        if name in trail:
            raise AssertionError(" -> ".join([*trail[trail.index(name) :], name]))
        if name in done:
            return
        for imported in sorted(graph[name]):
            visit(imported, [*trail, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])


def every_import(path: Path, modules: set[str]) -> set[str]:
    """The modules of ours a file imports anywhere: at the top, inside a function, or for a type
    checker only (`from a import b` names a.b when that is a module)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                found.add(submodule if submodule in modules else node.module)
    return found & modules


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of a graph: each set of two or more modules that all reach one another
    (Tarjan's strongly connected components), sorted."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(name: str) -> None:
        order[name] = low[name] = len(order)
        stack.append(name)
        for imported in sorted(graph[name]):
            if imported not in order:
                visit(imported)
                low[name] = min(low[name], low[imported])
            elif imported in stack:
                low[name] = min(low[name], order[imported])
        if low[name] == order[name]:
            component = [stack.pop()]
            while component[-1] != name:
                component.append(stack.pop())
            if len(component) > 1:
                found.append(sorted(component))

    for name in sorted(graph):
        if name not in order:
            visit(name)
    return sorted(found)


def game_imports() -> dict[str, set[str]]:
    """Every module of `game/` and the modules of `game/` it imports, wherever the import is."""
    paths = {module_name(path): path for path in (ROOT / "game").rglob("*.py")}
    return {name: every_import(path, set(paths)) - {name} for name, path in paths.items()}


def test_circles_finds_a_circle() -> None:
    """The check itself: a circle through three modules is found, a line of them is not."""
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_the_rules_import_one_way() -> None:
    """No import circle inside `game/`, counting imports inside functions and those for type
    checkers: each module has one job and stands on those below it (docs/architecture.md, "The
    rules, module by module")."""
    graph = game_imports()
    found = circles(graph)
    assert not found, "import circles in game/: " + "; ".join(
        " + ".join(f"{name} -> {sorted(graph[name] & set(circle))}" for name in circle)
        for circle in found
    )


def typing_imports(path: Path) -> set[str]:
    """Every module name a file imports, type checkers' imports included (`from a import b`
    gives a.b and a)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_the_rules_know_nothing_of_the_bots() -> None:
    """Only the bots import the bots: no rule module imports game.bots, not even for a type
    checker (a card's worth to a bot is the bots' own business, so no cycle runs through them)."""
    for path in sorted((ROOT / "game").rglob("*.py")):
        if (ROOT / "game" / "bots") in path.parents:
            continue
        found = {name for name in typing_imports(path) if name.split(".")[:2] == ["game", "bots"]}
        assert not found, f"{path.relative_to(ROOT)} imports {found}"


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
