"""Schemas of the game resources: tables, seats, commands, views, event feeds."""

from __future__ import annotations

import unicodedata
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from events.schemas import schema_for
from game.bots import POLICIES
from game.editions import EDITIONS
from game.table import TIMEOUT_CHOICES
from game.views import SeatView
from service.schemas.base import Schema, StrictBoolean

NAME_MAX = 40
NAME_FORMAT = "player-name"  # the OpenAPI format of names (a pattern can't name Unicode classes)
NAME_PUNCTUATION = frozenset(" .-_")
NAME_RULE = (
    f"1 to {NAME_MAX} characters: letters, marks and digits of any script, spaces, '.', '-' and"
    " '_', with no space at either end (no control characters, no markup); kept in Unicode NFC"
)
MAX_WAIT_SECONDS = 60  # the longest long poll of the event feed
MAX_SEATS = 8  # the most seats of any edition's table
SEAT_RULE = (
    "a seat of the table, 0 to its number of seats - 1 (the document allows 0-7, the most seats"
    " of any edition; a seat beyond this table is refused with 422 `unknown-seat`)"
)


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
        return name


def seat_number(description: str, **options: Any) -> fields.Integer:
    """A seat number field (a JSON integer, 0 to 7: the rest is checked against the table)."""
    return fields.Integer(
        strict=True,
        validate=validate.Range(min=0, max=MAX_SEATS - 1),
        metadata={"description": f"{description}: {SEAT_RULE}"},
        **options,
    )


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
    name = PlayerName(description="the creator's name: they take the first human seat, if any")
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
    turn_seconds = fields.Integer(
        strict=True,
        validate=validate.Range(min=1, max=7 * 24 * 3600),
        metadata={"description": "time limit per move; none by default"},
    )
    on_timeout = fields.String(load_default="bot", validate=validate.OneOf(TIMEOUT_CHOICES))
    autostart = StrictBoolean(load_default=True)


class JoinSchema(Schema):
    """Take an open human seat (the first one unless `seat` is given)."""

    name = PlayerName(required=True, description="the player's name")
    seat = seat_number("the seat to take (default: the first open one)")


CARDS = sorted({card for edition in EDITIONS.values() for card in edition.rank})
CARD = validate.OneOf(CARDS)


class Guess(fields.Field):
    """What a Guard or Bishop names: a card id, or (premium, Bishop) a number from 0 to 9."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str) and value in CARDS:
            return value
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 9:
            return value
        raise ma.ValidationError("A card id, or a whole number from 0 to 9.")


def kind(name: str) -> fields.String:
    """The `type` member that tells command schemas apart."""
    return fields.String(required=True, validate=validate.OneOf([name]))


class PlayCommandSchema(Schema):
    """Play a card from your hand, choosing players (seat numbers), a name and a look."""

    type = kind("play")
    card = fields.String(required=True, validate=CARD)
    targets = fields.List(
        seat_number("a chosen player"), load_default=list, validate=validate.Length(max=2)
    )
    guess = Guess(
        metadata={
            "description": "Guard, Bishop: a card id, or a number (premium)",
            "oneOf": [
                {"type": "string", "enum": CARDS},
                {"type": "integer", "minimum": 0, "maximum": 9},
            ],
        }
    )
    look = seat_number("Cardinal: whose hand to look at")


class ChancellorCommandSchema(Schema):
    """Keep one card; the others go under the deck in this order (the last at the bottom)."""

    type = kind("chancellor")
    keep = fields.String(required=True, validate=CARD)
    bottom = fields.List(
        fields.String(validate=CARD), required=True, validate=validate.Length(max=2)
    )


class RedrawCommandSchema(Schema):
    """Answer a Bishop who named your card: discard your hand and draw, or not."""

    type = kind("redraw")
    redraw = StrictBoolean(required=True)


class ForfeitCommandSchema(Schema):
    """Give the game up."""

    type = kind("forfeit")


COMMAND_SCHEMAS: dict[str, type[Schema]] = {
    "play": PlayCommandSchema,
    "chancellor": ChancellorCommandSchema,
    "redraw": RedrawCommandSchema,
    "forfeit": ForfeitCommandSchema,
}


def load_command(body: Any) -> dict[str, Any]:
    """Validate a command body with the schema its `type` names."""
    if not isinstance(body, dict):
        raise ma.ValidationError({"_schema": ["A command is a JSON object."]})
    kind = body.get("type")
    chosen = COMMAND_SCHEMAS.get(kind) if isinstance(kind, str) else None
    if chosen is None:
        raise ma.ValidationError({"type": [f"One of: {', '.join(COMMAND_SCHEMAS)}."]})
    loaded: dict[str, Any] = _COMMAND_LOADERS[chosen].load(body)
    return loaded


_COMMAND_LOADERS = {schema: schema() for schema in COMMAND_SCHEMAS.values()}

# The command body in the OpenAPI document: one of the schemas above, told apart by `type`.
COMMAND_BODY = {
    "oneOf": list(COMMAND_SCHEMAS.values()),
    "discriminator": {"propertyName": "type"},
}


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
        fields.Dict(),
        required=True,
        metadata={"description": "the commands the asking seat may send now, as it sends them"},
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


class FeedEventSchema(Schema):
    """One event as this audience may see it: `type`, its fields, and its version."""

    class Meta:
        unknown = ma.INCLUDE

    version = fields.Integer(required=True)
    type = fields.String(required=True)


class FeedSchema(Schema):
    """Events after `after`, and the game's version now."""

    version = fields.Integer(required=True)
    events = fields.List(fields.Dict(), required=True)
