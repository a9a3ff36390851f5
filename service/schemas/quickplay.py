"""Schemas of quick play: a player's entry in the queue, and what became of it."""

from __future__ import annotations

from marshmallow import fields, validate

from events.queue import STATES
from game.bots import POLICIES
from game.editions import EDITIONS
from service.schemas.base import MAX_SEATS, Schema, StrictBoolean, WholeNumber

QUICKPLAY_BOT = "medium"  # the level of the bots that fill a quick-play table by default
MAX_BOTS_AFTER = 600  # seconds: the longest wait before bots fill a table
ENTRY_ID = "^[A-Za-z0-9_-]{16}$"


class QueueEntryRequestSchema(Schema):
    """A player asks for a game: which edition, how many seats, ranked or not, and how long
    they wait before bots fill the empty seats."""

    edition = fields.String(required=True, validate=validate.OneOf(sorted(EDITIONS)))
    seats = fields.List(
        WholeNumber(validate=validate.Range(min=2, max=MAX_SEATS)),
        required=True,
        validate=validate.Length(min=1, max=MAX_SEATS - 1),
        metadata={"description": "the numbers of seats the player accepts (one or several),"
                  " each one the edition is played by (else 422 `wrong-player-count`)"},
    )  # fmt: skip
    ranked = StrictBoolean(
        load_default=False,
        metadata={"description": "a ranked game: matched with players of close ratings, and"
                  " never with bots"},
    )  # fmt: skip
    bots_after = WholeNumber(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0, max=MAX_BOTS_AFTER),
        metadata={"description": "seconds after which bots fill the empty seats (0: at once);"
                  " null (the default): wait for people only. Must be null when ranked (else 422"
                  " `bad-setting`)"},
    )  # fmt: skip
    reliable_only = StrictBoolean(
        load_default=False,
        metadata={"description": "matched only with reliable players: those who left at most"
                  " a fifth of their finished games (`abandon_rate`, getPlayer)"},
    )  # fmt: skip
    bot = fields.String(
        load_default=QUICKPLAY_BOT,
        validate=validate.OneOf(sorted(POLICIES)),
        metadata={"description": "the bot that fills empty seats (and takes over abandoned"
                  " ones)"},
    )  # fmt: skip


class QueueEntrySchema(Schema):
    """A quick-play entry as its player sees it."""

    id = fields.String(required=True)
    state = fields.String(
        required=True,
        validate=validate.OneOf(STATES),
        metadata={"description": "waiting; matched (its table is open: `game`, `seat` and"
                  " `token` are set); cancelled; dropped (the player was not seen for a while)"},
    )  # fmt: skip
    edition = fields.String(required=True)
    seats = fields.List(fields.Integer(), required=True)
    ranked = fields.Boolean(required=True)
    bots_after = fields.Integer(required=True, allow_none=True)
    bot = fields.String(required=True)
    reliable_only = fields.Boolean(required=True)
    entered_at = fields.String(required=True, metadata={"format": "date-time"})
    game = fields.String(required=True, allow_none=True, metadata={"description": "once matched"})
    seat = fields.Integer(required=True, allow_none=True)
    token = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "the seat's token, once matched (the player's own token acts"
                  " for the seat too)"},
    )  # fmt: skip
