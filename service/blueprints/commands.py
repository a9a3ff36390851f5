"""Commands: a seat plays a card, finishes a Chancellor, answers a Bishop, or gives up."""

from __future__ import annotations

import marshmallow as ma
from flask import Response, request
from flask.views import MethodView

from game.table import Asked
from play.send_command import load_game, send_command
from service import examples, metrics
from service.apidoc import operation, problems
from service.auth import Audience, asked_meta, request_asker, require_seat
from service.blueprints.base import Blueprint
from service.deps import context
from service.errors import ApiError
from service.headers import expected_version, idempotency, if_match
from service.lookup import existing
from service.ratelimit import limiter, rate_limited
from service.rendering import view_response
from service.schemas.commands import COMMAND_BODY, engine_command, load_command
from service.schemas.games import ViewSchema

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
    "description": "A key of your choosing, one per command: the same key with the same command"
    " gets the first answer again; with another command, a 422 idempotency-key-reused",
    "schema": {"type": "string", "pattern": "^[A-Za-z0-9._~:-]{1,100}$"},
}


COMMAND_CONTENT = {
    "schema": COMMAND_BODY,
    "examples": {name: {"value": body} for name, body in examples.COMMANDS.items()},
}


@blp.route("/<game_id:game_id>/commands")
class Commands(MethodView):
    """The seat's commands."""

    @rate_limited("commands")  # per address here; per seat below, once the seat is known
    @blp.response(200, ViewSchema, example=examples.seat_view())
    @operation(
        "sendCommand",
        token="required",
        game_version=True,
        parameters=[IF_MATCH, IDEMPOTENCY],
        requestBody={"required": True, "content": {"application/json": COMMAND_CONTENT}},
    )
    @problems(400, 401, 404, 409, 412, 422, 428)
    def post(self, game_id: str) -> Response:
        """Send a command decided on the version in If-Match; answers with your new view.

        412: the game moved on (the problem says its version). 422: the rules refuse the
        command (`code` says why), or the Idempotency-Key was used for another command.
        409: it is not your turn.
        """
        body = request.get_json()
        try:
            loaded = load_command(body)
        except ma.ValidationError as error:
            raise ApiError(
                422,
                "validation-error",
                "Invalid request",
                "The command does not fit its schema.",
                errors={"json": error.messages},
            ) from None
        ctx = context()
        game, table = existing(game_id, load_game(ctx, game_id, if_match(strict=False)))
        seat = require_seat(table)
        # A seat's budget, whichever token acts for it: a player's games don't share one.
        limiter().check_one("commands", "seat", f"{game_id}/{seat}", ctx.settings.rate_limit_seat)
        sent = send_command(
            ctx,
            game_id,
            Asked(request_asker(), engine_command(seat, loaded)),
            game=game,
            expected_version=expected_version(),
            idempotency=idempotency(f"seat{seat}", body),
            meta=asked_meta(seat),
        )
        metrics.record_command("duplicate" if sent.repeated else "ok")
        return view_response(game_id, sent.game, Audience(seat))
