"""Ratings: each edition's leaderboard, and a player's public record."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from events.store import iso_time
from game.editions import EDITIONS
from game.ratings import Rating
from play.records import EditionRecord, leaderboard, player_record, record_totals, standing
from service import examples
from service.apidoc import operation, problems
from service.blueprints.base import Blueprint
from service.deps import context
from service.errors import ApiError
from service.ratelimit import READS, rate_limited
from service.schemas.ratings import LeaderboardQuerySchema, LeaderboardSchema, PlayerRecordSchema

blp = Blueprint("ratings", __name__, description="Ratings, leaderboards and players' records")

RATING_EXAMPLE = {"mu": 29.2, "sigma": 6.1, "score": 10.9, "games": 7}
LEADERBOARD_EXAMPLE = {
    "edition": "2019",
    "min_games": 5,
    "players": [{"rank": 1, "player": examples.PLAYER_ID, "name": "ann", "rating": RATING_EXAMPLE}],
}
PLAYER_EXAMPLE = {
    "id": examples.PLAYER_ID,
    "name": "ann",
    "games": 9,
    "wins": 5,
    "abandons": 1,
    "abandon_rate": 0.1111111111111111,
    "editions": [
        {
            "edition": "2019",
            "rating": RATING_EXAMPLE,
            "history": [
                {"game": f"{examples.GAME_ID}#1", "at": "2026-01-05T10:02:11.408Z", "mu": 27.1,
                 "sigma": 8.0},
            ],
            "games": 9,
            "wins": 5,
            "win_rate": 0.5555555555555556,
            "abandons": 1,
            "rounds_showdown": 6,
            "rounds_elimination": 11,
            "most_played": {"card": "guard", "times": 23},
        }
    ],
}  # fmt: skip


def rating_json(rating: Rating) -> dict[str, Any]:
    """A rating as RatingSchema describes it."""
    return {"mu": rating.mu, "sigma": rating.sigma, "score": rating.conservative,
            "games": rating.games}  # fmt: skip


@blp.route("/leaderboards/<edition>")
class Leaderboard(MethodView):
    """An edition's leaderboard."""

    @rate_limited(READS)
    @blp.arguments(LeaderboardQuerySchema(), location="query")
    @blp.response(200, LeaderboardSchema, example=LEADERBOARD_EXAMPLE)
    @operation("getLeaderboard")
    @problems(404)
    def get(self, query: dict[str, Any], edition: str) -> dict[str, Any]:
        """Players by their conservative rating (mu - 3 sigma), best first, paged; only those
        with at least `min_games` rated games (the operator's setting). With `player`, that
        player's own standing too, on the board or not yet."""
        if edition not in EDITIONS:
            raise ApiError(
                404, "edition-not-found", "Not found", f"There is no edition {edition!r}."
            )
        ctx = context()
        min_games = ctx.settings.leaderboard_min_games
        found = leaderboard(ctx, edition, limit=query["limit"], offset=query["offset"],
                            min_games=min_games)  # fmt: skip
        players = [
            {"rank": s.rank, "player": s.player, "name": s.name, "rating": rating_json(s.rating)}
            for s in found
        ]
        answer: dict[str, Any] = {"edition": edition, "min_games": min_games, "players": players}
        if "player" in query:
            own = standing(ctx, edition, query["player"], min_games=min_games)
            answer["standing"] = {
                "player": own.player,
                "rating": None if own.rating is None else rating_json(own.rating),
                "rank": own.rank,
            }
        return answer


@blp.route("/players/<player_id:player_id>")
class PlayerRecord(MethodView):
    """A player's public record."""

    @rate_limited(READS)
    @blp.response(200, PlayerRecordSchema, example=PLAYER_EXAMPLE)
    @operation("getPlayer")
    @problems(404)
    def get(self, player_id: str) -> dict[str, Any]:
        """The player's name, games, wins and abandons, and per edition their rating, its
        history and statistics from the games' events."""
        ctx = context()
        try:
            player = ctx.players.get(player_id)
        except ValueError:  # not even a player id
            player = None
        if player is None:
            raise ApiError(
                404, "player-not-found", "Not found", f"There is no player {player_id!r}."
            )
        records = player_record(ctx, player_id)
        editions = [edition_json(record) for record in records]
        return {"id": player.id, "name": player.name, **record_totals(records),
                "editions": editions}  # fmt: skip


def edition_json(record: EditionRecord) -> dict[str, Any]:
    """A player's record in one edition as EditionRecordSchema describes it."""
    stats = record.statistics
    games, wins = stats.get("games", 0), stats.get("wins", 0)
    cards = sorted(
        ((-n, name.removeprefix("card:")) for name, n in stats.items() if name.startswith("card:"))
    )
    return {
        "edition": record.edition,
        "rating": None if record.rating is None else rating_json(record.rating),
        "history": [
            {"game": e.game, "at": iso_time(e.at), "mu": e.rating.mu, "sigma": e.rating.sigma}
            for e in record.history
        ],
        "games": games,
        "wins": wins,
        "win_rate": wins / games if games else 0.0,
        "abandons": stats.get("abandons", 0),
        "rounds_showdown": stats.get("rounds_showdown", 0),
        "rounds_elimination": stats.get("rounds_elimination", 0),
        "most_played": {"card": cards[0][1], "times": -cards[0][0]} if cards else None,
    }
