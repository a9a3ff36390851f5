"""Flask's JSON by orjson: the documents of the standard library's, in a fraction of the time."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import orjson
from flask import Response, current_app
from flask.json.provider import DefaultJSONProvider

# Marshmallow's error messages key list positions by int; answers keep their fields' order.
OPTIONS = orjson.OPT_NON_STR_KEYS


def loads(text: str | bytes) -> Any:
    """The value of a JSON text; JSONDecodeError if it is not JSON, holds a lone surrogate,
    nests deeper than 1,024 (which the standard library would let through or overflow on), or
    has an object that names a key twice (which orjson would read as its last value)."""
    value = orjson.loads(text)  # refuses the first three, fast
    colons = text.count(b":") if isinstance(text, bytes) else text.count(":")
    if _pairs(value) == colons:  # as many members as colons: no key twice; no float at all
        return value
    try:
        # The standard library sees every key, and reads integers beyond 64 bits as integers.
        return json.loads(text, object_pairs_hook=_distinct_keys)
    except RecursionError:  # nesting orjson allows but Python's stack does not
        raise json.JSONDecodeError("too deeply nested", _as_str(text), 0) from None


def _pairs(value: Any, depth: int = 0) -> int:
    """How many members the objects in a value have, all told; -1 if it holds a float (which
    orjson reads as a double even beyond one, e.g. an integer beyond 64 bits) or nests deeper
    than FAST_DEPTH (left to the standard library's reading, and its refusals).

    Every member has its colon, and a colon can only be a member's or inside a string, so a
    text with exactly that many colons names no key twice: orjson's value is the document's."""
    if depth > FAST_DEPTH:
        return -1
    if type(value) is dict:
        items: Any = value.values()
        total = len(value)
    elif type(value) is list:
        items, total = value, 0
    else:
        return -1 if type(value) is float else 0
    for item in items:
        found = _pairs(item, depth + 1)
        if found < 0:
            return -1
        total += found
    return total


FAST_DEPTH = 16


def _distinct_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object as a dict; JSONDecodeError if it names a key twice."""
    found = dict(pairs)
    if len(found) != len(pairs):
        names = [name for name, _ in pairs]
        twice = next(name for name in names if names.count(name) > 1)
        raise json.JSONDecodeError(f"the key {twice!r} appears twice", "", 0)
    return found


def _as_str(text: str | bytes) -> str:
    return text if isinstance(text, str) else text.decode("utf-8", "replace")


class OrjsonProvider(DefaultJSONProvider):
    """`app.json`: orjson for request bodies and answers; Flask's `default` for other types."""

    sort_keys = False

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        """`obj` as a JSON text."""
        return self.encode(obj).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        """The value of a JSON text (a ValueError if it is not JSON)."""
        return loads(s)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        """A JSON response of the value (as `jsonify` makes it), encoded once, as bytes."""
        body = self.encode(self._prepare_response_obj(args, kwargs))
        return Response(body, mimetype=self.mimetype)

    def encode(self, obj: Any) -> bytes:
        """`obj` as JSON bytes, as the app's answers write it."""
        try:
            return orjson.dumps(obj, default=self.default, option=OPTIONS)
        except orjson.JSONEncodeError:  # e.g. an integer beyond 64 bits echoed from a request
            return super().dumps(obj).encode()


def json_encoder() -> Callable[[Any], bytes]:
    """The app's JSON as bytes (for bodies written piece by piece, e.g. event streams)."""
    provider = current_app.json
    assert isinstance(provider, OrjsonProvider)
    return provider.encode
