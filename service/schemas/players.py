"""Schemas of players: a guest's creation, a player's record, transfer codes, "my games" and the
inbox (its entries are documented with the stream)."""

from __future__ import annotations

import hashlib

import marshmallow as ma
from marshmallow import fields, validate

from game.table import STATUSES
from play.inbox import INBOX_TYPES
from service.schemas.base import ENTRY_ID_PATTERN, Schema, entry_id_rules
from service.schemas.games import PlayerName
from service.schemas.ratings import ABANDON_RATE
from service.schemas.streams import TICKET_PATTERN

_NAME = PlayerName(description="a name")
PLAYER_TOKEN_PATTERN = "^plr_[A-Za-z0-9_-]{43}$"
INBOX_ENTRY_ID = ENTRY_ID_PATTERN


def player_name(suggested: str | None, subject: str) -> str:
    """The name a trusted issuer suggests, if it follows the rules of names; else one made
    from the subject (the player can't choose it here)."""
    if suggested is not None:
        try:
            return str(_NAME.deserialize(suggested))
        except ma.ValidationError:
            pass
    return "player-" + hashlib.sha256(subject.encode()).hexdigest()[:6]


class NewPlayerSchema(Schema):
    """A guest player: only a name."""

    name = PlayerName(required=True, description="the player's name")


class PlayerSchema(Schema):
    """A player's record."""

    id = fields.String(required=True)
    name = fields.String(required=True)
    kind = fields.String(
        required=True,
        validate=validate.OneOf(["guest", "external"]),
        metadata={"description": "guest (made by POST /players) or external (the operator's"
                  " trusted issuer names it)"},
    )  # fmt: skip
    created_at = fields.String(required=True, metadata={"format": "date-time"})
    games = fields.Integer(
        required=True, metadata={"description": "finished games, rated or not (as getPlayer)"}
    )
    wins = fields.Integer(required=True, metadata={"description": "finished games won"})
    abandons = fields.Integer(
        required=True,
        metadata={"description": "finished games whose seat the player left to a bot or"
                  " forfeited (as getPlayer)"},
    )  # fmt: skip
    abandon_rate = ABANDON_RATE
    webhook = fields.Boolean(required=True, metadata={"description": "has a webhook set"})


class PlayerTokenSchema(Schema):
    """A player and its secret token (shown only in this answer; the server keeps its hash)."""

    player = fields.Nested(PlayerSchema, required=True)
    token = fields.String(required=True)


class DeviceSchema(Schema):
    """One of the player's devices: a player token it holds (never shown again)."""

    id = fields.String(required=True, metadata={"description": "the device's id (revokeDevice)"})
    created_at = fields.String(
        allow_none=True,
        required=True,
        metadata={"format": "date-time",
                  "description": "when its token was made (null: before devices were listed)"},
    )  # fmt: skip
    last_used_at = fields.String(
        allow_none=True,
        required=True,
        metadata={"format": "date-time",
                  "description": "when its token was last used, to within 15 minutes (null:"
                  " not since it was made)"},
    )  # fmt: skip
    current = fields.Boolean(
        required=True, metadata={"description": "this request's token is this device's"}
    )


class DevicesSchema(Schema):
    """The player's devices, the most recently made first."""

    devices = fields.List(fields.Nested(DeviceSchema), required=True)


class RevokedSchema(Schema):
    """How many player tokens were revoked."""

    revoked = fields.Integer(required=True)


class LinkSchema(Schema):
    """The guest's own token, to link that guest to the bearer JWT's identity."""

    token = fields.String(
        required=True,
        validate=validate.Regexp(PLAYER_TOKEN_PATTERN),
        metadata={"description": "the guest's player token (`plr_...`)"},
    )


class LinkedSchema(Schema):
    """The linked player (the guest, now signed in through the issuer), and how many of its
    player tokens were revoked."""

    player = fields.Nested(PlayerSchema, required=True)
    revoked = fields.Integer(required=True)


class TransferCodeSchema(Schema):
    """A one-time code that moves the player to another device."""

    code = fields.String(required=True)
    expires_in = fields.Integer(
        required=True, metadata={"description": "seconds during which it can be redeemed"}
    )


class RedeemSchema(Schema):
    """A transfer code to redeem."""

    code = fields.String(required=True, validate=validate.Regexp(TICKET_PATTERN))


