"""A table's chat: post a message, read the messages, mute a seat (see docs/chat.md).

The chat is no part of the game: posting changes no version and appends no event. Messages
also reach open event streams of the game (an SSE event `chat`) and, for seated players who are
away, their inbox (an entry `chat`).
"""

from __future__ import annotations

import hmac
import re
from typing import Any

from flask import Response, jsonify
from flask.views import MethodView

from events.chat import SPECTATORS, MovedOn
from game.table import Table
from play import chat
from play.chat import ChatRefused, Chatter
from play.lobby import Busy
from service import auth
from service.apidoc import operation, problems
from service.blueprints.base import Blueprint
from service.deps import context, services
from service.errors import ApiError
from service.lookup import find_game
from service.ratelimit import READS, limiter, rate_limited
from service.requestlog import note_seat
from service.schemas.chat import (
    ChatMessageSchema,
    ChatPageSchema,
    ChatQuerySchema,
    MutesSchema,
    PostChatSchema,
)

blp = Blueprint("chat", __name__, url_prefix="/games", description="A table's chat")

MESSAGE_EXAMPLE = {
    "id": "1735732800000-0",
    "at": "2025-01-01T12:00:00.000Z",
    "seat": 1,
    "name": "bob",
    "preset": "good_luck",
    "text": None,
}
POST_ATTEMPTS = 5  # the game may move between reading the table and posting: judge again
TARGET = re.compile(r"[0-9]{1,2}|spectators")


def refused(error: ChatRefused) -> ApiError:
    """The problem of a refusal of the chat's rules."""
    titles = {401: "Unauthorized", 403: "Forbidden", 409: "Conflict", 422: "Unprocessable"}
    headers = {"WWW-Authenticate": "Bearer"} if error.status == 401 else None
    return ApiError(error.status, error.slug, titles[error.status], error.detail, headers=headers)


def is_auditor() -> bool:
    """Whether the bearer is the operator's auditor token (who reads every chat, with player
    ids: moderation)."""
    token, auditor = auth.bearer(), services().settings.auditor_token
    return bool(token and auditor and hmac.compare_digest(token.encode(), auditor.encode()))


def request_chatter(table: Table) -> Chatter:
    """Who the request is at this table's chat: a seat (its token or its player's), a player
    without a seat here (a spectator with an identity), or an anonymous spectator. A seat
    token that holds no seat here (left, or another game's) is refused: 401."""
    if auth.bearer() is None:
        return Chatter(None, None, None)
    seat = auth.seat_of_request(table)
    note_seat(seat)
    if seat is not None:
        return chat.chatter(table, seat, None)
    player = auth.request_player()
    if player is None:
        raise ApiError(
            401,
            "unauthorized",
            "Unauthorized",
            "This token holds no seat of this game (left, or never sat): it reads nothing here.",
            headers={"WWW-Authenticate": "Bearer"},
        )
    return chat.chatter(table, None, player)


