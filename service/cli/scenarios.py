"""`loveletter scenarios PATH...`: run rules scenario files and report as docs/scenarios.md asks."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from scenarios import ScenarioResult, run_scenario
from service.cli.help import add_command


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `scenarios` sub-command."""
    parser = add_command(
        subparsers,
        "scenarios",
        summary="run rules scenario files (docs/scenarios.md)",
        description="Run rules scenario files (the format of docs/scenarios.md) against the"
        " engine; print each failure, then `N passed, N failed`. Exit status 0 only when"
        " something ran and nothing failed.",
        examples=("loveletter scenarios tests/scenarios",),
    )
    parser.add_argument("paths", nargs="+", type=Path, help="scenario files or folders of them")
    parser.add_argument("-v", "--verbose", action="store_true", help="also list passing scenarios")
    parser.set_defaults(func=run)


def scenario_files(paths: list[Path]) -> list[Path]:
    """Every .json file named, or found under a named folder, in a stable order."""
    found: list[Path] = []
    for path in paths:
        found.extend(sorted(path.rglob("*.json")) if path.is_dir() else [path])
    return found


def run_file(path: Path) -> ScenarioResult:
    """Run one scenario file; an unreadable or malformed file is a failure."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        return ScenarioResult("(unreadable)", False, None, f"cannot read: {error}")
    return run_scenario(data)


def run(args: argparse.Namespace) -> int:
    """Print each failure, then `N passed, N failed`; exit status 0 only when nothing failed."""
    passed = failed = 0
    for path in scenario_files(args.paths):
        result = run_file(path)
        if result.passed:
            passed += 1
            if args.verbose:
                print(f"ok   {path}: {result.name}")
            continue
        failed += 1
        where = "setup" if result.step is None else f"step {result.step}"
        print(f"FAIL {path}: {result.name}\n     {where}: {result.message}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1
