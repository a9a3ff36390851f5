"""Players: a guest is made, moves to another device, lists its games, follows its inbox."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import Response, request, url_for
from flask.views import MethodView

from events.devices import Device
from events.players import Player, is_entry_id
from events.store import iso_time
from play.context import Context
from play.follow import follow_inbox
from play.identities import IdentityTaken, LinkBusy, NotAGuest, UnknownGuest, link_guest
from play.players import (
    INBOX_TICKET,
    my_games,
    new_guest,
    redeem_transfer_code,
    transfer_code,
)
from play.quickplay import here
from play.records import player_record, record_totals
from play.settings import Limit
from play.webhooks import new_secret, url_problem
from service import examples, metrics, sse
from service.apidoc import operation, problems
from service.auth import (
    bearer,
    held,
    holding,
    player_token_digest,
    request_device,
    request_seat_key,
    require_player,
    verified_subject,
)
from service.blueprints.base import Blueprint
from service.blueprints.stream import RETRY_MILLISECONDS
from service.deps import context
from service.errors import ApiError
from service.jsonprovider import json_encoder
from service.ratelimit import READS, Place, count_against, limiter, rate_limited
from service.schemas.games import WebhookCreatedSchema, WebhookSchema
from service.schemas.players import (
    INBOX_ENTRY_ID,
    DevicesSchema,
    InboxQuerySchema,
    InboxTicketSchema,
    LinkedSchema,
    LinkSchema,
    MyGamesQuerySchema,
    MyGamesSchema,
    NewPlayerSchema,
    PlayerSchema,
    PlayerTokenSchema,
    RedeemSchema,
    RevokedSchema,
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


def player_json(player: Player, ctx: Context | None = None) -> dict[str, Any]:
    """A player's record as the API answers it: its counters named and counted as getPlayer's
    (a new player has none: no context needed)."""
    totals = record_totals(() if ctx is None else player_record(ctx, player.id))
    return {
        "id": player.id,
        "name": player.name,
        "kind": player.kind,
        "created_at": iso_time(int(player.created_at * 1000)),
        **totals,
        "webhook": player.webhook_url is not None,
    }


def guests_only(detail: str) -> ApiError:
    """The problem of a player of the issuer asking what only a guest may do."""
    return ApiError(403, "guests-only", "Forbidden", detail)


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

    @blp.response(200, PlayerSchema, example=examples.ME)
    @operation("getMe", token="player")
    @problems(401)
    def get(self) -> dict[str, Any]:
        """The player the bearer names (a player token, or the trusted issuer's JWT: such a
        player is made at first sight), with the counters of its public record (getPlayer)."""
        return player_json(_me(), context())


@blp.route("/me/transfer-codes")
class TransferCodes(MethodView):
    """Moving a player to another device."""

    @rate_limited("lobby", seat=request_seat_key)
    @blp.response(
        201, TransferCodeSchema, example={"code": examples.TRANSFER_CODE, "expires_in": 600}
    )
    @operation("createTransferCode", token="player")
    @problems(401, 403)
    def post(self) -> dict[str, Any]:
        """A guest's one-time code (10 minutes by default) that another device redeems for a
        token of its own (redeemTransferCode); this device's token stays valid. A player of the
        operator's issuer signs in there on each device instead (403 guests-only)."""
        try:
            code, seconds = transfer_code(context(), _me())
        except NotAGuest:
            raise guests_only(
                "This player signs in through its account on each device: transfer codes are"
                " for guests."
            ) from None
        return {"code": code, "expires_in": seconds}


@blp.route("/tokens")
class Tokens(MethodView):
    """Redeeming a transfer code."""

    @rate_limited("lobby")
    @blp.arguments(RedeemSchema(), example={"code": examples.TRANSFER_CODE})
    @blp.response(201, PlayerTokenSchema, example=examples.NEW_PLAYER)
    @operation("redeemTransferCode")
    @problems(403, 404, 422)
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """A new token for the player of a transfer code (shown once); the code is spent."""
        try:
            redeemed = redeem_transfer_code(context(), body["code"])
        except NotAGuest:
            raise guests_only(
                "This code's player was linked to an account since: sign in there."
            ) from None
        if redeemed is None:
            raise ApiError(
                404,
                "transfer-code-not-found",
                "Not found",
                "This transfer code is unknown, spent or expired: ask for another.",
            )
        player, token = redeemed
        return {"player": player_json(player, context()), "token": token}


DEVICE_EXAMPLE = {
    "id": examples.DEVICE_ID,
    "created_at": "2025-01-01T12:00:00.000Z",
    "last_used_at": "2025-01-02T18:45:00.000Z",
    "current": True,
}


@blp.route("/me/devices")
class Devices(MethodView):
    """The player's devices: the player tokens it holds."""

    @blp.response(200, DevicesSchema, example={"devices": [DEVICE_EXAMPLE]})
    @operation("listDevices", token="player")
    @problems(401)
    def get(self) -> dict[str, Any]:
        """Each player token of mine (one per device): when it was made, when it was last used
        (to within 15 minutes) and whether it is this request's (`current`; none is, with a
        JWT)."""
        player, current = require_player(), request_device()
        return {"devices": [device_json(d, current) for d in context().devices.devices(player)]}


@blp.route("/me/devices/<device_id:device_id>")
class DeviceToken(MethodView):
    """One of the player's devices."""

    @rate_limited("lobby", seat=request_seat_key)
    @blp.response(204)
    @operation("revokeDevice", token="player")
    @problems(401, 404)
    def delete(self, device_id: str) -> None:
        """Revoke a device's token (this one's too: that signs this device out): it acts for
        the player no more, anywhere. Its open streams close."""
        if not context().devices.revoke(require_player(), device_id):
            raise ApiError(404, "device-not-found", "Not found", "This player has no such device.")


