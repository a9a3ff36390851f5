"""Progress bars for commands that run longer than a few seconds: on stderr, and only when
stderr is a terminal (a pipe or a log file gets nothing)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

Advance = Callable[..., None]  # advance(steps=1, total=None)


def no_progress(steps: float = 1, total: float | None = None) -> None:
    """An `advance` that shows nothing (a benchmark run from code)."""


@contextmanager
def progress(
    description: str, total: float | None, stream: IO[str] | None = None
) -> Iterator[Advance]:
    """Yield `advance(steps=1, total=None)`, which moves the bar on (and may set its total)."""
    stream = stream or sys.stderr
    if not stream.isatty():
        yield no_progress
        return
    console = Console(file=stream, force_terminal=True)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())  # fmt: skip
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(description, total=total)

        def advance(steps: float = 1, total: float | None = None) -> None:
            bar.update(task, advance=steps, total=total)

        yield advance
