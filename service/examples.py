"""Examples for the OpenAPI document, taken from a real game: a 2019 table of two humans dealt
from a fixed seed, as its first seat sees it (so every example is what the service answers)."""

from __future__ import annotations

import functools
from typing import Any

import orjson

from events.games import LoadedGame
from game.legal import legal_commands
from game.table import OpenTable, Table, TakeSeat, step
from game.views import redact
from scenarios.tutorial import TUTORIALS
from service.auth import Audience, token_hash
from service.rendering import table_json, view_json
from service.schemas.commands import wire_command

# Ids, tokens and codes of the shapes the service makes (tests/api/test_example_shapes.py).
GAME_ID = "9f2c4e1a7b3d5f60"
TOKEN = "x3Jk9vQm2Lr8Tn5Wp0Yc7Hb4Fd6Gs1Ae3Zu8Ko2Ni5M"
PLAYER_ID = "3f9c2a7b1d4e5f60a1b2"
PLAYER_TOKEN = "plr_Qm2Lr8Tn5Wp0Yc7Hb4Fd6Gs1Ae3Zu8Ko2Ni5Mjx3Jk9"
TRANSFER_CODE = "Zp3k9QmV2rXa-7Wd"
DEVICE_ID = "5c1f0e9a7b3d2e84"
CREATE_GAME = {"edition": "2019", "seats": ["human", "human"], "name": "ann"}
JOIN = {"name": "bob"}
WEBHOOK = {"url": "https://example.com/loveletter/turns"}
WEBHOOK_CREATED = {**WEBHOOK, "secret": "whsec_MfKQ9r8GKYqXUFEw6KrWxNdKXw2dqyMJ"}
PLAYER = {
    "id": PLAYER_ID,
    "name": "ann",
    "kind": "guest",
    "created_at": "2025-01-01T12:00:00.000Z",
    "games": 0,
    "wins": 0,
    "abandons": 0,
    "abandon_rate": 0.0,
    "webhook": False,
}
NEW_PLAYER = {"player": PLAYER, "token": PLAYER_TOKEN}
ME = {**PLAYER, "games": 9, "wins": 5, "abandons": 1}
LINKED = {"player": {**ME, "kind": "external"}}
MY_GAMES = {
    "games": [
        {
            "id": GAME_ID,
            "edition": "2019",
            "status": "playing",
            "version": 14,
            "seats": [
                {"seat": 0, "name": "ann", "bot": None, "open": False},
                {"seat": 1, "name": "bob", "bot": None, "open": False},
            ],
            "my_seat": 0,
            "left": False,
            "to_play": 0,
            "my_turn": True,
            "deadline": "2025-01-01T12:05:00.000Z",
            "last_move_at": "2025-01-01T12:04:00.000Z",
        }
    ],
    "total": 1,
}
INBOX_TICKET = {
    "ticket": "kq3WZ0p8Rr1vYbN6sT2uXc9dLm4eGh7a",
    "expires_in": 60,
    "url": "/players/me/stream?ticket=kq3WZ0p8Rr1vYbN6sT2uXc9dLm4eGh7a",
}
QUEUE_ENTRY_REQUEST = {"edition": "2019", "seats": [2, 3, 4], "ranked": False, "bots_after": 30}
QUEUE_ENTRY = {
    "id": "Xq2Lr8Tn5Wp0Yc7H",
    "state": "waiting",
    "edition": "2019",
    "seats": [2, 3, 4],
    "ranked": False,
    "bots_after": 30,
    "bot": "medium",
    "reliable_only": False,
    "entered_at": "2025-01-01T12:00:00.000Z",
    "game": None,
    "seat": None,
    "token": None,
}
QUEUE_ENTRY_MATCHED = {**QUEUE_ENTRY, "state": "matched", "game": GAME_ID, "seat": 1,
                       "token": TOKEN}  # fmt: skip
QUEUE_ENTRY_CANCELLED = {**QUEUE_ENTRY, "state": "cancelled"}
# One command of each kind, as a seat sends it (a Guard's guess is a card, or in the premium
# edition a number).
COMMANDS = {
    "guard": {"type": "play", "card": "guard", "targets": [1], "guess": "priest"},
    "premium-guard": {"type": "play", "card": "guard", "targets": [1], "guess": 2},
    "priest": {"type": "play", "card": "priest", "targets": [1]},
    "handmaid": {"type": "play", "card": "handmaid"},
    "chancellor": {"type": "chancellor", "keep": "baron", "bottom": ["guard", "spy"]},
    "redraw": {"type": "redraw", "redraw": True},
    "forfeit": {"type": "forfeit"},
}


def plain(value: Any) -> Any:
    """Dataclasses and tuples as JSON data (what the app's orjson writes)."""
    return orjson.loads(orjson.dumps(value))


@functools.cache
def _game() -> tuple[Table, list[Any]]:
    """The example table once both seats are taken (the game started), and its events."""
    events: list[Any] = []
    table: Table | None = None
    host = TakeSeat(0, "ann", token_hash(TOKEN))
    for command in (
        OpenTable("2019", (None, None), seed="openapi-example", first_player=0, host=host),
        TakeSeat(1, "bob", token_hash(TOKEN[::-1])),
    ):
        made, table = step(table, command)
        events.extend(made)
    assert table is not None
    return table, events


def game() -> LoadedGame:
    """The example game at its latest version."""
    table, events = _game()
    return LoadedGame(table, len(events))


def created() -> dict[str, Any]:
    """The answer to createGame (here: after the second seat was taken too)."""
    return plain({"game": table_json(GAME_ID, game()), "seat": 0, "token": TOKEN})


def tutorial_created() -> dict[str, Any]:
    """The answer to startTutorial: the 2019 tutorial's table, started."""
    tutorial = TUTORIALS["2019"]
    host = TakeSeat(tutorial.learner, "ann", token_hash(TOKEN))
    opened = OpenTable(
        tutorial.edition, tutorial.bots, seed="openapi-example", first_player=tutorial.first,
        host=host, tutorial=tutorial.name, deal=tutorial.deal,
    )  # fmt: skip
    events, table = step(None, opened)
    loaded = LoadedGame(table, len(events))
    return plain({"game": table_json(GAME_ID, loaded), "seat": tutorial.learner, "token": TOKEN})


def seat_view() -> dict[str, Any]:
    """The first seat's view, with its legal commands."""
    return plain(view_json(GAME_ID, game(), Audience(0)))


def feed() -> dict[str, Any]:
    """The first seat's feed from the start."""
    _, events = _game()
    at = "2025-01-01T12:00:00.000Z"
    seen = [
        {"version": number, "at": at, **redact(e, 0)} for number, e in enumerate(events, start=1)
    ]
    return plain({"version": len(events), "events": seen})


def legal() -> list[dict[str, Any]]:
    """The first seat's legal commands."""
    table, _ = _game()
    assert table.game is not None
    return [wire_command(command) for command in legal_commands(table.game)]


def turn_ready() -> dict[str, Any]:
    """A "your turn" webhook payload."""
    return {
        "type": "turn.ready",
        "timestamp": "2025-01-01T12:00:00+00:00",
        "data": {"game": GAME_ID, "seat": 0, "version": game().version, "decision": "play"},
    }


def lobby() -> dict[str, Any]:
    """A page of the lobby."""
    line = {"id": GAME_ID, "edition": "2019", "status": "open", "open_seats": 1, "players": 2}
    return {"games": [{**line, "updated_at": 1735732800.0}]}
