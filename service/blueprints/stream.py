"""The event stream of a game (server-sent events), and tickets that open it without headers.

Each event is sent as the feed would answer it to the same reader, with the version as its `id`:
as the game that event belongs to allows, judged again whenever the table changes (a seat taken
or left, a game begun or ended). A stream whose reader may read no more (its token left its
seat, or a new game began under the auditor's eyes) closes. A waiting stream holds no thread
(gevent) and no Redis connection: this process's append hub wakes it (see events/hub.py).

Readers of the table's chat also get its messages, as SSE events of type `chat` with no `id:`,
so they never move the Last-Event-ID a client resumes the game's events with: chat resumes from
`chat_after` (a message id), or from when the stream opened (docs/chat.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import Response, request, url_for
from flask.views import MethodView

from events.games import LoadedGame
from game.audiences import Reader, audience_at, seat_held
from game.events import GameEnded, GameStarted
from game.table import Table
from play import chat
from play.chat import Chatter
from play.context import Context
from play.follow import Follower, follow
from service import examples, sse
from service.apidoc import operation, problems
from service.auth import (
    bearer,
    held,
    holding,
    player_token_digest,
    reader,
    request_player,
    request_seat_key,
    require_seat,
    seat_of,
)
from service.blueprints.base import Blueprint
from service.deps import context
from service.errors import ApiError
from service.headers import LAST_VERSION, VERSION
from service.jsonprovider import json_encoder
from service.lookup import find_game
from service.ratelimit import READS, Place, limiter, rate_limited
from service.rendering import AUDIENCE_TURNS, seen_by
from service.schemas.streams import StreamQuerySchema, StreamTicketSchema

blp = Blueprint("stream", __name__, url_prefix="/games", description="Event streams")

PLAYER_HOLDER = "player:"  # a ticket taken with a player's token stands for the player
RETRY_MILLISECONDS = 2000  # how long a client waits before reconnecting
BATCH = 500  # the most events sent at once (a stream from the start sends several batches)
LAST_EVENT_ID = {
    "name": "Last-Event-ID",
    "in": "header",
    "required": False,
    "description": "the last version the client received (an EventSource sends it when it"
    " reconnects): the stream resumes after it, whatever `after` says",
    "schema": {"type": "string", "pattern": "^[0-9]{1,18}$"},
}
SSE_EVENT = {  # one event of the stream
    "type": "object",
    "properties": {
        "id": {"type": "string", "description": "the event's version (game events only)"},
        "event": {"type": "string", "enum": ["message", "chat", "end"]},
        "data": {
            "type": "string",
            "description": "JSON: a game event as the feed shows it (`message`), a chat"
            " message as getChat shows it (`chat`: no `id`), or the final version and status"
            " (`end`)",
        },
    },
    "required": ["data"],
}
STREAM_RESPONSES = {
    "200": {
        "description": "Server-sent events: each game event as `id: <version>` and `data:`"
        " the event as the feed shows it; for readers of the chat, each message as `event:"
        " chat` (no `id`); a `: heartbeat` comment when quiet; once the game is over, an `end`"
        " event, and the stream closes",
        "content": {sse.CONTENT_TYPE: {"schema": SSE_EVENT}},
    },
    "204": {"description": "The game is over and nothing follows: an EventSource stops here"},
}


# Events after which the game is over (or no longer): the rest leave it as it was.
OVER_AFTER = {GameEnded.type: True, GameStarted.type: False}
TICKET_EXAMPLE = {
    "ticket": "kq3WZ0p8Rr1vYbN6sT2uXc9dLm4eGh7a",
    "seat": 0,
    "expires_in": 60,
    "url": f"/games/{examples.GAME_ID}/stream?ticket=kq3WZ0p8Rr1vYbN6sT2uXc9dLm4eGh7a",
}


@blp.route("/<game_id:game_id>/stream")
class Stream(MethodView):
    """A game's events as they happen."""

    @rate_limited(READS)
    @blp.arguments(StreamQuerySchema(), location="query")
    @operation("streamEvents", token="optional", parameters=[LAST_EVENT_ID],
               responses=STREAM_RESPONSES)  # fmt: skip
    @problems(400, 401, 403, 404)
    def get(self, query: dict[str, Any], game_id: str) -> Response:
        """Server-sent events after `after` (or Last-Event-ID) for the caller's audience: a
        seat's token in the Authorization header, or a stream ticket in `ticket`; none for a
        spectator. A heartbeat comment every 15 s; the stream ends once the game is over."""
        loaded, table = find_game(game_id)
        ctx = context()
        if "ticket" in query:
            who, alive = ticket_reader(ctx, game_id, query["ticket"], table)
        else:
            who, token_digest = reader(table), player_token_digest()
            alive = None if token_digest is None else ctx.devices.alive(token_digest)
        after = min(last_event_id(query["after"]), LAST_VERSION)
        if table.status == "over" and after >= loaded.version:
            return Response(status=204)
        encode = json_encoder()
        place = limiter().hold(request.remote_addr)
        talk = chat_of(ctx, game_id, table, who, query.get("chat_after"))
        events = stream_events(ctx, game_id, loaded, who, after, encode, place, talk, alive)
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        response = Response(events, mimetype=sse.CONTENT_TYPE, headers=headers)
        response.headers["Vary"] = "Authorization"
        if place is not None:
            response.call_on_close(place.release)
        return response


