"""Server-sent events as written on the wire (the HTML standard's event stream format)."""

from __future__ import annotations

from service import sse


def test_an_event_has_its_id_type_and_one_data_line_per_line() -> None:
    written = sse.message("first\nsecond", event_id=7, event="chat")
    assert written == b"id: 7\nevent: chat\ndata: first\ndata: second\n\n"


def test_json_bytes_are_written_as_they_are() -> None:
    assert sse.message(b'{"version":3,"type":"card_played"}', event_id=3) == (
        b'id: 3\ndata: {"version":3,"type":"card_played"}\n\n'
    )


def test_bytes_and_text_are_written_alike() -> None:
    text = 'caf\u00e9\n{"a":1}'
    wanted = 'event: end\ndata: caf\u00e9\ndata: {"a":1}\n\n'.encode()
    assert sse.message(text, event="end") == wanted
    assert sse.message(text.encode(), event="end") == wanted


def test_a_comment_and_a_retry_line() -> None:
    assert sse.comment("heartbeat") == b": heartbeat\n\n"
    assert sse.retry(2000) == b"retry: 2000\n\n"
