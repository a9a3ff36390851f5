"""The one error type for a command the rules refuse."""

from __future__ import annotations


class IllegalCommand(Exception):
    """A command the rules refuse: `code` is machine-readable, `message` a sentence for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
