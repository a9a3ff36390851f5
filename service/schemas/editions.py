"""Schemas of the editions resource: each edition's cards in words, for clients to show."""

from __future__ import annotations

from marshmallow import fields

from service.schemas.base import Schema


class CardSchema(Schema):
    """One card of an edition: its id, name, number, copies in the deck, and effect."""

    card = fields.String(required=True, metadata={"description": "the id used by the API"})
    name = fields.String(required=True)
    rank = fields.Integer(required=True, metadata={"description": "the card's number"})
    copies = fields.Integer(required=True)
    effect = fields.String(required=True, metadata={"description": "what it does when played"})


class TokenTargetSchema(Schema):
    """Tokens a player needs to win, at a table of this many players."""

    players = fields.Integer(required=True)
    tokens = fields.Integer(required=True)


class EditionSchema(Schema):
    """An edition: how many play it, what wins it, and its cards in rank order."""

    id = fields.String(required=True)
    min_players = fields.Integer(required=True)
    max_players = fields.Integer(required=True)
    tokens_to_win = fields.List(fields.Nested(TokenTargetSchema), required=True)
    guess_by_number = fields.Boolean(
        required=True, metadata={"description": "the Guard names a number, not a card"}
    )
    face_up_with_two_players = fields.Integer(
        required=True, metadata={"description": "cards set aside face up in a 2-player round"}
    )
    cards = fields.List(fields.Nested(CardSchema), required=True)


class EditionListSchema(Schema):
    """Every edition, and what a seat may be when a game is created."""

    editions = fields.List(fields.Nested(EditionSchema), required=True)
    seat_kinds = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "human, or a bot's policy (the values of a new game's seats)"},
    )
