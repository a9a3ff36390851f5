"""The request line's quick path (play.logs.Lines) writes what structlog's path writes."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest
import structlog

from play import logs

FIELDS = {"method": "POST", "path": "/games/g1/commands", "status": 200, "game": "g1", "seat": 1}


@pytest.fixture
def configured() -> Iterator[io.StringIO]:
    """Logging configured as a served process has it, writing into a buffer."""
    root = logging.getLogger()
    saved = (root.level, list(root.handlers), logs.Lines.json)
    logging.config.dictConfig(logs.logging_config())
    logs.Lines.json = True
    buffer = io.StringIO()
    root.handlers[0].setStream(buffer)  # type: ignore[attr-defined]
    structlog.contextvars.bind_contextvars(request_id="trace-1")
    try:
        yield buffer
    finally:
        structlog.contextvars.clear_contextvars()
        root.setLevel(saved[0])
        root.handlers[:] = saved[1]
        logs.Lines.json = saved[2]


def test_the_same_line_as_structlog_writes(configured: io.StringIO) -> None:
    logs.get("loveletter.requests").info("request", **FIELDS)
    logs.Lines("loveletter.requests", stream=configured).info("request", **FIELDS)
    slow, quick = (json.loads(line) for line in configured.getvalue().splitlines())
    assert slow.pop("timestamp")[:16] == quick.pop("timestamp")[:16]
    assert (
        quick
        == slow
        == {
            **FIELDS,
            "event": "request",
            "request_id": "trace-1",
            "logger": "loveletter.requests",
            "level": "info",
        }
    )


def test_nothing_when_the_level_is_above_info(configured: io.StringIO) -> None:
    logging.getLogger("loveletter.requests").setLevel(logging.WARNING)
    try:
        logs.Lines("loveletter.requests", stream=configured).info("request", **FIELDS)
    finally:
        logging.getLogger("loveletter.requests").setLevel(logging.NOTSET)
    assert configured.getvalue() == ""


def test_readable_lines_when_not_json(configured: io.StringIO) -> None:
    logs.Lines.json = False
    logs.Lines("loveletter.requests", stream=configured).info("request", **FIELDS)
    line = configured.getvalue()
    assert line.count("\n") == 1 and not line.startswith("{")
    assert "request" in line and "status=200" in line and "request_id=trace-1" in line
