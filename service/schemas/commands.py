"""A seat's commands on the wire: the schemas that validate them (and document them), and the
two translations to and from the engine's commands. The one place the wire format lives."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from game.commands import AnswerRedraw, Command, FinishChancellor, Forfeit, PlayCard
from game.editions import EDITIONS
from service.apidoc import one_of
from service.schemas.base import Schema, StrictBoolean, seat_number
from service.schemas.fastload import compile_loader

CARDS = sorted({card for edition in EDITIONS.values() for card in edition.rank})
CARD = validate.OneOf(CARDS)


class Guess(fields.Field):
    """What a Guard or Bishop names: a card id, or (premium) a number from 0 to 9."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str) and value in CARDS:
            return value
        if isinstance(value, float) and value.is_integer():
            value = int(value)  # JSON Schema's integer: 3.0 is 3
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
_READERS = {name: schema() for name, schema in COMMAND_SCHEMAS.items()}
# The same schemas compiled for the hot path; the schema itself loads what they leave.
_FAST_READERS = {name: compile_loader(reader) for name, reader in _READERS.items()}
# A validated command body, as the engine's command for the seat that sent it.
_TO_ENGINE: dict[str, Callable[[int, dict[str, Any]], Command]] = {
    "play": lambda seat, body: PlayCard(
        seat, body["card"], tuple(body["targets"]), body.get("guess"), body.get("look")
    ),
    "chancellor": lambda seat, body: FinishChancellor(seat, body["keep"], tuple(body["bottom"])),
    "redraw": lambda seat, body: AnswerRedraw(seat, body["redraw"]),
    "forfeit": lambda seat, body: Forfeit(seat),
}

# The command schemas' names in the OpenAPI document (PlayCommand...), by `type`; the command
# body is one of them, told apart by `type`.
COMMAND_COMPONENTS = {
    name: schema.__name__.removesuffix("Schema") for name, schema in COMMAND_SCHEMAS.items()
}
COMMAND_BODY = one_of("type", COMMAND_COMPONENTS)


def load_command(body: Any) -> dict[str, Any]:
    """A command body validated by the schema its `type` names."""
    if not isinstance(body, dict):
        raise ma.ValidationError({"_schema": ["A command is a JSON object."]})
    name = body.get("type")
    if not isinstance(name, str) or name not in _READERS:
        raise ma.ValidationError({"type": [f"One of: {', '.join(COMMAND_SCHEMAS)}."]})
    reader = _READERS[name]
    loaded: dict[str, Any] | None = _FAST_READERS[name](body)
    if loaded is None:  # refused, or not sure: the schema loads it or says why not
        loaded = reader.load(body)
    return loaded


def engine_command(seat: int, loaded: dict[str, Any]) -> Command:
    """The engine's command for a validated body (`load_command`) sent by `seat`."""
    return _TO_ENGINE[loaded["type"]](seat, loaded)


def wire_command(command: Command) -> dict[str, Any]:
    """An engine command as a seat sends it (written directly: it runs for every legal move,
    and a test holds it to what `load_command` reads back)."""
    if isinstance(command, PlayCard):
        body: dict[str, Any] = {"type": "play", "card": command.card}
        if command.targets:
            body["targets"] = list(command.targets)
        if command.guess is not None:
            body["guess"] = command.guess
        if command.look is not None:
            body["look"] = command.look
        return body
    if isinstance(command, FinishChancellor):
        return {"type": "chancellor", "keep": command.keep, "bottom": list(command.bottom)}
    if isinstance(command, AnswerRedraw):
        return {"type": "redraw", "redraw": command.redraw}
    return {"type": "forfeit"}
