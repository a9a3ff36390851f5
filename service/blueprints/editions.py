"""Editions: each one's players, token targets and cards in words (read-only), in English,
Japanese, Korean or Vietnamese (`?lang=`, or the Accept-Language header)."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify
from flask.views import MethodView

from game.editions import EDITIONS, Edition
from service.apidoc import operation
from service.blueprints.base import Blueprint
from service.languages import ENGLISH, card_words, negotiate
from service.schemas.editions import EditionHeadersSchema, EditionListSchema, EditionQuerySchema
from service.schemas.games import SEAT_KINDS

blp = Blueprint("editions", __name__, description="Editions and their cards")
MAX_AGE_SECONDS = 3600  # the texts change only with a new release


def edition_json(edition: Edition, language: str = ENGLISH) -> dict[str, Any]:
    """An edition as EditionSchema describes it, its cards' names and effects in `language`."""
    cards = []
    for card, rank, copies in edition.table:
        name, effect = card_words(edition.id, card, language)
        cards.append({"card": card, "name": name, "rank": rank, "copies": copies, "effect": effect})
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
        "discard_total_breaks_ties": edition.discard_total_breaks_ties,
        "cards": cards,
    }


EXAMPLE = {
    "language": ENGLISH,
    "editions": [edition_json(EDITIONS["classic"])],
    "seat_kinds": list(SEAT_KINDS),
}


@blp.route("/editions")
class Editions(MethodView):
    """The editions this service plays."""

    @blp.arguments(EditionQuerySchema(), location="query")
    @blp.arguments(EditionHeadersSchema(), location="headers")
    @blp.response(200, EditionListSchema, example=EXAMPLE)
    @operation("listEditions")
    def get(self, query: dict[str, Any], headers: dict[str, Any]) -> Response:
        """Every edition with its cards (name, number, copies, effect) in the language asked
        for (Content-Language says which), and the seat kinds."""
        language = negotiate(query.get("lang"), headers.get("accept_language"))
        response = jsonify(
            {
                "language": language,
                "editions": [edition_json(edition, language) for edition in EDITIONS.values()],
                "seat_kinds": list(SEAT_KINDS),
            }
        )
        response.headers["Content-Language"] = language
        response.vary.add("Accept-Language")
        response.cache_control.public = True
        response.cache_control.max_age = MAX_AGE_SECONDS
        return response