@blp.route("/me/devices/revoke-others")
class OtherDevices(MethodView):
    """Every device of the player but this one."""

    @rate_limited("lobby", seat=request_seat_key)
    @blp.response(200, RevokedSchema, example={"revoked": 2})
    @operation("revokeOtherDevices", token="player")
    @problems(401)
    def post(self) -> dict[str, Any]:
        """Revoke the token of every device but this request's (with a JWT: every player token
        of the player); how many were revoked."""
        player = require_player()
        return {"revoked": context().devices.revoke_all(player, keep=request_device())}


@blp.route("/me/sign-out")
class SignOut(MethodView):
    """Sign this device out."""

    @rate_limited("lobby", seat=request_seat_key)
    @blp.response(204)
    @operation("signOut", token="player")
    @problems(401, 409)
    def post(self) -> None:
        """Revoke this request's player token: it acts for the player no more. A JWT is signed
        out by its issuer (409)."""
        player, device = require_player(), request_device()
        if device is None:
            raise ApiError(
                409,
                "conflict",
                "Conflict",
                "A JWT is signed out by its issuer: this service holds no token of it.",
            )
        context().devices.revoke(player, device)


@blp.route("/me/link")
class Link(MethodView):
    """Link a guest to the operator's account system."""

    @rate_limited("lobby", seat=request_seat_key)
    @blp.arguments(LinkSchema(), example={"token": examples.NEW_PLAYER["token"]})
    @blp.response(200, LinkedSchema, example={**examples.LINKED, "revoked": 1})
    @operation("linkGuest", token="jwt")
    @problems(401, 403, 409, 422, 503)
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """With the trusted issuer's JWT as the bearer and the guest's token in the body: the
        guest becomes the JWT's player, keeping its id, games, ratings and record; it signs in
        through the issuer from then on, so its player tokens are revoked. 409 when the JWT's
        own player has played already (its games can't be merged)."""
        token = bearer()
        subject = None if token is None else verified_subject(token)
        if subject is None:
            raise ApiError(
                401,
                "unauthorized",
                "Unauthorized",
                "Send the trusted issuer's JWT as `Authorization: Bearer ...`.",
                headers={"WWW-Authenticate": "Bearer"},
            )
        ctx = context()
        guest = ctx.players.by_token(body["token"])  # the schema took only a player token's shape
        try:
            if guest is None:
                raise UnknownGuest()
            player, revoked = link_guest(ctx, subject.issuer, subject.subject, guest)
        except UnknownGuest:
            raise ApiError(
                422,
                "validation-error",
                "Invalid request",
                "This guest token is unknown or was revoked.",
                errors={"json": {"token": ["unknown or revoked"]}},
            ) from None
        except NotAGuest:
            raise guests_only("Only a guest can be linked: this player has an account.") from None
        except IdentityTaken:
            raise ApiError(
                409,
                "identity-taken",
                "Conflict",
                "This account's own player has played already: a guest can't be linked to it.",
            ) from None
        except LinkBusy:
            raise ApiError(503, "busy", "Busy", "The account kept changing; try again.",
                           headers={"Retry-After": "1"}) from None  # fmt: skip
        return {"player": player_json(player, ctx), "revoked": revoked}


def device_json(device: Device, current: str | None) -> dict[str, Any]:
    """A device as DeviceSchema describes it."""
    return {
        "id": device.id,
        "created_at": _time(device.created_at),
        "last_used_at": _time(device.last_used_at),
        "current": device.id == current,
    }


def _time(seconds: float | None) -> str | None:
    return None if seconds is None else iso_time(int(seconds * 1000))


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
        page = my_games(context(), require_player(), query.get("status"),
                        offset=query["offset"], limit=query["limit"])  # fmt: skip
        metrics.record_my_games_loads(page.loaded)
        return {"games": [mine.json() for mine in page.games], "total": page.total}


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
        holder = holding(require_player(), player_token_digest())
        ctx.players.issue(INBOX_TICKET, ticket, holder, seconds)
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
            stands_for = ctx.players.peek(INBOX_TICKET, query["ticket"])
            player, alive = held(stands_for or "")
            if stands_for is None or (alive is not None and not alive()):
                raise ApiError(
                    401,
                    "unauthorized",
                    "Unauthorized",
                    "This inbox ticket is unknown or has expired, or its token was revoked:"
                    " ask for another with the player's token (POST /players/me/stream-tickets).",
                )
        else:
            player, token_digest = require_player(), player_token_digest()
            alive = None if token_digest is None else ctx.devices.alive(token_digest)
        after = _resume_after(query.get("after"))
        if after is None:
            newest = ctx.players.inbox_head(player)
            after = newest or "0-0"
        encode = json_encoder()
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        place = limiter().hold(request.remote_addr)  # a waiter, as a game's stream is
        body = inbox_events(ctx, player, after, encode, alive, place)
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
    alive: Callable[[], bool] | None = None,
    place: Place | None = None,
) -> Iterator[bytes]:
    """The inbox stream's body: entries after `after` as they are written, heartbeats while
    quiet; the player is present while it is open, and `place` (its address's) is kept. It
    ends once `alive` says the player token it was opened with was revoked."""
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
            if follower.closed or (alive is not None and not alive()):
                return
            if not entries:
                here(ctx, player)  # a quick-play entry of a player whose inbox is open waits on
                yield sse.comment("heartbeat")
                continue
            yield b"".join(
                sse.message(encode(entry.shown()), event_id=entry.id) for entry in entries
            )
