"""Every `loveletter` command explains itself: a description, an example, its defaults; and
progress bars show only on a terminal."""

from __future__ import annotations

import argparse
import io

import pytest

from service.cli import build_parser, main, package_version
from service.cli.progress import progress


def commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every command and sub-command's parser, with its words (`bench api`...)."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found.append(((*path, name), sub))
                found.extend(commands(sub, (*path, name)))
    return found


def test_every_command_has_a_description_and_an_example() -> None:
    found = commands(build_parser())
    names = {" ".join(path) for path, _ in found}
    assert {"serve", "export", "verify", "rebuild", "scenarios", "tournament", "openapi"} <= names
    assert {"bench", "bench engine", "bench store", "bench api", "bench bots"} <= names
    for path, parser in found:
        text = parser.format_help()
        assert parser.description and len(parser.description) > 40, path
        assert "example" in text and f"loveletter {' '.join(path)}" in text, (path, text)


def test_every_default_is_shown() -> None:
    for path, parser in commands(build_parser()):
        text = "".join(parser.format_help().split())  # as wrapped lines, whitespace aside
        for action in parser._actions:
            if action.default not in (None, False, argparse.SUPPRESS) and action.help:
                shown = "".join(f"(default: {action.default})".split())
                assert shown in text, (path, action.dest, text)


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"loveletter {package_version()}"
    assert package_version()[0].isdigit()


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("stream", [io.StringIO(), Terminal()], ids=["pipe", "terminal"])
def test_a_progress_bar_only_on_a_terminal(stream: io.StringIO) -> None:
    with progress("exporting games", 3, stream) as advance:
        for _ in range(3):
            advance()
    shown = stream.getvalue()
    assert ("exporting games" in shown) == isinstance(stream, Terminal), repr(shown)
