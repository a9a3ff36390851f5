"""Quick play: a player enters the queue, follows its entry until it is matched, or cancels."""

from __future__ import annotations

import re
from typing import Any

from flask import Response, jsonify, url_for
from flask.views import MethodView

from events.queue import Entry
from play.quickplay import AlreadyQueued, WrongSeats, cancel, enter, entry_json, seen
from service import examples
from service.apidoc import operation, problems
from service.auth import request_seat_key, require_player
from service.blueprints.base import Blueprint
from service.deps import context
from service.errors import ApiError
from service.ratelimit import READS, count_bot_table, rate_limited
from service.requestlog import note_game
from service.schemas.quickplay import ENTRY_ID, QueueEntryRequestSchema, QueueEntrySchema

blp = Blueprint("queue", __name__, url_prefix="/queue", description="Quick play")

ENTRY = QueueEntrySchema()


def _answer(entry: Entry, status: int = 200) -> Response:
    response = jsonify(ENTRY.dump(entry_json(entry)))
    response.status_code = status
    return response


@blp.route("")
class Queue(MethodView):
    """The quick-play queue."""

    @rate_limited("lobby", seat=request_seat_key)
    @blp.arguments(QueueEntryRequestSchema(), example=examples.QUEUE_ENTRY_REQUEST)
    @blp.response(201, QueueEntrySchema, example=examples.QUEUE_ENTRY)
    @operation("enterQueue", token="player")
    @problems(401, 409, 422)
    def post(self, body: dict[str, Any]) -> Response:
        """Ask for a game: the player is matched with others who want the same edition and
        number of seats (ranked: of close ratings), and bots fill the empty seats once the
        player has waited `bots_after` seconds. Poll the entry (or read the inbox: a `matched`
        entry) to learn the game and seat; a player not seen for 30 s is dropped from the queue.
        One entry per player at a time (409 `already-queued` names the waiting one)."""
        player = require_player()
        if body["ranked"] and body["bots_after"] is not None:
            # A rule of ranked play, not of the body's shape: the document lets both be given.
            raise ApiError(
                422, "bad-setting", "Unprocessable Entity", "Ranked games take no bots: leave"
                " bots_after null."
            )  # fmt: skip
        if body["bots_after"] is not None:  # bots may fill its table
            count_bot_table([body["bot"]], player)
        try:
            entry = enter(
                context(),
                player,
                body["edition"],
                body["seats"],
                ranked=body["ranked"],
                bots_after=body["bots_after"],
                bot=body["bot"],
                reliable_only=body["reliable_only"],
            )
        except WrongSeats as error:
            raise ApiError(422, "wrong-player-count", "Unprocessable Entity", str(error)) from None
        except AlreadyQueued as error:
            raise ApiError(
                409,
                "already-queued",
                "Conflict",
                "This player waits in the queue already: cancel that entry first.",
                entry=error.entry_id,
            ) from None
        if entry.game is not None and entry.opened is not None:
            note_game(entry.game)
        response = _answer(entry, 201)
        response.headers["Location"] = url_for("queue.QueueEntry", entry_id=entry.id)
        return response


def _mine(entry_id: str) -> Entry:
    """The asking player's entry; 404 for an unknown one, or another player's."""
    player = require_player()
    entry = context().quickplay.get(entry_id) if re.fullmatch(ENTRY_ID, entry_id) else None
    if entry is None or entry.player != player:
        raise ApiError(
            404,
            "queue-entry-not-found",
            "Not found",
            "No such entry of this player in the queue (entries are kept an hour after they"
            " are matched, cancelled or dropped).",
        )
    return entry


@blp.route("/<entry_id>")
class QueueEntry(MethodView):
    """One entry of the queue."""

    @rate_limited(READS)
    @blp.response(200, QueueEntrySchema, example=examples.QUEUE_ENTRY_MATCHED)
    @operation("getQueueEntry", token="player")
    @problems(401, 404)
    def get(self, entry_id: str) -> Response:
        """The entry's state: waiting, matched (with its game, seat and seat token), cancelled
        or dropped. Polling it tells the queue the player is still here."""
        entry = _mine(entry_id)
        seen(context(), entry)
        return _answer(entry)

    @rate_limited("lobby", seat=request_seat_key)
    @blp.response(200, QueueEntrySchema, example=examples.QUEUE_ENTRY_CANCELLED)
    @operation("cancelQueueEntry", token="player")
    @problems(401, 404, 409)
    def delete(self, entry_id: str) -> Response:
        """Leave the queue. An entry matched already stays matched (409 `queue-entry-matched`:
        its game has the player's seat); a cancelled or dropped one is answered as it is."""
        entry = _mine(entry_id)
        state = cancel(context(), entry)
        if state == "matched":
            raise ApiError(
                409,
                "queue-entry-matched",
                "Conflict",
                "This entry was matched before it could be cancelled: its game has a seat for"
                " the player (leave the game instead).",
            )
        found = context().quickplay.get(entry_id)
        assert found is not None
        return _answer(found)
