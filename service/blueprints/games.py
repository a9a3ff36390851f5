"""Games: create one, list the lobby, look at one (as a seat or a spectator), replay it."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, url_for
from flask.views import MethodView

from game.table import OpenTable, TakeSeat
from play.lobby import keyed_game_id, open_table
from service import auth, examples
from service.apidoc import operation, problems
from service.auth import audience
from service.blueprints.base import Blueprint
from service.deps import context, services
from service.errors import ApiError
from service.headers import SECRET_KEY_DOC, secret_idempotency
from service.lookup import find_game
from service.ratelimit import READS, count_bot_table, rate_limited
from service.rendering import presence_of, table_json, view_response, with_etag
from service.requestlog import note_game, note_seat
from service.schemas.games import (
    CreatedGameSchema,
    CreateGameSchema,
    GameListQuerySchema,
    GameListSchema,
    ViewSchema,
)
from service.seeds import opening_seed

blp = Blueprint("games", __name__, url_prefix="/games", description="Games and their views")

CREATED = CreatedGameSchema()  # made once: a schema instance costs more than its dump


@blp.route("")
class Games(MethodView):
    """The lobby."""

    @rate_limited("listing")
    @blp.arguments(GameListQuerySchema(), location="query")
    @blp.response(200, GameListSchema, example=examples.lobby())
    @operation("listGames")
    def get(self, query: dict[str, Any]) -> dict[str, Any]:
        """Games, most recently active first; filter by edition, status and open seats."""
        index = context().games.index
        assert index is not None
        found = index.query(
            status=query.get("status"),
            edition=query.get("edition"),
            has_open_seats=query.get("open"),
            limit=query["limit"],
            offset=query["offset"],
        )
        return {"games": [{"id": game_id, **vars(summary)} for game_id, summary in found]}

    @rate_limited("lobby")
    @blp.arguments(CreateGameSchema(), example=examples.CREATE_GAME)
    @blp.response(201, CreatedGameSchema, example=examples.created())
    @operation("createGame", token="player-optional", game_version=True,
               parameters=[SECRET_KEY_DOC])  # fmt: skip
    @problems(400, 422)
    def post(self, body: dict[str, Any]) -> Response:
        """Create a game; the creator takes the first human seat and gets its secret token.
        With an Idempotency-Key, the same request again gets the first answer (same game,
        same token)."""
        bots = tuple(None if seat == "human" else seat for seat in body["seats"])
        keyed = secret_idempotency("create", body)
        key, idempotency = (None, None) if keyed is None else keyed
        game_id = None if key is None else keyed_game_id(key)
        token = None
        host = None
        player = auth.request_player()
        count_bot_table([*bots, body["takeover_bot"]], player)
        name = body.get("name") or _player_name(player)
        if name is not None and None in bots:
            keyless = key is None or game_id is None
            token = auth.new_token() if keyless else auth.keyed_token(str(key), str(game_id))
            host = TakeSeat(bots.index(None), name, auth.token_hash(token), player=player)
        seed, seeded = opening_seed(body, services().settings.seeded_games)
        command = OpenTable(
            edition=body["edition"],
            bots=bots,
            seed=seed,
            seeded=seeded,
            first_player=body.get("first_player"),
            turn_seconds=body.get("turn_seconds"),
            on_timeout=body["on_timeout"],
            autostart=body["autostart"],
            host=host,
            abandon_after=body["abandon_after"],
            takeover_bot=body["takeover_bot"],
            ranked=body["ranked"],
            spectator_chat=body["spectator_chat"],
        )
        game_id, sent = open_table(
            context(),
            command,
            {"by": "creator"},
            game_id=game_id,
            idempotency=idempotency,
        )
        note_game(game_id)
        if host is not None:
            note_seat(host.seat)
        created = {
            "game": table_json(game_id, sent.game),
            "seat": None if host is None else host.seat,
            "token": token,
        }
        response = jsonify(CREATED.dump(created))
        response.status_code = 201
        response.headers["Location"] = url_for("games.Game", game_id=game_id)
        return with_etag(response, sent.game.version)


def _player_name(player: str | None) -> str | None:
    """The name of the request's player, if it has one."""
    found = None if player is None else context().players.get(player)
    return None if found is None else found.name


@blp.route("/<game_id:game_id>")
class Game(MethodView):
    """One game, as the asking audience may see it."""

    @rate_limited(READS)
    @blp.response(200, ViewSchema, example=examples.seat_view())
    @operation("getGame", token="optional", game_version=True)
    @problems(401, 403, 404)
    def get(self, game_id: str) -> Response:
        """Without a token: the public view. With a seat's token: that seat's view and its
        legal commands. The ETag is the game's version; If-None-Match gives 304."""
        game, table = find_game(game_id)
        who = audience(table)
        presence = presence_of(context().presence, game_id, table)
        return view_response(game_id, game, who, presence=presence)


@blp.route("/<game_id:game_id>/versions/<int:version>")
class Replay(MethodView):
    """A game as it was after any version: replay for the same audiences."""

    @rate_limited(READS)
    @blp.response(200, ViewSchema, example=examples.seat_view())
    @operation("getGameAtVersion", token="optional", game_version=True)
    @problems(401, 403, 404)
    def get(self, game_id: str, version: int) -> Response:
        """The view at `version` for the asking audience (everything, once the game being
        played at that version is over)."""
        head, table = find_game(game_id)
        if not 1 <= version <= head.version:
            raise ApiError(
                404,
                "version-not-found",
                "Not found",
                f"Game {game_id} has versions 1 to {head.version}.",
            )
        who = audience(table, version)
        then, _ = find_game(game_id, version)
        return view_response(game_id, then, who)
