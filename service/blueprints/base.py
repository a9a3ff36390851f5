"""The blueprint every resource uses: flask-smorest's, with bodies read by the app's own JSON.

webargs reads bodies with the standard library, which lets a lone surrogate (`"\\ud800"`) through
to fail later, and overflows the stack on deep nesting; the app's JSON refuses both as
malformed JSON (400), as it does for bodies read with `request.get_json()`. Every operation of
a method that takes a body is documented with the 413 and 415 the app answers to bad bodies.
"""

from __future__ import annotations

import http
import json
from typing import Any

import flask
import flask_smorest
import marshmallow as ma
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request

BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
BODY_PROBLEMS = (413, 415)  # too large, not JSON: see service.app._check_body


class JsonParser(FlaskParser):
    """webargs' Flask parser, decoding JSON bodies with `current_app.json`."""

    def load_json(self, req: flask.Request, schema: ma.Schema) -> Any:
        """The JSON body; missing when there is none; 400 when it is not JSON."""
        data = req.get_data(cache=True)
        if not is_json_request(req) or not data:
            return core.missing
        try:
            return flask.current_app.json.loads(data)
        except json.JSONDecodeError as error:  # orjson's errors are JSONDecodeErrors too
            self._handle_invalid_json_error(error, req)


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint with the JSON parser above, documenting the body problems."""

    ARGUMENTS_PARSER = JsonParser()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._prepare_doc_cbks.insert(0, _document_body_problems)


def _document_body_problems(
    doc: dict[str, Any], doc_info: dict[str, Any], *, method: str, **_: Any
) -> dict[str, Any]:
    """Add 413 and 415 to an operation that takes a body (before its responses are written)."""
    if method.upper() in BODY_METHODS:
        responses = doc_info.setdefault("response", {}).setdefault("responses", {})
        for status in BODY_PROBLEMS:
            names = responses.setdefault(status, [])
            if http.HTTPStatus(status).name not in names:
                names.append(http.HTTPStatus(status).name)
    return doc
