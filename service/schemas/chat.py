"""Schemas of a table's chat: a message posted, messages read, mutes."""

from __future__ import annotations

import unicodedata
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from play.chat import PRESETS, TEXT_MAX, TEXT_RULE, text_problem
from service.schemas.base import Schema, entry_id_rules

CHAT_TEXT_FORMAT = "chat-text"  # the OpenAPI format of a message's text (see TEXT_RULE)


class ChatText(fields.String):
    """A free-text message as TEXT_RULE says; anything else is a validation error."""

    def __init__(self, **options: Any) -> None:
        super().__init__(
            validate=validate.Length(min=1, max=TEXT_MAX),
            metadata={"description": f"free text: {TEXT_RULE}", "format": CHAT_TEXT_FORMAT},
            **options,
        )

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        text = unicodedata.normalize("NFC", super()._deserialize(value, attr, data, **kwargs))
        problem = text_problem(text)
        if problem is not None:
            raise ma.ValidationError(problem)
        return text


class PostChatSchema(Schema):
    """One message: a preset phrase's code (each reader sees it in their own language) or
    free text, not both."""

    preset = fields.String(
        validate=validate.OneOf(PRESETS),
        metadata={"description": "a preset phrase, by its code"},
    )
    text = ChatText()

    @ma.validates_schema
    def one_of_them(self, data: dict[str, Any], **_: Any) -> None:
        """Exactly one of `preset` and `text`."""
        if ("preset" in data) == ("text" in data):
            raise ma.ValidationError("Send either `preset` or `text`.", "_schema")


class ChatMessageSchema(Schema):
    """A message as readers get it."""

    id = fields.String(
        required=True,
        metadata={"description": "the message's id (`<ms>-<n>`): read on with `after`"},
    )
    at = fields.String(required=True, metadata={"format": "date-time"})
    seat = fields.Integer(
        allow_none=True, required=True, metadata={"description": "null: a spectator"}
    )
    name = fields.String(required=True)
    preset = fields.String(allow_none=True, required=True, validate=validate.OneOf(PRESETS))
    text = fields.String(allow_none=True, required=True)
    player = fields.String(
        allow_none=True, metadata={"description": "the poster's player id (the auditor only)"}
    )


class ChatQuerySchema(Schema):
    """Where a page of the chat starts."""

    after = fields.String(
        load_default="0-0",
        validate=entry_id_rules(),
        metadata={"description": "the messages after this message id (default: from the start)"},
    )
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=500))


class ChatPageSchema(Schema):
    """Messages after `after`, oldest first (those of muted posters left out)."""

    messages = fields.List(fields.Nested(ChatMessageSchema), required=True)


class MutesSchema(Schema):
    """Whom the reader muted at this table: seat numbers, and `spectators`."""

    muted = fields.List(fields.String(), required=True)
