"""Seats: join a game, leave it before it starts, start it, play again, set a webhook."""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView

from events.store import Idempotency
from game.table import AbandonSeat, Asked, BeginGame, LeaveSeat, SetWebhook, TakeSeat, check_asker
from play.lobby import send_to_table
from play.players import abandon
from play.send_command import Sent
from play.webhooks import new_secret, url_problem
from service import auth, examples
from service.apidoc import operation, problems
from service.auth import (
    Audience,
    asked_meta,
    request_asker,
    request_player,
    request_seat_key,
    require_seat,
)
from service.blueprints.base import Blueprint
from service.deps import context
from service.errors import ApiError
from service.headers import (
    SEAT_KEY_DOC,
    SECRET_KEY_DOC,
    optional_idempotency,
    secret_idempotency,
)
from service.lookup import find_game
from service.ratelimit import count_bot_table, rate_limited
from service.rendering import view_response
from service.schemas.games import (
    JoinSchema,
    SeatTokenSchema,
    ViewSchema,
    WebhookCreatedSchema,
    WebhookSchema,
)
from service.seeds import rematch

blp = Blueprint("seats", __name__, url_prefix="/games", description="Seats at a game")


@blp.route("/<game_id:game_id>/seats")
class Seats(MethodView):
    """Join a game."""

    @rate_limited("lobby")
    @blp.arguments(JoinSchema(), example=examples.JOIN)
    @blp.response(201, SeatTokenSchema, example={"seat": 1, "token": examples.TOKEN})
    @operation("joinGame", token="player-optional", parameters=[SECRET_KEY_DOC])
    @problems(400, 404, 409, 422)
    def post(self, body: dict[str, Any], game_id: str) -> dict[str, Any]:
        """Take an open human seat; the answer holds the seat's secret token (shown once).
        With a player's token as the bearer, the seat is also the player's. With an
        Idempotency-Key, the same request again gets the first answer (same seat, same
        token), even after the seat was left."""
        keyed = secret_idempotency("join", body)
        token = auth.new_token() if keyed is None else auth.keyed_token(keyed[0], game_id)
        find_game(game_id)
        player = auth.request_player()
        sent = send_to_table(
            context(),
            game_id,
            TakeSeat(body.get("seat"), body["name"], auth.token_hash(token), player=player),
            {"by": "player"},
            idempotency=None if keyed is None else keyed[1],
        )
        table = sent.game.table
        assert table is not None
        seat = auth.seat_of(table, token)
        return {"seat": seat, "token": token}


@blp.route("/<game_id:game_id>/seats/<int:seat>")
class Seat(MethodView):
    """Leave a seat."""

    @rate_limited("lobby", seat=request_seat_key)
    @blp.response(204)
    @operation("leaveSeat", token="required")
    @problems(401, 403, 404, 409)
    def delete(self, game_id: str, seat: int) -> None:
        """Leave your seat before the game starts (with that seat's token, or its player's)."""
        _as_its_holder(game_id, seat, _asked(game_id, LeaveSeat(seat))[0])


@blp.route("/<game_id:game_id>/seats/<int:seat>/abandon")
class Abandon(MethodView):
    """Leave a game in play to a bot."""

    @rate_limited("lobby", seat=request_seat_key)
    @blp.response(200, ViewSchema, example=examples.seat_view())
    @operation("abandonSeat", token="required", game_version=True)
    @problems(401, 403, 404, 409, 422)
    def post(self, game_id: str, seat: int) -> Response:
        """Leave your seat of a game in play: a bot (the table's `takeover_bot`) plays it from
        now on, as everyone sees (`seat_taken_over`); a table where every person has left ends
        at once. The answer is the game as a spectator sees it (the seat is no longer yours)."""
        asked, _ = _asked(game_id, AbandonSeat(seat))
        sent = abandon(context(), game_id, seat, asked.by, asked_meta(seat))
        return view_response(game_id, sent.game, Audience(None))


