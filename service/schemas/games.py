"""Schemas of the game resources: tables, seats, views, event feeds (commands: commands.py)."""

from __future__ import annotations

import unicodedata
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from events.schemas import schema_for
from game.bots import POLICIES
from game.editions import EDITIONS
from game.table import ABANDON_AFTER, TAKEOVER_BOT, TIMEOUT_CHOICES
from game.views import SeatView
from play.visible import RULE as VISIBLE_RULE
from play.visible import hidden_problem
from service.apidoc import Tagged
from service.schemas.base import MAX_SEATS, Schema, StrictBoolean, WholeNumber, seat_number
from service.schemas.commands import COMMAND_COMPONENTS
from service.schemas.events import EVENT_COMPONENTS

NAME_MAX = 40
NAME_FORMAT = "player-name"  # the OpenAPI format of names (a pattern can't name Unicode classes)
NAME_PUNCTUATION = frozenset(" .-_")
NAME_RULE = (
    f"1 to {NAME_MAX} characters: letters, marks and digits of any script, spaces, '.', '-' and"
    " '_', with no space at either end (no control characters, no markup), "
    + VISIBLE_RULE
    + "; kept in Unicode NFC"
)
MAX_WAIT_SECONDS = 60  # the longest long poll of the event feed


class PlayerName(fields.String):
    """A player's name as NAME_RULE says; anything else is a validation error."""

    def __init__(self, **options: Any) -> None:
        description = f"{options.pop('description')}; {NAME_RULE}"
        super().__init__(
            validate=validate.Length(min=1, max=NAME_MAX),
            metadata={"description": description, "format": NAME_FORMAT},
            **options,
        )

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        name = unicodedata.normalize("NFC", super()._deserialize(value, attr, data, **kwargs))
        allowed = all(
            char in NAME_PUNCTUATION or unicodedata.category(char)[0] in "LMN" for char in name
        )
        if not allowed or name != name.strip(" ") or len(name) > NAME_MAX:
            raise ma.ValidationError(f"A name is {NAME_RULE}.")
        hidden = hidden_problem(name, name=True)
        if hidden is not None:
            raise ma.ValidationError(f"A name is seen as it is written: {hidden}")
        return name


SEAT_KINDS = ("human", *sorted(POLICIES))


class CreateGameSchema(Schema):
    """A new game: its edition, its seats (`human`, or a bot's policy) and settings."""

    edition = fields.String(required=True, validate=validate.OneOf(sorted(EDITIONS)))
    seats = fields.List(
        fields.String(validate=validate.OneOf(SEAT_KINDS)),
        required=True,
        validate=validate.Length(min=2, max=MAX_SEATS),
        metadata={"description": "one entry per seat, in seat order: human or a bot policy"},
    )
    name = PlayerName(
        description="the creator's name: they take the first human seat, if any (with a"
        " player's token as the bearer, the player takes it, under this name or theirs)"
    )
    seed = fields.String(
        validate=validate.Length(min=1, max=100),
        metadata={
            "description": "the first game's random seed, only where the operator allows seeded"
            " games (else 422 `seed-not-allowed`): whoever chose it knows every deal, so the"
            " table says `seeded` to everyone. By default each game is dealt from a fresh secret"
            " the server draws and reveals once that game is over"
        },
    )
    first_player = seat_number(
        "the seat that plays first in the first game (default: drawn at random); 0 to the"
        " number of `seats` - 1"
    )
    turn_seconds = WholeNumber(
        validate=validate.Range(min=1, max=7 * 24 * 3600),
        metadata={"description": "time limit per move; none by default"},
    )
    on_timeout = fields.String(load_default="bot", validate=validate.OneOf(TIMEOUT_CHOICES))
    autostart = StrictBoolean(load_default=True)
    abandon_after = WholeNumber(
        load_default=ABANDON_AFTER,
        validate=validate.Range(min=1, max=100),
        metadata={"description": "a seat whose turn times out this many times in a row is"
                  " abandoned: a bot takes it over"},
    )  # fmt: skip
    takeover_bot = fields.String(
        load_default=TAKEOVER_BOT,
        validate=validate.OneOf(sorted(POLICIES)),
        metadata={"description": "the bot that plays an abandoned seat"},
    )
    ranked = StrictBoolean(
        load_default=False,
        metadata={"description": "its games move the players' ratings (GET /leaderboards):"
                  " every seat `human`, no `seed` (else 422 `bad-setting`)"},
    )  # fmt: skip
    spectator_chat = StrictBoolean(
        load_default=False,
        metadata={"description": "spectators may read the table's chat, and players without a"
                  " seat here post to it (by default only the seats chat)"},
    )  # fmt: skip


class JoinSchema(Schema):
    """Take an open human seat (the first one unless `seat` is given). With a player's token
    as the bearer, the seat is also the player's."""

    name = PlayerName(required=True, description="the player's name at this table")
    seat = seat_number("the seat to take (default: the first open one)")


class WebhookSchema(Schema):
    """Where to POST "your turn" notices for a seat (http or https)."""

    url = fields.String(required=True, validate=validate.Length(min=8, max=2000))


class WebhookCreatedSchema(Schema):
    """The webhook and its signing secret (shown only in this answer)."""

    url = fields.String(required=True)
    secret = fields.String(
        required=True, metadata={"description": "Standard Webhooks secret (whsec_...)"}
    )


