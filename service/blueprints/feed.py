"""The event feed of a game, redacted for its audience, with long polling."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify
from flask.views import MethodView

from game.views import redact
from service import examples
from service.apidoc import operation, problems
from service.auth import audience
from service.blueprints.base import Blueprint
from service.deps import context
from service.lookup import find_game
from service.rendering import with_etag
from service.schemas.games import FeedQuerySchema, FeedSchema

blp = Blueprint("feed", __name__, url_prefix="/games", description="Event feeds")
# Stream ids are 64-bit: `after` is capped far below, past any real version (same answers).
LAST_VERSION = 2**62


@blp.route("/<game_id:game_id>/events")
class Feed(MethodView):
    """What happened, as the asking audience may know it."""

    @blp.arguments(FeedQuerySchema(), location="query")
    @blp.response(200, FeedSchema, example=examples.feed())
    @operation("getEvents", token="optional", game_version=True)
    @problems(401, 403, 404)
    def get(self, query: dict[str, Any], game_id: str) -> Response:
        """Events after version `after` (a seat: its own view of them; no token: public ones;
        the seats and the auditor, once the game is over: all). With `wait`, block up to that
        many seconds until something happens."""
        loaded, table = find_game(game_id)
        who = audience(table)
        repository = context().games
        after = min(query["after"], LAST_VERSION)
        if query["wait"] > 0 and loaded.version <= after:
            repository.store.follow(game_id, after, query["wait"])
        stored = repository.read(game_id, after + 1, after + query["limit"])
        events = [
            {"version": item.version, **redact(
                repository.vocabulary.decode(item.event), who.seat, everything=who.everything
            )}
            for item in stored
        ]  # fmt: skip
        head = max(loaded.version, stored[-1].version if stored else 0)
        response = jsonify({"version": head, "events": events})
        response.headers["Vary"] = "Authorization"
        return with_etag(response, head)
