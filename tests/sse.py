"""A blocking client of server-sent event streams for the tests (one connection per stream)."""

from __future__ import annotations

import http.client
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import orjson


@dataclass(frozen=True)
class Message:
    """One message of a stream: an event (with its id, type and data) or a comment."""

    id: Any = None  # a game stream's version (an int), an inbox entry's id (a string)
    event: str = "message"
    data: Any = None
    comment: str | None = None


class EventStream:
    """GET a stream; `next()` reads its messages one by one (None once the server closed it)."""

    def __init__(
        self, base_url: str, path: str, headers: dict[str, str] | None = None, timeout: float = 10
    ) -> None:
        parts = urlsplit(base_url)
        self.connection = http.client.HTTPConnection(
            parts.hostname or "127.0.0.1", parts.port or 80, timeout=timeout
        )
        self.connection.request(
            "GET", path, headers={"Accept": "text/event-stream", **(headers or {})}
        )
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.headers = self.response.headers
        self.retry: int | None = None

    def next(self) -> Message | None:
        """The next message, or None when the stream ended."""
        fields: dict[str, str] = {}
        data: list[str] = []
        comment = None
        while True:
            line = self.response.readline()
            if not line:
                return None
            text = line.decode().rstrip("\n")
            if text == "":
                if data or comment is not None or "id" in fields:
                    break
                continue
            name, _, value = text.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "":
                comment = value
            elif name == "data":
                data.append(value)
            elif name == "retry":
                self.retry = int(value)
            else:
                fields[name] = value
        if comment is not None and not data:
            return Message(comment=comment)
        return Message(
            id=_id(fields["id"]) if "id" in fields else None,
            event=fields.get("event", "message"),
            data=orjson.loads("\n".join(data)),
        )

    def events(self, count: int) -> list[Message]:
        """The next `count` events (comments skipped); fewer if the stream ends first."""
        found: list[Message] = []
        while len(found) < count:
            message = self.next()
            if message is None:
                break
            if message.comment is None:
                found.append(message)
        return found

    def close(self) -> None:
        """Hang up."""
        self.connection.close()

    def __enter__(self) -> EventStream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _id(text: str) -> int | str:
    """An event's id: a version as an int, else (an inbox entry id) as it is."""
    return int(text) if text.isdigit() else text
