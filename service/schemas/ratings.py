"""Schemas of ratings: an edition's leaderboard and a player's records."""

from __future__ import annotations

from marshmallow import fields, validate

from events.players import PLAYER_ID
from service.schemas.base import Schema


class LeaderboardQuerySchema(Schema):
    """A page of a leaderboard."""

    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=100_000))
    player = fields.String(
        validate=validate.Regexp(rf"\A{PLAYER_ID.pattern}\Z"),
        metadata={"description": "a player whose own standing the answer adds (`standing`)"},
    )


class RatingSchema(Schema):
    """A rating (openskill's Plackett-Luce): mu, sigma and the conservative estimate."""

    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    score = fields.Float(required=True, metadata={"description": "mu - 3 sigma"})
    games = fields.Integer(required=True, metadata={"description": "rated games"})


class StandingSchema(Schema):
    """One line of a leaderboard."""

    rank = fields.Integer(required=True)
    player = fields.String(required=True)
    name = fields.String(allow_none=True, required=True)
    rating = fields.Nested(RatingSchema, required=True)


class OwnStandingSchema(Schema):
    """Where the player asked for stands, on the board or not yet."""

    player = fields.String(required=True)
    rating = fields.Nested(
        RatingSchema,
        allow_none=True,
        required=True,
        metadata={"description": "null before the player's first rated game here"},
    )
    rank = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "null until the player has `min_games` rated games (and so"
                  " appears on the board)"},
    )  # fmt: skip


class LeaderboardSchema(Schema):
    """An edition's players by mu - 3 sigma, best first, with at least `min_games` rated games."""

    edition = fields.String(required=True)
    min_games = fields.Integer(required=True)
    players = fields.List(fields.Nested(StandingSchema), required=True)
    standing = fields.Nested(
        OwnStandingSchema, metadata={"description": "the `player` asked for's own standing"}
    )


class HistoryEntrySchema(Schema):
    """The player's rating after one rated game."""

    game = fields.String(
        required=True, metadata={"description": "`<game id>#<n>`: the n-th game at that table"}
    )
    at = fields.String(required=True, metadata={"format": "date-time"})
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)


class CardPlaysSchema(Schema):
    """A card and how often the player played it."""

    card = fields.String(required=True)
    times = fields.Integer(required=True)


class EditionRecordSchema(Schema):
    """A player in one edition: rating, its history and statistics of every finished game."""

    edition = fields.String(required=True)
    rating = fields.Nested(RatingSchema, allow_none=True, required=True)
    history = fields.List(fields.Nested(HistoryEntrySchema), required=True)
    games = fields.Integer(required=True, metadata={"description": "finished games, rated or not"})
    wins = fields.Integer(required=True)
    win_rate = fields.Float(required=True)
    abandons = fields.Integer(
        required=True, metadata={"description": "games the player left to a bot or forfeited"}
    )
    rounds_showdown = fields.Integer(
        required=True, metadata={"description": "rounds won at a showdown"}
    )
    rounds_elimination = fields.Integer(
        required=True, metadata={"description": "rounds won as the last one standing"}
    )
    most_played = fields.Nested(
        CardPlaysSchema,
        allow_none=True,
        required=True,
        metadata={"description": "the card the player played most (ties: the first by name)"},
    )


ABANDON_RATE = fields.Float(
    required=True,
    metadata={"description": "the share of the player's finished games (every edition) they"
              " left to a bot or forfeited, 0 before any (BGA's karma, as a rate); quick play's"
              " `reliable_only` matches players whose rate is at most 0.2"},
)  # fmt: skip


class PlayerRecordSchema(Schema):
    """A player's public record: name, totals and each edition's rating and statistics."""

    id = fields.String(required=True)
    name = fields.String(required=True)
    games = fields.Integer(required=True)
    wins = fields.Integer(required=True)
    abandons = fields.Integer(required=True)
    abandon_rate = ABANDON_RATE
    editions = fields.List(fields.Nested(EditionRecordSchema), required=True)