MY_GAMES_OFFSET = 100_000  # the deepest page: far past any player's games


class MyGamesQuerySchema(Schema):
    """Filter and page "my games"."""

    status = fields.String(validate=validate.OneOf(STATUSES))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    offset = fields.Integer(
        load_default=0,
        validate=validate.Range(min=0, max=MY_GAMES_OFFSET),
        metadata={"description": "games skipped (a page costs the same at any offset)"},
    )


class MySeatSchema(Schema):
    """A seat of one of my games."""

    seat = fields.Integer(required=True)
    name = fields.String(allow_none=True, required=True)
    bot = fields.String(allow_none=True, required=True)
    open = fields.Boolean(required=True)


class MyGameSchema(Schema):
    """One of my games."""

    id = fields.String(required=True)
    edition = fields.String(required=True)
    status = fields.String(required=True, metadata={"description": "open, playing or over"})
    version = fields.Integer(required=True)
    seats = fields.List(fields.Nested(MySeatSchema), required=True)
    my_seat = fields.Integer(
        allow_none=True, required=True, metadata={"description": "null once I left it"}
    )
    left = fields.Boolean(
        required=True, metadata={"description": "I left this game in play to a bot"}
    )
    to_play = fields.Integer(
        allow_none=True, required=True, metadata={"description": "the seat that must act now"}
    )
    my_turn = fields.Boolean(required=True)
    deadline = fields.String(
        allow_none=True,
        required=True,
        metadata={"format": "date-time", "description": "when the turn to play times out"},
    )
    last_move_at = fields.String(
        allow_none=True,
        required=True,
        metadata={"format": "date-time", "description": "when the last event was appended"},
    )


class MyGamesSchema(Schema):
    """A page of my games: those waiting on me first, then the most recently moved."""

    games = fields.List(fields.Nested(MyGameSchema), required=True)
    total = fields.Integer(required=True, metadata={"description": "games of this filter"})


class InboxQuerySchema(Schema):
    """Where the inbox stream starts, and who opens it when no header can say so."""

    after = fields.String(
        validate=entry_id_rules(),
        metadata={"description": "send the entries after this entry id (Last-Event-ID wins);"
                  " default: only what comes from now on"},
    )  # fmt: skip
    ticket = fields.String(
        validate=validate.Regexp(TICKET_PATTERN),
        metadata={"description": "an inbox ticket (POST /players/me/stream-tickets), for"
                  " clients that can't send headers (EventSource)"},
    )  # fmt: skip


class InboxTicketSchema(Schema):
    """A short-lived ticket that opens the player's inbox stream, and nothing else."""

    ticket = fields.String(required=True)
    expires_in = fields.Integer(required=True)
    url = fields.String(required=True)


class InboxEntrySchema(Schema):
    """One inbox entry (the `data` of a stream message)."""

    id = fields.String(required=True, metadata={"description": "the entry id (also the SSE id)"})
    at = fields.String(required=True, metadata={"format": "date-time"})
    type = fields.String(required=True, validate=validate.OneOf(INBOX_TYPES))
    game = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "the game's version"})
    seat = fields.Integer(required=True, metadata={"description": "my seat at that game"})
    appended_at_ms = fields.Integer(
        required=True,
        metadata={
            "description": "when the game's append was made (Unix ms); chat: when the"
            " message was posted (the game's version did not move)"
        },
    )
    edition = fields.String(metadata={"description": "game_started, matched"})
    entry = fields.String(metadata={"description": "matched: the quick-play entry"})
    ranked = fields.Boolean(metadata={"description": "matched: whether the game is ranked"})
    winners = fields.List(fields.Integer(), metadata={"description": "game_over"})
    won = fields.Boolean(metadata={"description": "game_over"})
    bot = fields.String(metadata={"description": "seat_taken_over: the bot playing my seat"})
    reason = fields.String(
        validate=validate.OneOf(["abandoned", "timed-out"]),
        metadata={"description": "seat_taken_over"},
    )
    message = fields.String(metadata={"description": "chat: the message's id"})
    from_seat = fields.Integer(
        allow_none=True, metadata={"description": "chat: the poster's seat (null: a spectator)"}
    )
    name = fields.String(metadata={"description": "chat: the poster's name"})
    preset = fields.String(metadata={"description": "chat: a preset phrase's code"})
    text = fields.String(metadata={"description": "chat: free text"})