@blp.route("/<game_id:game_id>/stream-tickets")
class StreamTickets(MethodView):
    """Tickets that open a seat's stream where no Authorization header can be sent."""

    @rate_limited("tickets", seat=request_seat_key)
    @blp.response(201, StreamTicketSchema, example=TICKET_EXAMPLE)
    @operation("createStreamTicket", token="required")
    @problems(401, 404)
    def post(self, game_id: str) -> dict[str, Any]:
        """A ticket for the seat of the token in the Authorization header: for a short while
        (60 s by default), `GET /games/{game_id}/stream?ticket=...` opens that seat's stream,
        as long as that token holds the seat. It is good for nothing else, so the seat's own
        token never goes in a URL."""
        _, table = find_game(game_id)
        seat = require_seat(table)
        holder = request_seat_key()
        assert holder is not None  # require_seat found the token's seat
        if seat_of(table, bearer()) is None:  # a player's token: the ticket stands for the player
            holder = holding(PLAYER_HOLDER + str(request_player()), player_token_digest())
        tickets = context().tickets
        ticket = tickets.issue(game_id, holder)
        return {
            "ticket": ticket,
            "seat": seat,
            "expires_in": tickets.seconds,
            "url": url_for("stream.Stream", game_id=game_id, ticket=ticket),
        }


def ticket_reader(
    ctx: Context, game_id: str, ticket: str, table: Table
) -> tuple[Reader, Callable[[], bool] | None]:
    """The reader a stream ticket of this game stands for, and whether the player token it was
    taken with still acts; 401 if it is unknown or expired, if the token it was taken with no
    longer holds its seat, or was revoked."""
    holder, alive = held(ctx.tickets.holder(game_id, ticket) or "")
    player: str | None = None
    if holder.startswith(PLAYER_HOLDER):
        player, holder = holder.removeprefix(PLAYER_HOLDER), ""
    dead = alive is not None and not alive()
    if dead or (not holder and player is None) or seat_held(table, holder, player) is None:
        raise ApiError(
            401,
            "unauthorized",
            "Unauthorized",
            "This stream ticket is unknown or has expired, or its seat was left: ask for"
            " another with the seat's token (POST /games/{game_id}/stream-tickets).",
        )
    return Reader(holder or None, player=player), alive


class ChatFollower:
    """The chat messages one stream's reader gets: those after `after` (a message id), without
    those of the posters it muted; a seat reads them while it holds its seat."""

    def __init__(
        self, ctx: Context, game_id: str, who: Reader, chatter: Chatter, after: str
    ) -> None:
        self.ctx, self.game_id, self.who, self.chatter = ctx, game_id, who, chatter
        self.after = after
        self.asked = after != "now"  # the client named where to start: read from there at once

    def news(self, follower: Follower, table: Table) -> list[dict[str, Any]] | None:
        """The messages after `after` if the chat has news ([]: none); None when the reader
        may read no more (its seat was left)."""
        if not follower.watch.take_chat():
            return []
        if self.chatter.seat is not None:
            now = _table_now(self.ctx, self.game_id, table.version)
            if seat_held(now, self.who.token_hash, self.who.player) != self.chatter.seat:
                return None
        games = self.ctx.games
        messages = games.chat.read(self.game_id, self.after, BATCH)
        if len(messages) == BATCH:  # more behind: read on next time
            follower.watch.hear_chat()
        if not messages:
            return []
        self.after = messages[-1].id
        muted: frozenset[str] = frozenset()
        if self.chatter.holder is not None:
            muted = games.chat.mutes(self.game_id).get(self.chatter.holder, frozenset())
        return [chat.shown(message) for message in chat.shown_to(messages, muted)]