@blp.route("/<game_id:game_id>/start")
class Start(MethodView):
    """Start a game that does not start by itself."""

    @rate_limited("lobby", seat=request_seat_key)
    @blp.response(200, ViewSchema, example=examples.seat_view())
    @operation("startGame", token="required", game_version=True)
    @problems(401, 404, 409)
    def post(self, game_id: str) -> Response:
        """Any seated player starts the game once every seat is taken."""
        return _by_a_seated_player(game_id, BeginGame())


@blp.route("/<game_id:game_id>/rematch")
class Rematch(MethodView):
    """Play again at the same table."""

    @rate_limited("lobby", seat=request_seat_key)
    @blp.response(200, ViewSchema, example=examples.seat_view())
    @operation("rematch", token="required", game_version=True, parameters=[SEAT_KEY_DOC])
    @problems(400, 401, 404, 409, 422)
    def post(self, game_id: str) -> Response:
        """Once the game is over, any seated player deals a new game with the same seats (from
        a fresh secret seed). With an Idempotency-Key, the same request again gets the first
        answer."""
        _, table = find_game(game_id)
        seat = require_seat(table)
        idempotency = optional_idempotency(f"seat{seat}", None)
        if table.status == "over":  # another game of the same bots
            count_bot_table([s.bot for s in table.seats], request_player())
        return _by_a_seated_player(game_id, rematch(table), idempotency)


@blp.route("/<game_id:game_id>/seats/<int:seat>/webhook")
class Webhook(MethodView):
    """A seat's "your turn" webhook."""

    @rate_limited("lobby", seat=request_seat_key)
    @blp.arguments(WebhookSchema(), example=examples.WEBHOOK)
    @blp.response(200, WebhookCreatedSchema, example=examples.WEBHOOK_CREATED)
    @operation("setWebhook", token="required")
    @problems(401, 403, 404, 422)
    def put(self, body: dict[str, Any], game_id: str, seat: int) -> dict[str, Any]:
        """Have the seat told, by a signed POST, whenever it must act; the secret is shown once."""
        secret = new_secret()
        asked, _ = _asked(game_id, SetWebhook(seat, body["url"], secret))
        allow_private = context().settings.webhook_allow_private
        problem = url_problem(body["url"], allow_private=allow_private)
        if problem is not None:
            raise ApiError(422, "webhook-url-refused", "Webhook URL refused", problem)
        _as_its_holder(game_id, seat, asked)
        return {"url": body["url"], "secret": secret}

    @rate_limited("lobby", seat=request_seat_key)
    @blp.response(204)
    @operation("deleteWebhook", token="required")
    @problems(401, 403, 404)
    def delete(self, game_id: str, seat: int) -> None:
        """Stop the seat's webhook."""
        _as_its_holder(game_id, seat, _asked(game_id, SetWebhook(seat, None))[0])


def _asked(game_id: str, command: Any) -> tuple[Asked, int]:
    """The command as the request's token sends it, judged at the door on the game as read
    now (401 when the token holds no seat, 403 when it holds another than the command's),
    and the seat it holds there."""
    _, table = find_game(game_id)
    seat = require_seat(table)
    asked = Asked(request_asker(), command)
    check_asker(table, asked)
    return asked, seat


def _as_its_holder(game_id: str, seat: int, asked: Asked) -> Sent:
    """Send a command that acts for `seat`: applied only if its asker holds that seat in the
    version it is applied to, so judged again on every retry (the token may have left the
    seat meanwhile, and someone else sat down)."""
    return send_to_table(context(), game_id, asked, asked_meta(seat))


def _by_a_seated_player(
    game_id: str, command: Any, idempotency: Idempotency | None = None
) -> Response:
    """Run a table command any seated player may send (if it still holds a seat when it is
    applied); answer with their view."""
    asked, seat = _asked(game_id, command)
    sent = send_to_table(context(), game_id, asked, asked_meta(seat), idempotency=idempotency)
    after = sent.game.table
    assert after is not None
    return view_response(game_id, sent.game, Audience(after.seat_of(asked.by)))
