"""Server-sent events as they go on the wire (the HTML standard's `text/event-stream`)."""

from __future__ import annotations

CONTENT_TYPE = "text/event-stream"


def message(
    data: str | bytes, *, event_id: int | str | None = None, event: str | None = None
) -> bytes:
    """One event: an optional `id:` (what a reconnecting client sends as Last-Event-ID) and
    `event:` type, then the data, one `data:` line per line of it."""
    head = b"" if event_id is None else f"id: {event_id}\n".encode()
    if event is not None:
        head += f"event: {event}\n".encode()
    text = data if isinstance(data, bytes) else data.encode()
    return head + b"data: " + text.replace(b"\n", b"\ndata: ") + b"\n\n"


def comment(text: str) -> bytes:
    """A comment line: clients ignore it; it keeps a quiet connection open through proxies."""
    return f": {text}\n\n".encode()


def retry(milliseconds: int) -> bytes:
    """How long a client waits before it reconnects after the connection is lost."""
    return f"retry: {milliseconds}\n\n".encode()
