"""Schemas of the tutorials: the list, one tutorial's story as the guide tells it, and a start."""

from __future__ import annotations

from marshmallow import fields, validate

from scenarios.tutorial import TUTORIALS
from service.apidoc import Tagged
from service.schemas.base import Schema
from service.schemas.commands import COMMAND_COMPONENTS
from service.schemas.games import PlayerName


class StartTutorialSchema(Schema):
    """Start a tutorial by its name: nothing else of its game can be chosen."""

    tutorial = fields.String(
        required=True,
        validate=validate.OneOf(sorted(TUTORIALS)),
        metadata={"description": "the tutorial's name (GET /tutorials lists them)"},
    )
    name = PlayerName(description="the learner's name at the table (default: `Player`)")


class TutorialMoveSchema(Schema):
    """One move of a tutorial's story: whose it is, what the guide says of it, and (the
    learner's moves only) the command the story expects."""

    seat = fields.Integer(required=True)
    coach = fields.String(required=True, metadata={"description": "what the guide says of it"})
    command = Tagged(
        "type",
        COMMAND_COMPONENTS,
        metadata={"description": "the learner's move as a seat sends it (a bot's has none)"},
    )


class TutorialSchema(Schema):
    """A tutorial: its edition, the learner's seat, the bot it plays against and its story."""

    name = fields.String(required=True)
    edition = fields.String(required=True)
    learner = fields.Integer(required=True, metadata={"description": "the learner's seat"})
    bot = fields.String(required=True, metadata={"description": "the other seats' bot"})
    moves = fields.List(fields.Nested(TutorialMoveSchema), required=True)


class TutorialListSchema(Schema):
    """Every tutorial."""

    tutorials = fields.List(fields.Nested(TutorialSchema), required=True)
