"""Games as the API answers them: the table's public description, an audience's view with its
legal commands, its events, and the version as ETag."""

from __future__ import annotations

from typing import Any, cast

from flask import Response, current_app, request

from events.games import LoadedGame
from events.players import Presence
from events.store import StoredEvent
from events.vocabulary import Vocabulary
from game.audiences import Audience, Reader, audience_at
from game.foresight import puts_you_out
from game.legal import legal_commands
from game.table import Table
from game.views import redact, view
from service.jsonprovider import OrjsonProvider
from service.schemas.commands import wire_command

# Events after which a reader's audience may change: a seat taken or left, a game begun or
# ended. A waiter that sends one of them judges audiences on the table as it is now.
AUDIENCE_TURNS = frozenset(
    {"seat_taken", "seat_left", "seat_taken_over", "game_started", "game_ended"}
)


def table_json(
    game_id: str, loaded: LoadedGame, presence: list[str | None] | None = None
) -> dict[str, Any]:
    """The table's public description (with each seat's presence, when given)."""
    table = loaded.table
    assert table is not None
    described: dict[str, Any] = {
        "id": game_id,
        "edition": table.edition,
        "status": table.status,
        "version": loaded.version,
        "seats": [
            {
                "seat": index,
                "name": seat.name,
                "bot": seat.bot,
                "open": seat.open,
                "webhook": seat.webhook is not None,
                "player": seat.player is not None,
            }
            for index, seat in enumerate(table.seats)
        ],
        "open_seats": table.open_seats,
        "turn_seconds": table.turn_seconds,
        "on_timeout": table.on_timeout,
        "autostart": table.autostart,
        "games_played": len(table.results) + (1 if table.status == "over" else 0),
        "seeded": table.seeded,
        "ranked": table.ranked,
        "spectator_chat": table.spectator_chat,
        "tutorial": table.tutorial,
    }
    if presence is not None:
        seats: list[dict[str, Any]] = described["seats"]
        for seat, here in zip(seats, presence, strict=True):
            seat["presence"] = here
    return described


def view_json(
    game_id: str,
    loaded: LoadedGame,
    who: Audience,
    presence: list[str | None] | None = None,
) -> dict[str, Any]:
    """The game as `who` may see it, with the legal commands when `who` is the seat to act."""
    table = loaded.table
    assert table is not None
    state = table.game
    seen = (
        None
        if state is None
        else view(state, who.seat, everything=who.everything, clues=table.clues)
    )
    legal: list[dict[str, Any]] = []
    out: list[int] = []
    acting = state is not None and who.seat is not None and state.current == who.seat
    if acting and state is not None and seen is not None:
        commands = legal_commands(state)
        legal = [wire_command(command) for command in commands]
        out = puts_you_out(seen, commands)  # from the seat's own view: it tells nothing new
    return {
        "game": table_json(game_id, loaded, presence),
        "view": seen,  # a dataclass: the app's orjson writes it as an object, field by field
        "legal": legal,
        "puts_you_out": out,
    }


def view_response(
    game_id: str,
    loaded: LoadedGame,
    who: Audience,
    status: int = 200,
    presence: list[str | None] | None = None,
) -> Response:
    """The view as a JSON response tagged with the game's version (the shape of ViewSchema)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    body = cast(OrjsonProvider, app.json).encode(view_json(game_id, loaded, who, presence))
    # Built at once, headers and all: each header set afterwards is checked and stored again.
    response: Response = app.response_class(
        body,
        status=status,
        headers={"Vary": "Authorization", "ETag": etag(loaded.version)},
        content_type=JSON,
    )
    return conditional(response)  # a 304 when If-None-Match names this version


JSON = "application/json"


def presence_of(presence: Presence, game_id: str, table: Table) -> list[str | None]:
    """Each seat's presence: "here" or "away" for a person's seat, None for a bot or open one."""
    whos = [
        seat.player or f"{game_id}/{index}"
        for index, seat in enumerate(table.seats)
        if seat.bot is None and not seat.open
    ]
    here = iter(presence.here(whos))
    return [
        None if seat.bot is not None or seat.open else ("here" if next(here) else "away")
        for seat in table.seats
    ]


def event_json(vocabulary: Vocabulary, item: StoredEvent, who: Audience) -> dict[str, Any]:
    """A stored event as `who` may see it, with its version and when it was appended: an item
    of the feed or the stream."""
    return seen_by(who, item, vocabulary.decoded(item))


def turns_audience(stored: list[StoredEvent]) -> bool:
    """Whether these events may change who sees what (see AUDIENCE_TURNS)."""
    return any(item.event.get("type") in AUDIENCE_TURNS for item in stored)


def events_json(
    vocabulary: Vocabulary, stored: list[StoredEvent], table: Table, reader: Reader
) -> tuple[list[dict[str, Any]], bool]:
    """The events as `reader` may see each of them, judged on `table` (at or after them), and
    whether the reader may still read: they stop before the first one it may not."""
    shown: list[dict[str, Any]] = []
    for item in stored:
        who = audience_at(table, reader, item.version)
        if who is None:
            return shown, False
        shown.append(event_json(vocabulary, item, who))
    return shown, True


def seen_by(who: Audience, item: StoredEvent, event: Any) -> dict[str, Any]:
    """A (decoded) event as `who` may see it, with its version and time."""
    redacted = redact(event, who.seat, everything=who.everything)
    return {"version": item.version, "at": item.at_iso, **redacted}


def etag(version: int) -> str:
    """The ETag of a game version."""
    return f'"{version}"'


def with_etag(response: Response, version: int) -> Response:
    """Tag a response with the game version; a matching If-None-Match makes it a 304."""
    response.set_etag(str(version))
    return conditional(response)


# What makes an answer conditional (werkzeug's make_conditional reads these, and nothing else).
CONDITIONAL_HEADERS = (
    "HTTP_IF_NONE_MATCH",
    "HTTP_IF_MATCH",
    "HTTP_IF_MODIFIED_SINCE",
    "HTTP_IF_UNMODIFIED_SINCE",
    "HTTP_IF_RANGE",
    "HTTP_RANGE",
)


def conditional(response: Response) -> Response:
    """The response as werkzeug's make_conditional makes it for this request (a 304 when
    If-None-Match names its ETag), which it is already when the request asks nothing: that
    call costs about 20 µs even then (it dates the answer, which gunicorn does anyway)."""
    environ = request.environ
    if any(name in environ for name in CONDITIONAL_HEADERS):
        response.make_conditional(request)
    return response
