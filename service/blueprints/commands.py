"""Commands: a seat plays a card, finishes a Chancellor, answers a Bishop, or gives up."""

from __future__ import annotations

import marshmallow as ma
from flask import Response, request
from flask.views import MethodView

from service.apidoc import problems
from service.auth import Audience, request_seat_key, require_seat
from service.blueprint import Blueprint
from service.errors import ApiError
from service.ratelimit import rate_limited
from service.schemas.games import COMMAND_BODY, ViewSchema, load_command
from service.tables import (
    engine_command,
    expected_version,
    idempotency_key,
    load_to_decide,
    run,
    view_response,
)

blp = Blueprint("commands", __name__, url_prefix="/games", description="Playing")

IF_MATCH = {
    "name": "If-Match",
    "in": "header",
    "required": True,
    "description": "The game version (ETag) the command was decided on",
    "schema": {"type": "string", "pattern": '^(W/)?"?[0-9]{1,18}"?$'},
}
IDEMPOTENCY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": True,
    "description": "A key of your choosing; a retry with the same key gets the first answer",
    "schema": {"type": "string", "pattern": "^[A-Za-z0-9._~:-]{1,100}$"},
}


@blp.route("/<game_id:game_id>/commands")
class Commands(MethodView):
    """The seat's commands."""

    @rate_limited("commands", seat=request_seat_key)
    @blp.response(200, ViewSchema)
    @blp.doc(
        parameters=[IF_MATCH, IDEMPOTENCY],
        requestBody={"required": True, "content": {"application/json": {"schema": COMMAND_BODY}}},
    )
    @problems(401, 404, 409, 412, 422, 428)
    def post(self, game_id: str) -> Response:
        """Send a command decided on the version in If-Match; answers with your new view.

        412: the game moved on (the problem says its version). 422: the rules refuse the
        command (`code` says why). 409: it is not your turn.
        """
        try:
            body = load_command(request.get_json())
        except ma.ValidationError as error:
            raise ApiError(
                422,
                "validation-error",
                "Invalid request",
                "The command does not fit its schema.",
                errors={"json": error.messages},
            ) from None
        loaded, table = load_to_decide(game_id)
        seat = require_seat(table)
        expected = expected_version()
        key = idempotency_key()
        outcome = run(
            game_id,
            engine_command(seat, body),
            expected=expected,
            key=key,
            meta={"by": "seat", "seat": seat},
            loaded=loaded,
        )
        return view_response(game_id, outcome.game, Audience(seat))