def chat_of(
    ctx: Context, game_id: str, table: Table, who: Reader, after: str | None
) -> ChatFollower | None:
    """What a stream's reader gets of the chat (None: nothing, e.g. a spectator where only the
    seats chat, or the auditor, who reads it with getChat); from `after`, else from now."""
    if who.auditor:
        return None
    seat = seat_held(table, who.token_hash, who.player)
    chatter = chat.chatter(table, seat, who.player)
    if seat is None and (not table.spectator_chat or who.token_hash is not None):
        return None
    return ChatFollower(ctx, game_id, who, chatter, after or "now")


def _table_now(ctx: Context, game_id: str, version: int) -> Table:
    """The table as it is now, at `version` at least (what audiences are judged on); the
    stream watches the game, so a head the hub has kept current is read from nothing."""
    loaded = ctx.heads.load(game_id, ctx.hub)
    if loaded.version < version or loaded.table is None:  # a head cached behind: the stream's
        loaded = ctx.games.load(game_id)
    assert loaded.table is not None
    return loaded.table


def last_event_id(after: int) -> int:
    """The version to resume after: Last-Event-ID when the client sent one, else `after`."""
    header = request.headers.get("Last-Event-ID")
    if header is None:
        return after
    text = header.strip()
    if not VERSION.fullmatch(text):
        raise ApiError(400, "bad-last-event-id", "Bad request", "Last-Event-ID must be a version.")
    return int(text)


def stream_events(
    ctx: Context,
    game_id: str,
    loaded: LoadedGame,
    who: Reader,
    after: int,
    encode: Callable[[Any], bytes],
    place: Place | None = None,
    talk: ChatFollower | None = None,
    alive: Callable[[], bool] | None = None,
) -> Iterator[bytes]:
    """The stream's body: events after `after` as they are appended, heartbeats while quiet,
    and an `end` event once the game is over and every event was sent. It ends early when the
    process stops, the stream has lasted LOVELETTER_STREAM_SECONDS (clients resume), its
    reader may read no more, or `alive` says the player token it was opened with was revoked.
    With `talk`, the chat's messages too, as `chat` events."""
    settings, vocabulary = ctx.settings, ctx.games.vocabulary
    closes_at = time.monotonic() + settings.stream_seconds
    table = loaded.table
    assert table is not None
    over = table.status == "over"
    head = loaded.version
    yield sse.retry(RETRY_MILLISECONDS)
    with follow(ctx, game_id, after, BATCH, chat=talk is not None) as follower:
        if talk is not None and talk.asked:
            follower.watch.hear_chat()  # messages after `chat_after` came before the watch
        elif talk is not None:  # from now: read once the watch hears what comes next
            talk.after = ctx.games.chat.head(game_id)
        while True:
            if over and follower.after >= head:
                yield sse.message(encode({"version": head, "status": "over"}), event="end")
                return
            left = closes_at - time.monotonic()
            if left <= 0:
                return
            if place is not None:
                place.renew()
            seat = seat_held(table, who.token_hash, who.player)
            if seat is not None:  # the game is open on this seat: nothing is pushed of it
                ctx.presence.touch(f"{game_id}/{seat}")
            events = follower.next(min(settings.stream_heartbeat_seconds, left))
            if follower.closed or (alive is not None and not alive()):
                return
            said = None if talk is None else talk.news(follower, table)
            if said is None and talk is not None:  # its seat was left: it reads no more
                return
            if said:
                yield b"".join(sse.message(encode(item), event="chat") for item in said)
            if not events:
                if not said:
                    yield sse.comment("heartbeat")
                continue
            decoded = [vocabulary.decoded(item) for item in events]
            for item, event in zip(events, decoded, strict=True):
                if item.version > head:  # is the game over as of the last event sent?
                    over, head = OVER_AFTER.get(event.type, over), item.version
            if any(event.type in AUDIENCE_TURNS for event in decoded):
                table = _table_now(ctx, game_id, events[-1].version)
            sent: list[bytes] = []
            for item, event in zip(events, decoded, strict=True):
                seen = audience_at(table, who, item.version)
                if seen is None:  # its token left the seat, or a game began: the reader is done
                    yield b"".join(sent)
                    return
                data = encode(seen_by(seen, item, event))
                sent.append(sse.message(data, event_id=item.version))
            yield b"".join(sent)
