"""How every `loveletter` command presents itself: a description, an example, and the
defaults of its options in its help."""

from __future__ import annotations

import argparse
from typing import Any


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Descriptions wrapped, examples as written; each option's default after its help."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        """Examples line by line; anything else wrapped to the terminal."""
        if text.startswith("example"):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        """The help, with `(default: ...)` unless there is nothing worth saying."""
        if action.default in (None, False) or action.help is None:
            return action.help
        return super()._get_help_string(action)


def example(*commands: str) -> str:
    """An epilog of example command lines."""
    return (
        "example"
        + ("s" if len(commands) > 1 else "")
        + ":\n"
        + "\n".join(f"  {command}" for command in commands)
    )


def add_command(
    subparsers: argparse._SubParsersAction,
    name: str,
    *,
    summary: str,
    description: str,
    examples: tuple[str, ...],
    **options: Any,
) -> argparse.ArgumentParser:
    """A sub-command with its one-line summary (in the list of commands), its description and
    examples (in its own help)."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        name, help=summary, description=description, epilog=example(*examples),
        formatter_class=HelpFormatter, **options,
    )  # fmt: skip
    return parser
