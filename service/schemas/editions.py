"""Schemas of the editions resource: each edition's cards in words, for clients to show."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from service.languages import LANGUAGE_TAG, LANGUAGES
from service.schemas.base import Schema


class CardSchema(Schema):
    """One card of an edition: its id, name, number, copies in the deck, and effect."""

    card = fields.String(required=True, metadata={"description": "the id used by the API"})
    name = fields.String(required=True, metadata={"description": "in the answer's language"})
    rank = fields.Integer(required=True, metadata={"description": "the card's number"})
    copies = fields.Integer(required=True)
    effect = fields.String(
        required=True,
        metadata={"description": "what it does when played, in the answer's language"},
    )


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
    discard_total_breaks_ties = fields.Boolean(
        required=True,
        metadata={"description": "a showdown's tie goes to the tied player whose discard pile"
                  " adds up to the most (else every tied player wins the round)"},
    )  # fmt: skip
    cards = fields.List(fields.Nested(CardSchema), required=True)


class EditionListSchema(Schema):
    """Every edition, and what a seat may be when a game is created."""

    language = fields.String(
        required=True,
        validate=validate.OneOf(LANGUAGES),
        metadata={
            "description": "the language of the cards' names and effects (also the "
            "Content-Language header)"
        },
    )
    editions = fields.List(fields.Nested(EditionSchema), required=True)
    seat_kinds = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "human, or a bot's policy (the values of a new game's seats)"},
    )


class EditionQuerySchema(Schema):
    """The language of the cards' words."""

    lang = fields.String(
        validate=[validate.Length(max=35), validate.Regexp(LANGUAGE_TAG)],
        metadata={
            "description": "a language tag (`ja`, `ko-KR`): the cards' names and effects in "
            f"the best match of {', '.join(LANGUAGES)}, or English when none matches; without "
            "it, the Accept-Language header decides",
            "example": "ja",
        },
    )


class EditionHeadersSchema(ma.Schema):
    """The request header that chooses the language when `lang` does not."""

    class Meta:
        unknown = ma.EXCLUDE  # every other header

    accept_language = fields.String(
        data_key="Accept-Language",
        metadata={
            "description": "the languages you read, with q-values (`ja-JP, ja;q=0.9, "
            f"en;q=0.5`): the best of {', '.join(LANGUAGES)} is answered, English when none "
            "matches; `lang` wins over it"
        },
    )
