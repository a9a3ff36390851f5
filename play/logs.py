"""Structured logs for every process (the API's gunicorn, the RQ workers, the CLI): one
configuration of the standard library's logging whose lines structlog renders, as JSON when
stderr is not a terminal and as readable lines when it is.

Our own code logs at INFO; gunicorn's own lines and RQ's per-job chatter only from WARNING
unless verbose (`loveletter serve --verbose`, or LOVELETTER_VERBOSE). LOVELETTER_LOG_FORMAT
(`json` or `console`) overrides the choice made from the terminal.
"""

from __future__ import annotations

import datetime
import logging
import logging.config
import sys
import time
from typing import Any, TextIO

import orjson
import structlog

from play.settings import Settings

# Loggers quieter than ours unless verbose: they say a lot that only helps when debugging.
CHATTY = ("gunicorn.error", "rq", "rq.worker", "rq.job", "rq.scheduler", "rq.queue")

SHARED: list[Any] = [
    structlog.contextvars.merge_contextvars,  # e.g. the request id, bound per request
    structlog.stdlib.add_logger_name,
    structlog.stdlib.add_log_level,
    structlog.processors.TimeStamper(fmt="iso", utc=True),
    structlog.stdlib.ExtraAdder(),
]


CONSOLE = structlog.dev.ConsoleRenderer(colors=False, pad_event_to=0)  # lines for a terminal


def _json(value: Any, **_: Any) -> str:
    return orjson.dumps(value, default=str).decode()


def use_json(log_format: str = "auto", stream: Any = None) -> bool:
    """JSON lines unless `log_format` says `console`, or it is `auto` and stderr is a
    terminal."""
    if log_format in ("json", "console"):
        return log_format == "json"
    stream = stream or sys.stderr
    return not (hasattr(stream, "isatty") and stream.isatty())


def formatter(json: bool) -> structlog.stdlib.ProcessorFormatter:
    """The formatter of every record: ours (from structlog) and other libraries' alike."""
    renderer: Any = structlog.processors.JSONRenderer(serializer=_json) if json else CONSOLE
    return structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=SHARED,
        processors=[
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            structlog.processors.format_exc_info,
            renderer,
        ],
    )


def logging_config(settings: Settings | None = None) -> dict[str, Any]:
    """The `logging.config.dictConfig` dictionary (gunicorn takes it as `logconfig_dict`)."""
    settings = settings or Settings.load()
    Lines.json = use_json(settings.log_format)
    quiet = "INFO" if settings.verbose else "WARNING"
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "structured": {"()": formatter, "json": use_json(settings.log_format)},
        },
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "structured",
                "stream": "ext://sys.stderr",
            }
        },
        "root": {"level": "INFO", "handlers": ["stderr"]},
        "loggers": {
            **{name: {"level": quiet, "handlers": [], "propagate": True} for name in CHATTY},
            "gunicorn.access": {"level": "WARNING", "handlers": [], "propagate": True},
        },
    }


def configure(settings: Settings | None = None) -> None:
    """Set up the standard library's logging for this process (gunicorn does it itself with
    `logging_config()`)."""
    logging.config.dictConfig(logging_config(settings))


# structlog's loggers hand their events to the standard library's logging, in every process
# that imports this (so a process whose logging is not configured, e.g. under tests, drops INFO
# lines as the standard library does, instead of printing them).
structlog.configure(
    processors=[
        *SHARED[:-1],  # ExtraAdder is for the standard library's records only
        structlog.stdlib.ProcessorFormatter.wrap_for_formatter,
    ],
    logger_factory=structlog.stdlib.LoggerFactory(),
    wrapper_class=structlog.stdlib.BoundLogger,
    cache_logger_on_first_use=True,
)


def get(name: str) -> Any:
    """A structured logger (`log.info("event", key=value, ...)`)."""
    return structlog.stdlib.get_logger(name)


class Lines:
    """A logger for lines written on every request: the same line as `get(name).info(...)`
    would write to stderr, at a tenth of its cost.

    Through structlog and the standard library (a record, the caller's frame, the formatter's
    chain), one request line cost about 50 µs of an API process's CPU under load (py-spy on
    `loveletter bench api`), some 6% of a command; this renders it directly. It honours the
    logger's level as configured, so where logging is not configured it writes nothing.
    """

    json = True  # JSON lines or readable ones, as the configuration chose (logging_config)

    def __init__(self, name: str, stream: TextIO | None = None) -> None:
        self.name = name
        self.logger = logging.getLogger(name)
        self.stream = stream

    def info(self, event: str, **fields: Any) -> None:
        """Write one line at INFO, with the bound context (e.g. the request id)."""
        if not self.logger.isEnabledFor(logging.INFO):
            return
        line = {
            **structlog.contextvars.get_contextvars(),
            "event": event,
            **fields,
            "logger": self.name,
            "level": "info",
            "timestamp": utc_stamp(time.time_ns()),
        }
        if Lines.json:
            text = orjson.dumps(line, default=str).decode()
        else:
            text = str(CONSOLE(None, "info", line))
        stream = self.stream or sys.stderr
        stream.write(text + "\n")
        stream.flush()


_second: list[Any] = [None, ""]  # the last second formatted, and its text


def utc_stamp(ns: int) -> str:
    """A time (Unix ns) as `datetime.now(UTC).isoformat()` writes it, with Z for +00:00 (the
    microseconds floored, left out when 0); the date and time of day are formatted once per
    second."""
    second, rest = divmod(ns, 1_000_000_000)
    if _second[0] != second:
        when = datetime.datetime.fromtimestamp(second, datetime.UTC)
        _second[:] = [second, when.strftime("%Y-%m-%dT%H:%M:%S")]
    micro = rest // 1000
    return f"{_second[1]}.{micro:06d}Z" if micro else f"{_second[1]}Z"
