"""Players: a guest is made, moves to another device, lists its games, follows its inbox."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import Response, request, url_for
from flask.views import MethodView

from events.players import Player, is_entry_id
from events.store import iso_time
from play.context import Context
from play.follow import follow_inbox
from play.players import (
    INBOX_TICKET,
    my_games,
    new_guest,
    redeem_transfer_code,
    transfer_code,
)
from play.quickplay import here
from play.records import reliability
from play.settings import Limit
from play.webhooks import new_secret, url_problem
from service import examples, sse
from service.apidoc import operation, problems
from service.auth import request_seat_key, require_player
from service.blueprints.base import Blueprint
from service.blueprints.stream import RETRY_MILLISECONDS
from service.deps import context
from service.errors import ApiError
from service.jsonprovider import json_encoder
from service.ratelimit import READS, Place, count_against, limiter, rate_limited
from service.schemas.games import WebhookCreatedSchema, WebhookSchema
from service.schemas.players import (
    INBOX_ENTRY_ID,
    InboxQuerySchema,
    InboxTicketSchema,
    MyGamesQuerySchema,
    MyGamesSchema,
    NewPlayerSchema,
    PlayerSchema,
    PlayerTokenSchema,
    RedeemSchema,
    TransferCodeSchema,
)

blp = Blueprint("players", __name__, url_prefix="/players", description="Players")

INBOX_LAST_EVENT_ID = {
    "name": "Last-Event-ID",
    "in": "header",
    "required": False,
    "description": "the last inbox entry id the client received: the stream resumes after it",
    "schema": {"type": "string", "pattern": INBOX_ENTRY_ID},
}
INBOX_RESPONSES = {
    "200": {
        "description": "Server-sent events: each inbox entry as `id: <entry id>` and `data:` the"
        " entry (InboxEntry); a `: heartbeat` comment when quiet",
        "content": {sse.CONTENT_TYPE: {"schema": {"$ref": "#/components/schemas/InboxEntry"}}},
    },
}


def player_json(player: Player) -> dict[str, Any]:
    """A player's record as the API answers it."""
    return {
        "id": player.id,
        "name": player.name,
        "kind": player.kind,
        "created_at": iso_time(int(player.created_at * 1000)),
        "games_abandoned": player.games_abandoned,
        "abandon_rate": reliability(context(), player.id).abandon_rate,
        "webhook": player.webhook_url is not None,
    }


def _me() -> Player:
    player = context().players.get(require_player())
    if player is None:  # a token of a player whose record is gone
        raise ApiError(401, "unauthorized", "Unauthorized", "This player no longer exists.")
    return player


@blp.route("")
class Players(MethodView):
    """Guest players."""

    @rate_limited("lobby")
    @blp.arguments(NewPlayerSchema(), example={"name": "ann"})
    @blp.response(201, PlayerTokenSchema, example=examples.NEW_PLAYER)
    @operation("createPlayer")
    @problems(422)
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Make a guest player; the answer holds its secret token (shown once). The token acts
        for every seat the player takes (createGame, joinGame with it as the bearer)."""
        per_hour = context().settings.guests_per_hour
        limit = None if per_hour is None else Limit(per_hour, 3600)
        count_against("guests", limit, None, "guest players")
        player, token = new_guest(context(), body["name"])
        return {"player": player_json(player), "token": token}


@blp.route("/me")
class Me(MethodView):
    """The asking player."""

    @blp.response(200, PlayerSchema, example=examples.NEW_PLAYER["player"])
    @operation("getMe", token="player")
    @problems(401)
    def get(self) -> dict[str, Any]:
        """The player the bearer names (a player token, or the trusted issuer's JWT: such a
        player is made at first sight)."""
        return player_json(_me())


@blp.route("/me/transfer-codes")
class TransferCodes(MethodView):
    """Moving a player to another device."""

    @rate_limited("lobby", seat=request_seat_key)
    @blp.response(201, TransferCodeSchema, example={"code": "Zp3k9QmV2rXa", "expires_in": 600})
    @operation("createTransferCode", token="player")
    @problems(401)
    def post(self) -> dict[str, Any]:
        """A one-time code (10 minutes by default) that another device redeems for a token of
        its own (redeemTransferCode); this device's token stays valid."""
        code, seconds = transfer_code(context(), _me().id)
        return {"code": code, "expires_in": seconds}


@blp.route("/tokens")
class Tokens(MethodView):
    """Redeeming a transfer code."""

    @rate_limited("lobby")
    @blp.arguments(RedeemSchema(), example={"code": "Zp3k9QmV2rXa"})
    @blp.response(201, PlayerTokenSchema, example=examples.NEW_PLAYER)
    @operation("redeemTransferCode")
    @problems(404, 422)
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """A new token for the player of a transfer code (shown once); the code is spent."""
        redeemed = redeem_transfer_code(context(), body["code"])
        if redeemed is None:
            raise ApiError(
                404,
                "transfer-code-not-found",
                "Not found",
                "This transfer code is unknown, spent or expired: ask for another.",
            )
        player, token = redeemed
        return {"player": player_json(player), "token": token}


@blp.route("/me/games")
class MyGames(MethodView):
    """The player's games."""

    @rate_limited(READS)
    @blp.arguments(MyGamesQuerySchema(), location="query")
    @blp.response(200, MyGamesSchema, example=examples.MY_GAMES)
    @operation("listMyGames", token="player")
    @problems(401)
    def get(self, query: dict[str, Any]) -> dict[str, Any]:
        """My games (of a `status`): those waiting on me first, then the most recently moved;
        each with its seats, my seat, whose turn it is, the turn's deadline and when the last
        move was made."""
        found = my_games(context(), require_player(), query.get("status"))
        page = found[query["offset"] : query["offset"] + query["limit"]]
        return {"games": [mine.json() for mine in page], "total": len(found)}


