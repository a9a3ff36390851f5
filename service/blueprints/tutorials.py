"""Tutorials: a first round against a bot on a prepared deal, told step by step by the web
client's guide (docs/tutorial.md). A request names the tutorial and nothing else: the deal is
the tutorial's own, and no other request can ask for one."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, url_for
from flask.views import MethodView

from game.table import OpenTable, TakeSeat
from play.lobby import keyed_game_id, open_table
from scenarios.tutorial import TUTORIALS, Tutorial
from service import auth, examples
from service.apidoc import operation, problems
from service.blueprints.base import Blueprint
from service.deps import context
from service.errors import ApiError
from service.headers import SECRET_KEY_DOC, secret_idempotency
from service.ratelimit import rate_limited
from service.rendering import table_json, with_etag
from service.requestlog import note_game, note_seat
from service.schemas.commands import wire_command
from service.schemas.games import CreatedGameSchema
from service.schemas.tutorials import StartTutorialSchema, TutorialListSchema, TutorialSchema
from service.seeds import new_seed

blp = Blueprint("tutorials", __name__, url_prefix="/tutorials", description="Tutorials")

CREATED = CreatedGameSchema()
DEFAULT_NAME = "Player"


def tutorial_json(tutorial: Tutorial) -> dict[str, Any]:
    """A tutorial as the guide reads it: the learner's moves with their commands, the bot's
    without (what the bot will hold stays unsaid)."""
    moves = []
    for move in tutorial.moves:
        told: dict[str, Any] = {"seat": move.seat, "coach": move.coach}
        if move.seat == tutorial.learner:
            told["command"] = wire_command(move.command)
        moves.append(told)
    return {
        "name": tutorial.name,
        "edition": tutorial.edition,
        "learner": tutorial.learner,
        "bot": tutorial.bot,
        "moves": moves,
    }


START_EXAMPLE = {"tutorial": "2019", "name": "ann"}


@blp.route("")
class Tutorials(MethodView):
    """The tutorials."""

    @blp.response(
        200, TutorialListSchema, example={"tutorials": [tutorial_json(TUTORIALS["2019"])]}
    )
    @operation("listTutorials")
    def get(self) -> dict[str, Any]:
        """Every tutorial, with its story's moves."""
        return {"tutorials": [tutorial_json(tutorial) for tutorial in TUTORIALS.values()]}

    @rate_limited("lobby")
    @blp.arguments(StartTutorialSchema(), example=START_EXAMPLE)
    @blp.response(201, CreatedGameSchema, example=examples.tutorial_created())
    @operation("startTutorial", parameters=[SECRET_KEY_DOC])
    @problems(400, 422)
    def post(self, body: dict[str, Any]) -> Response:
        """Start a tutorial: a new game against its bot on its prepared deal, the learner at its
        seat (its token is in the answer, shown once). The game is one round, unrated, not in the
        lobby nor in any player's games, and has no open seat. With an Idempotency-Key, the same
        request again gets the first answer."""
        tutorial = TUTORIALS[body["tutorial"]]
        keyed = secret_idempotency("tutorial", body)
        key, idempotency = (None, None) if keyed is None else keyed
        game_id = None if key is None else keyed_game_id(key)
        keyless = key is None or game_id is None
        token = auth.new_token() if keyless else auth.keyed_token(str(key), str(game_id))
        host = TakeSeat(tutorial.learner, body.get("name") or DEFAULT_NAME, auth.token_hash(token))
        command = OpenTable(
            edition=tutorial.edition,
            bots=tutorial.bots,
            seed=new_seed(),
            first_player=tutorial.first,
            host=host,
            tutorial=tutorial.name,
            deal=tutorial.deal,
        )
        game_id, sent = open_table(
            context(), command, {"by": "tutorial"}, game_id=game_id, idempotency=idempotency
        )
        note_game(game_id)
        note_seat(tutorial.learner)
        created = {"game": table_json(game_id, sent.game), "seat": tutorial.learner, "token": token}
        response = jsonify(CREATED.dump(created))
        response.status_code = 201
        response.headers["Location"] = url_for("games.Game", game_id=game_id)
        return with_etag(response, sent.game.version)


@blp.route("/<tutorial:name>")
class OneTutorial(MethodView):
    """One tutorial."""

    @blp.response(200, TutorialSchema, example=tutorial_json(TUTORIALS["2019"]))
    @operation("getTutorial")
    @problems(404)
    def get(self, name: str) -> dict[str, Any]:
        """A tutorial's story: the learner's seat, the bot, and each move with what the guide
        says of it (the learner's with the command the story expects)."""
        tutorial = TUTORIALS.get(name)
        if tutorial is None:
            raise ApiError(
                404, "tutorial-not-found", "Not found",
                f"There is no tutorial {name!r}: there are {', '.join(sorted(TUTORIALS))}.",
            )  # fmt: skip
        return tutorial_json(tutorial)
