"""Every problem slug the code can answer is declared in service.schemas.problems (and so in
the OpenAPI document and, by tests/test_catalogues.py, in every catalogue of the web client).

The slugs are read from the code itself: the first argument of `IllegalCommand`, the second of
`ApiError`, `ChatRefused` and `problem_response`, the codes of `_WRONG_DECISION`, the
`<card>-required` code of every card the Countess rule forces, and werkzeug's HTTP errors
(`service.errors.HTTP_SLUGS`).
"""

from __future__ import annotations

import ast
from pathlib import Path

from game.cards import CARDS
from service.errors import HTTP_SLUGS
from service.schemas.problems import PROBLEM_SLUGS

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("game", "events", "play", "service", "workers")
SLUG_ARGUMENT = {"IllegalCommand": 0, "ApiError": 1, "problem_response": 1, "ChatRefused": 1}


def raised_slugs() -> tuple[set[str], list[str]]:
    """The literal slugs raised in the code, and the calls whose slug is not a literal."""
    found: set[str] = set()
    made: list[str] = []
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call):
                    callee = node.func
                    name = getattr(callee, "id", None) or getattr(callee, "attr", None)
                    index = SLUG_ARGUMENT.get(str(name))
                    if index is None or len(node.args) <= index:
                        continue
                    argument = node.args[index]
                    if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                        found.add(argument.value)
                    else:
                        made.append(f"{path.relative_to(ROOT)}:{node.lineno}")
                elif isinstance(node, ast.AnnAssign | ast.Assign) and _is_wrong_decision(node):
                    assert isinstance(node.value, ast.Dict)
                    for value in node.value.values:
                        assert isinstance(value, ast.Tuple)
                        first = value.elts[0]
                        assert isinstance(first, ast.Constant)
                        found.add(first.value)
    return found, made


def _is_wrong_decision(node: ast.AnnAssign | ast.Assign) -> bool:
    targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
    return any(getattr(target, "id", None) == "_WRONG_DECISION" for target in targets)


def test_every_slug_the_code_raises_is_declared() -> None:
    found, _ = raised_slugs()
    forced = {f"{card.id}-required" for card in CARDS.values() if card.must_play_beside}
    every = found | forced | set(HTTP_SLUGS.values())
    assert {"target-protected", "chancellor-pending", "countess-required"} <= every
    undeclared = sorted(every - set(PROBLEM_SLUGS))
    assert not undeclared, f"declare these in service/schemas/problems.py: {undeclared}"


def test_slugs_made_at_run_time_are_only_the_known_ones() -> None:
    """A slug built at run time escapes the scan above: only these calls may build one (they
    pass on a slug made elsewhere: a refusal's code, an ApiError's, an HTTP error's)."""
    _, made = raised_slugs()
    places = sorted(place.rsplit(":", 1)[0] for place in made)
    assert places == sorted(
        ["game/decide.py", "game/decide.py", "service/blueprints/chat.py", "service/errors.py",
         "service/errors.py", "service/errors.py"]
    ), made  # fmt: skip


def test_no_declared_slug_is_dead() -> None:
    """Every declared slug can be answered (none is left over from a removed check)."""
    found, _ = raised_slugs()
    forced = {f"{card.id}-required" for card in CARDS.values() if card.must_play_beside}
    every = found | forced | set(HTTP_SLUGS.values())
    assert not set(PROBLEM_SLUGS) - every, sorted(set(PROBLEM_SLUGS) - every)