@blp.route("/me/webhook")
class MyWebhook(MethodView):
    """The player's webhook: its inbox entries, POSTed."""

    @rate_limited("lobby", seat=request_seat_key)
    @blp.arguments(WebhookSchema(), example=examples.WEBHOOK)
    @blp.response(200, WebhookCreatedSchema, example=examples.WEBHOOK_CREATED)
    @operation("setPlayerWebhook", token="player")
    @problems(401, 422)
    def put(self, body: dict[str, Any]) -> dict[str, Any]:
        """Have every inbox entry POSTed to this URL, signed as the seats' webhooks are; the
        secret is shown once."""
        player = _me()
        allow_private = context().settings.webhook_allow_private
        problem = url_problem(body["url"], allow_private=allow_private)
        if problem is not None:
            raise ApiError(422, "webhook-url-refused", "Webhook URL refused", problem)
        secret = new_secret()
        context().players.set_webhook(player.id, body["url"], secret)
        return {"url": body["url"], "secret": secret}

    @rate_limited("lobby", seat=request_seat_key)
    @blp.response(204)
    @operation("deletePlayerWebhook", token="player")
    @problems(401)
    def delete(self) -> None:
        """Stop the player's webhook."""
        context().players.set_webhook(_me().id, None, None)


@blp.route("/me/stream-tickets")
class InboxTickets(MethodView):
    """Tickets that open the player's inbox stream where no header can be sent."""

    @rate_limited("tickets", seat=request_seat_key)
    @blp.response(201, InboxTicketSchema, example=examples.INBOX_TICKET)
    @operation("createInboxTicket", token="player")
    @problems(401)
    def post(self) -> dict[str, Any]:
        """A ticket that opens `GET /players/me/stream?ticket=...` for a short while (60 s);
        it is good for nothing else, so the player's token never goes in a URL."""
        ctx = context()
        ticket = new_ticket()
        seconds = ctx.settings.stream_ticket_seconds
        ctx.players.issue(INBOX_TICKET, ticket, require_player(), seconds)
        return {
            "ticket": ticket,
            "expires_in": seconds,
            "url": url_for("players.Inbox", ticket=ticket),
        }


def new_ticket() -> str:
    """A fresh inbox ticket."""
    return secrets.token_urlsafe(24)


@blp.route("/me/stream")
class Inbox(MethodView):
    """The player's inbox, live."""

    @rate_limited(READS)
    @blp.arguments(InboxQuerySchema(), location="query")
    @operation("streamInbox", token="player", parameters=[INBOX_LAST_EVENT_ID],
               responses=INBOX_RESPONSES)  # fmt: skip
    @problems(400, 401)
    def get(self, query: dict[str, Any]) -> Response:
        """Server-sent events of the player's inbox (every game of theirs): "your turn", "game
        started", "game over", "seat taken over by a bot". Opened with the player's bearer or a
        ticket; resumes after Last-Event-ID (or `after`); by default, from now on."""
        ctx = context()
        if "ticket" in query:
            player = ctx.players.peek(INBOX_TICKET, query["ticket"])
            if player is None:
                raise ApiError(
                    401,
                    "unauthorized",
                    "Unauthorized",
                    "This inbox ticket is unknown or has expired: ask for another with the"
                    " player's token (POST /players/me/stream-tickets).",
                )
        else:
            player = require_player()
        after = _resume_after(query.get("after"))
        if after is None:
            newest = ctx.players.inbox_head(player)
            after = newest or "0-0"
        encode = json_encoder()
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        place = limiter().hold(request.remote_addr)  # a waiter, as a game's stream is
        body = inbox_events(ctx, player, after, encode, place)
        response = Response(body, mimetype=sse.CONTENT_TYPE, headers=headers)
        if place is not None:
            response.call_on_close(place.release)
        return response


def _resume_after(after: str | None) -> str | None:
    """Last-Event-ID when the client sent one, else `after`."""
    header = request.headers.get("Last-Event-ID")
    if header is None:
        return after
    text = header.strip()
    if not is_entry_id(text):
        raise ApiError(
            400, "bad-last-event-id", "Bad request", "Last-Event-ID must be an inbox entry id."
        )
    return text


def inbox_events(
    ctx: Context,
    player: str,
    after: str,
    encode: Callable[[Any], bytes],
    place: Place | None = None,
) -> Iterator[bytes]:
    """The inbox stream's body: entries after `after` as they are written, heartbeats while
    quiet; the player is present while it is open, and `place` (its address's) is kept."""
    settings = ctx.settings
    closes_at = time.monotonic() + settings.stream_seconds
    yield sse.retry(RETRY_MILLISECONDS)
    here(ctx, player)
    with follow_inbox(ctx, player, after) as follower:
        while True:
            ctx.presence.touch(player)
            if place is not None:
                place.renew()
            left = closes_at - time.monotonic()
            if left <= 0:
                return
            entries = follower.next(min(settings.stream_heartbeat_seconds, left))
            if follower.closed:
                return
            if not entries:
                here(ctx, player)  # a quick-play entry of a player whose inbox is open waits on
                yield sse.comment("heartbeat")
                continue
            yield b"".join(
                sse.message(encode(entry.shown()), event_id=entry.id) for entry in entries
            )
