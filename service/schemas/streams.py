"""Schemas of event streams: where a stream starts, and a stream ticket."""

from __future__ import annotations

from marshmallow import fields, validate

from service.schemas.base import Schema, entry_id_rules

TICKET_PATTERN = "^[A-Za-z0-9_-]{1,100}$"


class StreamQuerySchema(Schema):
    """Where the stream starts, and who opens it when no header can say so."""

    after = fields.Integer(
        load_default=0,
        validate=validate.Range(min=0),
        metadata={"description": "send the events after this version (Last-Event-ID wins)"},
    )
    chat_after = fields.String(
        validate=entry_id_rules(),
        metadata={
            "description": "readers of the chat: send its messages after this message id"
            " (`0-0`: all of them); by default those posted from when the stream opens"
        },
    )
    ticket = fields.String(
        validate=validate.Regexp(TICKET_PATTERN),
        metadata={
            "description": "a stream ticket (POST /games/{game_id}/stream-tickets) standing"
            " for a seat's token, for clients that can't send headers (EventSource)"
        },
    )


class StreamTicketSchema(Schema):
    """A short-lived ticket that opens the seat's event stream of this game, and nothing else."""

    ticket = fields.String(required=True)
    seat = fields.Integer(required=True)
    expires_in = fields.Integer(
        required=True, metadata={"description": "seconds during which the ticket opens a stream"}
    )
    url = fields.String(required=True, metadata={"description": "the stream's path with it"})
