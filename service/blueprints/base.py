"""The blueprint every resource uses: flask-smorest's, with bodies read by the app's own JSON.

webargs reads bodies with the standard library, which lets a lone surrogate (`"\\ud800"`) through
to fail later, and overflows the stack on deep nesting; the app's orjson refuses both as
malformed JSON (400), as it does for bodies read with `request.get_json()`.
"""

from __future__ import annotations

import json
from typing import Any

import flask
import flask_smorest
import marshmallow as ma
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request


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
    """flask-smorest's Blueprint with the JSON parser above."""

    ARGUMENTS_PARSER = JsonParser()