class TableSeatSchema(Schema):
    """A seat at the table: who sits there."""

    seat = fields.Integer(required=True)
    name = fields.String(allow_none=True, required=True)
    bot = fields.String(allow_none=True, required=True)
    open = fields.Boolean(required=True)
    webhook = fields.Boolean(required=True, metadata={"description": "has a webhook set"})
    player = fields.Boolean(
        required=True, metadata={"description": "a player (not a seat token alone) holds it"}
    )
    presence = fields.String(
        allow_none=True,
        validate=validate.OneOf(["here", "away"]),
        metadata={"description": "in getGame only: whether the seat's player had a request or"
                  " a stream open within the last minute (null: a bot or an open seat)"},
    )  # fmt: skip


class GameSchema(Schema):
    """A game's table: settings, seats, status and version (also sent as the ETag)."""

    id = fields.String(required=True)
    edition = fields.String(required=True)
    status = fields.String(required=True, metadata={"description": "open, playing or over"})
    version = fields.Integer(required=True)
    seats = fields.List(fields.Nested(TableSeatSchema), required=True)
    open_seats = fields.Integer(required=True)
    turn_seconds = fields.Integer(allow_none=True, required=True)
    on_timeout = fields.String(required=True)
    autostart = fields.Boolean(required=True)
    games_played = fields.Integer(required=True)
    seeded = fields.Boolean(
        required=True,
        metadata={"description": "its creator chose the seed and so knows every deal: unfair"},
    )
    ranked = fields.Boolean(
        required=True, metadata={"description": "its games move the players' ratings"}
    )
    spectator_chat = fields.Boolean(
        required=True, metadata={"description": "spectators may read and post to the chat"}
    )
    tutorial = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "the tutorial this game is (POST /tutorials): one round on a"
                  " prepared deal, unrated and unlisted; null for every other game"},
    )  # fmt: skip


class CreatedGameSchema(Schema):
    """A new game, and the creator's seat and secret token (None when every seat is a bot)."""

    game = fields.Nested(GameSchema, required=True)
    seat = fields.Integer(allow_none=True, required=True)
    token = fields.String(allow_none=True, required=True)


class SeatTokenSchema(Schema):
    """A seat taken: its number and its secret token (shown only in this answer)."""

    seat = fields.Integer(required=True)
    token = fields.String(required=True)


class GameSummarySchema(Schema):
    """One line of the lobby."""

    id = fields.String(required=True)
    edition = fields.String(required=True)
    status = fields.String(required=True)
    open_seats = fields.Integer(required=True)
    players = fields.Integer(required=True)
    updated_at = fields.Float(required=True)


class GameListSchema(Schema):
    """A page of the lobby, most recently updated first."""

    games = fields.List(fields.Nested(GameSummarySchema), required=True)


class GameListQuerySchema(Schema):
    """Lobby filters."""

    edition = fields.String(validate=validate.OneOf(sorted(EDITIONS)))
    status = fields.String(validate=validate.OneOf(["open", "playing", "over"]))
    open = fields.Boolean(metadata={"description": "only games with (true) or without open seats"})
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=100_000))


class ViewSchema(Schema):
    """A game as one audience may see it, and the legal commands of the asking seat."""

    game = fields.Nested(GameSchema, required=True)
    view = fields.Nested(
        schema_for(SeatView),
        allow_none=True,
        required=True,
        metadata={"description": "the game itself (null until it starts)"},
    )
    legal = fields.List(
        Tagged("type", COMMAND_COMPONENTS),
        required=True,
        metadata={
            "description": "the commands the asking seat may send now, exactly as it sends them"
            " (empty when it is not this seat's turn)"
        },
    )
    puts_you_out = fields.List(
        fields.Integer(),
        required=True,
        metadata={
            "description": "the positions in `legal` of the moves certain to put the asking seat"
            " out of the round, judged from its own view alone (a Princess played or discarded,"
            " a comparison it can only lose, a Guard on a known Assassin): ask before sending"
        },
    )


class FeedQuerySchema(Schema):
    """Where to start reading, and how long to wait for news."""

    after = fields.Integer(load_default=0, validate=validate.Range(min=0))
    wait = fields.Float(
        load_default=0,
        validate=validate.Range(min=0, max=MAX_WAIT_SECONDS),
        metadata={
            "description": f"seconds to wait for an event after `after` (at most "
            f"{MAX_WAIT_SECONDS}); with none by then, the answer is 200 with no events"
        },
    )
    limit = fields.Integer(load_default=500, validate=validate.Range(min=1, max=5000))


class FeedSchema(Schema):
    """Events after `after`, and the game's version now."""

    version = fields.Integer(required=True)
    events = fields.List(
        Tagged("type", EVENT_COMPONENTS),
        required=True,
        metadata={"description": "each as the asking audience may know it: hidden cards are null"},
    )


class TurnReadyDataSchema(Schema):
    """Which seat must act in which game, at which version."""

    game = fields.String(required=True)
    seat = fields.Integer(required=True)
    version = fields.Integer(required=True, metadata={"description": "send it as If-Match"})
    decision = fields.String(
        required=True,
        validate=validate.OneOf(["play", "chancellor", "redraw"]),
        metadata={"description": "what the seat must do: play a card, finish a Chancellor, or"
                  " answer a Bishop"},
    )  # fmt: skip


class TurnReadySchema(Schema):
    """The body of a "your turn" webhook call (thin: fetch the view with the seat's token)."""

    type = fields.String(required=True, validate=validate.OneOf(["turn.ready"]))
    timestamp = fields.String(required=True, metadata={"format": "date-time"})
    data = fields.Nested(TurnReadyDataSchema, required=True)
