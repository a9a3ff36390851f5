"""What the game resources share: loading games, turning commands and views into JSON."""

from __future__ import annotations

import re
import secrets
import threading
from collections.abc import Mapping
from typing import Any

from flask import Response, current_app, jsonify, request

from events.games import GameRepository, LoadedGame, Outcome
from events.recent import Recent
from game.commands import AnswerRedraw, Command, FinishChancellor, Forfeit, PlayCard
from game.errors import IllegalCommand
from game.legal import legal_commands
from game.table import Table
from game.views import view
from service import metrics
from service.auth import Audience
from service.deps import services
from service.errors import ApiError
from workers.context import Context
from workers.path import submit

IDEMPOTENCY_KEY = re.compile(r"[A-Za-z0-9._~:-]{1,100}")
VERSION = re.compile(r"[0-9]{1,18}")
# A refusal is 422 but for these, which are about timing rather than the command itself.
CONFLICT_CODES = {
    "not-your-turn",
    "round-over",
    "game-over",
    "game-started",
    "game-not-started",
    "game-not-over",
    "seats-open",
}
HEADS_EXTENSION = "loveletter-heads"
HEADS_SIZE = 4096  # games whose latest state each API process keeps


class Heads:
    """The latest state of recently used games, per process: loading one reads only new events.

    A derived cache (streams are append-only, so a cached head is a prefix of the truth); the
    entry at the cached version is read again, so a stream that is gone is noticed.
    """

    def __init__(self, repository: GameRepository, size: int = HEADS_SIZE) -> None:
        self.repository = repository
        self._games: Recent[str, LoadedGame] = Recent(size)
        self._lock = threading.Lock()

    def peek(self, game_id: str) -> LoadedGame | None:
        """The cached state, read from nothing (it may be behind the stream)."""
        with self._lock:
            return self._games.get(game_id)

    def load(self, game_id: str) -> LoadedGame:
        """The game at its head: the cached state plus the stream's newer events."""
        with self._lock:
            cached = self._games.get(game_id)
        stored = [] if cached is None else self.repository.store.read(game_id, cached.version)
        if cached is None or not stored or stored[0].version != cached.version:
            loaded = self.repository.load(game_id)
        else:
            table = self.repository.fold(cached.table, stored[1:])
            loaded = LoadedGame(table, stored[-1].version)
        self.remember(game_id, loaded)
        return loaded

    def remember(self, game_id: str, loaded: LoadedGame) -> None:
        """Keep `loaded` unless a later version is kept already (no table: forget the game)."""
        with self._lock:
            cached = self._games.pop(game_id)
            if loaded.table is None:
                return
            self._games.put(
                game_id, loaded if cached is None or cached.version <= loaded.version else cached
            )


def new_game_id() -> str:
    """A fresh, unguessable game id (URL-safe)."""
    return secrets.token_hex(8)


def games() -> GameRepository:
    """The app's game repository."""
    return context().games


def context() -> Context:
    """The command path's context (repository and job queue) of this app."""
    return services().context


def heads() -> Heads:
    """This app's cache of game heads."""
    found = current_app.extensions.get(HEADS_EXTENSION)
    if found is None:
        found = current_app.extensions.setdefault(HEADS_EXTENSION, Heads(games()))
    cache: Heads = found
    return cache


def load(game_id: str, version: int | None = None) -> tuple[LoadedGame, Table]:
    """The game (at `version`, or its head), or a 404 problem."""
    try:
        loaded = heads().load(game_id) if version is None else games().load(game_id, version)
    except ValueError:  # not a valid game id
        loaded = LoadedGame(None, 0)
    if loaded.table is None:
        raise ApiError(404, "game-not-found", "Not found", f"There is no game {game_id!r}.")
    return loaded, loaded.table


def table_json(game_id: str, loaded: LoadedGame) -> dict[str, Any]:
    """The table's public description."""
    table = loaded.table
    assert table is not None
    return {
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
            }
            for index, seat in enumerate(table.seats)
        ],
        "open_seats": table.open_seats,
        "turn_seconds": table.turn_seconds,
        "on_timeout": table.on_timeout,
        "autostart": table.autostart,
        "games_played": len(table.results) + (1 if table.status == "over" else 0),
        "seeded": table.seeded,
    }


def view_json(game_id: str, loaded: LoadedGame, who: Audience) -> dict[str, Any]:
    """The game as `who` may see it, with the legal commands when `who` is the seat to act."""
    table = loaded.table
    assert table is not None
    state = table.game
    seen = None if state is None else view(state, who.seat, everything=who.everything)
    legal: list[dict[str, Any]] = []
    if state is not None and who.seat is not None and state.current == who.seat:
        legal = [command_json(command) for command in legal_commands(state)]
    return {
        "game": table_json(game_id, loaded),
        "view": seen,  # a dataclass: the app's orjson writes it as an object, field by field
        "legal": legal,
    }


