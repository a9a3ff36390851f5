"""Views go into answers as dataclasses: orjson must write exactly their fields, as asdict does."""

from __future__ import annotations

import dataclasses
import json

import orjson

from game.evolve import evolve
from game.selfplay import play_game, random_chooser
from game.views import view
from tests.unit.games import GAME_SIZES


def test_orjson_writes_a_view_as_asdict_and_the_standard_library_would() -> None:
    checked = 0
    for edition, players in GAME_SIZES:
        state = None
        for number, event in enumerate(
            play_game(edition, players, "enc", random_chooser(1)).events
        ):
            state = evolve(state, event)
            if number % 3 == 0:
                for seat in (None, *range(players)):
                    seen = view(state, seat)
                    expected = json.loads(json.dumps(dataclasses.asdict(seen)))
                    assert orjson.loads(orjson.dumps(seen)) == expected
                    checked += 1
    assert checked > 500