@blp.route("/<game_id:game_id>/chat")
class Chat(MethodView):
    """The table's chat."""

    @rate_limited(READS)
    @blp.arguments(ChatQuerySchema(), location="query")
    @blp.response(200, ChatPageSchema, example={"messages": [MESSAGE_EXAMPLE]})
    @operation("getChat", token="anyone")
    @problems(400, 401, 403, 404)
    def get(self, query: dict[str, Any], game_id: str) -> Response:
        """Messages after `after` (a message id), oldest first, without those of the posters
        the reader muted. Seats read it; spectators too where the table allows it
        (`spectator_chat`); the auditor reads every chat, with each poster's player id."""
        _, table = find_game(game_id)
        games = context().games
        moderator = is_auditor()
        muted: frozenset[str] = frozenset()
        if not moderator:
            who = request_chatter(table)
            try:
                chat.may_read(table, who)
            except ChatRefused as error:
                raise refused(error) from None
            if who.holder is not None:
                muted = games.chat_mutes(game_id).get(who.holder, frozenset())
        messages = games.chat_messages(game_id, query["after"], query["limit"])
        shown = [
            chat.shown(message, moderator=moderator) for message in chat.shown_to(messages, muted)
        ]
        response = jsonify({"messages": shown})
        response.headers["Vary"] = "Authorization"
        return response

    @rate_limited("chat", seat=auth.request_seat_key)
    @blp.arguments(PostChatSchema(), example={"preset": "good_luck"})
    @blp.response(201, ChatMessageSchema, example=MESSAGE_EXAMPLE)
    @operation("postChat", token="seat-or-player")
    @problems(400, 401, 403, 404, 409, 422, 503)
    def post(self, body: dict[str, Any], game_id: str) -> Response:
        """Post a preset phrase (by its code: each reader sees it in their language) or a line
        of free text. A seat posts with its token (or its player's); where the table allows
        it (`spectator_chat`), a player without a seat here posts as a spectator. At most 5
        messages per 10 s per poster (429 `rate-limited`). The game's version does not move."""
        ctx = context()
        for attempt in range(POST_ATTEMPTS):  # who may post is judged on the newest table
            _, table = find_game(game_id)
            who = request_chatter(table)
            try:
                chat.may_read(table, who)
                if who.holder is None:
                    raise ChatRefused(
                        401, "unauthorized", "Post with a seat's token or a player's."
                    )
                if attempt == 0:
                    limiter().check_one("chat", "poster", who.holder, ctx.settings.chat_rate)
                name = None
                if who.seat is None and who.player is not None:
                    found = ctx.players.get(who.player)
                    name = found.name if found is not None else who.player
                posted = chat.post(ctx, game_id, table, who, preset=body.get("preset"),
                                   text=body.get("text"), name=name)  # fmt: skip
                break
            except ChatRefused as error:
                raise refused(error) from None
            except MovedOn:
                continue
        else:
            raise Busy
        response = jsonify(chat.shown(posted))
        response.status_code = 201
        return response


@blp.route("/<game_id:game_id>/chat/mutes")
class Mutes(MethodView):
    """Whom the reader muted at this table."""

    @rate_limited(READS)
    @blp.response(200, MutesSchema, example={"muted": ["2", "spectators"]})
    @operation("getChatMutes", token="seat-or-player")
    @problems(401, 403, 404)
    def get(self, game_id: str) -> dict[str, Any]:
        """The seats (and `spectators`) whose messages the reader no longer gets."""
        _, table = find_game(game_id)
        holder = _holder(table)
        return {"muted": sorted(context().games.chat_mutes(game_id).get(holder, frozenset()))}


@blp.route("/<game_id:game_id>/chat/mutes/<target>")
class Mute(MethodView):
    """Mute a seat (or every spectator), for the reader alone."""

    @rate_limited("chat-mutes", seat=auth.request_seat_key)
    @blp.response(204)
    @operation("muteChat", token="seat-or-player")
    @problems(401, 403, 404, 409, 422)
    def put(self, game_id: str, target: str) -> None:
        """From now on, the reader gets no message of this seat (a number) or of any
        spectator (`spectators`): not in the chat, the stream or the inbox. Others still do."""
        self._set(game_id, target, muted=True)

    @rate_limited("chat-mutes", seat=auth.request_seat_key)
    @blp.response(204)
    @operation("unmuteChat", token="seat-or-player")
    @problems(401, 403, 404, 409, 422)
    def delete(self, game_id: str, target: str) -> None:
        """Hear this seat (or the spectators) again."""
        self._set(game_id, target, muted=False)

    @staticmethod
    def _set(game_id: str, target: str, *, muted: bool) -> None:
        _, table = find_game(game_id)
        holder = _holder(table)
        who = request_chatter(table)
        last = len(table.seats) - 1
        if not TARGET.fullmatch(target) or (target != SPECTATORS and int(target) > last):
            detail = f"Mute a seat (0 to {last}) or `spectators`."
            raise ApiError(422, "unknown-seat", "Unprocessable", detail)
        if target != SPECTATORS and int(target) == who.seat:
            raise ApiError(422, "mute-self", "Unprocessable", "A seat can't mute itself.")
        games = context().games
        if not games.store.exists(game_id):
            raise refused(
                ChatRefused(409, "chat-archived", "This game was archived: its chat is read-only.")
            )
        games.chat.mute(game_id, holder, target, muted)


def _holder(table: Table) -> str:
    """The identity the request's mutes are kept under; 401 for an anonymous reader, 403 for
    a spectator where spectators don't chat."""
    who = request_chatter(table)
    try:
        chat.may_read(table, who)
    except ChatRefused as error:
        raise refused(error) from None
    if who.holder is None:
        raise refused(ChatRefused(401, "unauthorized", "Mute with a seat's token or a player's."))
    return who.holder