def view_response(game_id: str, loaded: LoadedGame, who: Audience) -> Response:
    """The view as a JSON response tagged with the game's version (the shape of ViewSchema)."""
    response = jsonify(view_json(game_id, loaded, who))
    response.headers["Vary"] = "Authorization"
    return with_etag(response, loaded.version)


def command_json(command: Command) -> dict[str, Any]:
    """An engine command in the API's form (as clients send it)."""
    if isinstance(command, PlayCard):
        body: dict[str, Any] = {"type": "play", "card": command.card}
        if command.targets:
            body["targets"] = list(command.targets)
        for name in ("guess", "look"):
            if getattr(command, name) is not None:
                body[name] = getattr(command, name)
        return body
    if isinstance(command, FinishChancellor):
        return {"type": "chancellor", "keep": command.keep, "bottom": list(command.bottom)}
    if isinstance(command, AnswerRedraw):
        return {"type": "redraw", "redraw": command.redraw}
    return {"type": "forfeit"}


def engine_command(seat: int, body: Mapping[str, Any]) -> Command:
    """The engine command for a validated API command of `seat`."""
    kind = body["type"]
    if kind == "play":
        targets = tuple(body["targets"])
        return PlayCard(seat, body["card"], targets, body.get("guess"), body.get("look"))
    if kind == "chancellor":
        return FinishChancellor(seat, body["keep"], tuple(body["bottom"]))
    if kind == "redraw":
        return AnswerRedraw(seat, body["redraw"])
    return Forfeit(seat)


def load_to_decide(game_id: str) -> tuple[LoadedGame, Table]:
    """The game to decide a command on: the cached state when it is at the version the client
    decided on (the append checks that version anyway, so nothing need be read), else `load`."""
    cached = heads().peek(game_id)
    if cached is not None and cached.table is not None and if_match() == str(cached.version):
        return cached, cached.table
    return load(game_id)


def if_match() -> str | None:
    """The request's If-Match as written, without `W/` and quotes (None: no header)."""
    header = request.headers.get("If-Match")
    return None if header is None else header.strip().removeprefix("W/").strip('"')


def expected_version() -> int:
    """The version the client decided on (If-Match); 428 without it."""
    text = if_match()
    if text is None:
        raise ApiError(
            428,
            "precondition-required",
            "Precondition required",
            "Send the game version you decided on as If-Match (the ETag of the view).",
        )
    if not VERSION.fullmatch(text):
        raise ApiError(400, "bad-if-match", "Bad request", "If-Match must be a game version.")
    return int(text)


def idempotency_key() -> str:
    """The request's Idempotency-Key (required on commands)."""
    key = request.headers.get("Idempotency-Key")
    if key is None or not IDEMPOTENCY_KEY.fullmatch(key):
        raise ApiError(
            400,
            "idempotency-key-required",
            "Bad request",
            "Send an Idempotency-Key header: 1-100 letters, digits or ._~:- characters.",
        )
    return key


def run(
    game_id: str,
    command: Any,
    *,
    expected: int,
    key: str | None,
    meta: Mapping[str, Any],
    loaded: LoadedGame | None = None,
) -> Outcome:
    """Run a command through the shared command path; refusals become problems."""
    try:
        outcome = submit(
            context(),
            game_id,
            command,
            expected_version=expected,
            idempotency_key=key,
            meta=meta,
            loaded=loaded,
        )
    except IllegalCommand as refusal:
        metrics.record_command("illegal")
        status = 409 if refusal.code in CONFLICT_CODES else 422
        title = "Conflict" if status == 409 else "Illegal command"
        raise ApiError(status, refusal.code, title, refusal.message, code=refusal.code) from None
    if outcome.status == "conflict":
        metrics.record_conflict()
        current = outcome.game.version
        raise ApiError(
            412,
            "stale-version",
            "Precondition failed",
            f"The game is at version {current}, not {expected}: look again and decide anew.",
            headers={"ETag": etag(current)},
            current_version=current,
        )
    metrics.record_command(outcome.status)
    heads().remember(game_id, outcome.game)
    return outcome


def etag(version: int) -> str:
    """The ETag of a game version."""
    return f'"{version}"'


def with_etag(response: Response, version: int) -> Response:
    """Tag a response with the game version; a matching If-None-Match makes it a 304."""
    response.set_etag(str(version))
    response.make_conditional(request)
    return response
