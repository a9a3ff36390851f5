"""Editions: each one's players, token targets and cards in words (read-only)."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify
from flask.views import MethodView

from game.editions import EDITIONS, Edition
from service.apidoc import operation
from service.blueprints.base import Blueprint
from service.schemas.editions import EditionListSchema
from service.schemas.games import SEAT_KINDS

blp = Blueprint("editions", __name__, description="Editions and their cards")
MAX_AGE_SECONDS = 3600  # the texts change only with a new release


def edition_json(edition: Edition) -> dict[str, Any]:
    """An edition as EditionSchema describes it."""
    return {
        "id": edition.id,
        "min_players": edition.min_players,
        "max_players": edition.max_players,
        "tokens_to_win": [
            {"players": players, "tokens": tokens}
            for players, tokens in sorted(edition.tokens_to_win.items())
        ],
        "guess_by_number": "guard" in edition.names_numbers,
        "face_up_with_two_players": edition.face_up_with_two_players,
        "cards": [
            {
                "card": card,
                "name": edition.cards[card].name,
                "rank": rank,
                "copies": copies,
                "effect": edition.cards[card].text_in(edition.id),
            }
            for card, rank, copies in edition.table
        ],
    }


EXAMPLE = {"editions": [edition_json(EDITIONS["classic"])], "seat_kinds": list(SEAT_KINDS)}


@blp.route("/editions")
class Editions(MethodView):
    """The editions this service plays."""

    @operation("listEditions")
    @blp.response(200, EditionListSchema, example=EXAMPLE)
    def get(self) -> Response:
        """Every edition with its cards (name, number, copies, effect), and the seat kinds."""
        response = jsonify(
            {
                "editions": [edition_json(edition) for edition in EDITIONS.values()],
                "seat_kinds": list(SEAT_KINDS),
            }
        )
        response.cache_control.public = True
        response.cache_control.max_age = MAX_AGE_SECONDS
        return response
