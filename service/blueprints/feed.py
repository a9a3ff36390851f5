"""The event feed of a game, redacted for its audience, with long polling."""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

from flask import Response, jsonify, request
from flask.views import MethodView

from play.context import Context
from play.follow import follow
from service import examples
from service.apidoc import operation, problems
from service.auth import reader
from service.blueprints.base import Blueprint
from service.deps import context
from service.headers import LAST_VERSION
from service.lookup import find_game
from service.ratelimit import READS, limiter, rate_limited
from service.rendering import events_json, turns_audience, with_etag
from service.schemas.games import FeedQuerySchema, FeedSchema

blp = Blueprint("feed", __name__, url_prefix="/games", description="Event feeds")


@blp.route("/<game_id:game_id>/events")
class Feed(MethodView):
    """What happened, as the asking audience may know it."""

    @rate_limited(READS)
    @blp.arguments(FeedQuerySchema(), location="query")
    @blp.response(200, FeedSchema, example=examples.feed())
    @operation("getEvents", token="optional", game_version=True)
    @problems(401, 403, 404)
    def get(self, query: dict[str, Any], game_id: str) -> Response:
        """Events after version `after` (a seat: its own view of them; no token: public ones;
        the seats and the auditor: all of each game that is over). With `wait`, block up to
        that many seconds until something happens."""
        ctx = context()
        after, limit = min(query["after"], LAST_VERSION), query["limit"]
        waits = query["wait"] > 0
        place = limiter().hold(request.remote_addr) if waits else None
        try:
            return self._answer(ctx, game_id, after, limit, query["wait"])
        finally:
            if place is not None:
                place.release()

    @staticmethod
    def _answer(ctx: Context, game_id: str, after: int, limit: int, wait: float) -> Response:
        """The feed's answer, waiting up to `wait` seconds when nothing follows `after`."""
        waits = wait > 0
        # A long poll watches the game before it loads it: what the load missed is heard.
        with follow(ctx, game_id, after, limit) if waits else nullcontext() as follower:
            loaded, table = find_game(game_id, watching=waits)
            who = reader(table)
            if follower is not None and loaded.version <= after:
                follower.caught_up()
                stored = follower.next(wait)  # waits on the append hub
                if turns_audience(stored):  # the table changed while waiting: as it is now
                    _, table = find_game(game_id, watching=True)
                    who = reader(table)  # 401 for a token whose seat was left meanwhile
            else:
                stored = ctx.games.read(game_id, after + 1, after + limit)  # or the archive
        events, _ = events_json(ctx.games.vocabulary, stored, table, who)
        head = max(loaded.version, stored[-1].version if stored else 0)
        response = jsonify({"version": head, "events": events})
        response.headers["Vary"] = "Authorization"
        return with_etag(response, head)
