"""A table's chat: who may read and post, what a message may say, mutes, and who is told.

The chat is no part of the game: its messages go to a stream of their own (events/chat.py), so
posting changes no version, and nothing of it reaches the game's events. Seats chat; spectators
read it, and players without a seat post to it, only at tables opened with `spectator_chat`.
A message is a preset's code (shown in each reader's language) or a line of free text.
"""

from __future__ import annotations

import logging
import time
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from events.chat import SPECTATORS, ChatMessage
from game.table import Table
from play.context import Context
from play.inbox import enqueue_push
from play.visible import RULE as VISIBLE_RULE
from play.visible import hidden_problem

log = logging.getLogger(__name__)

# The preset phrases, by code; each is a catalogue key `chat.preset.<code>` of the web client.
PRESETS = (
    "hello",
    "good_luck",
    "thinking",
    "your_turn",
    "nice_guess",
    "well_played",
    "wow",
    "oops",
    "sorry",
    "thanks",
    "good_game",
    "rematch",
)
TEXT_MAX = 200  # characters (Unicode code points, in NFC) of a free-text message
MARKUP = frozenset("<>")
REFUSED_CATEGORIES = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")  # controls, formats, unassigned
TEXT_RULE = (
    f"1 to {TEXT_MAX} characters on one line, with no space at either end, no control or"
    " format characters (line breaks, bidirectional marks, zero-width joiners...) and no markup"
    " ('<' or '>'), " + VISIBLE_RULE + "; kept in Unicode NFC"
)


class ChatRefused(Exception):
    """A chat request the table refuses: its problem's status, slug and detail."""

    def __init__(self, status: int, slug: str, detail: str) -> None:
        super().__init__(detail)
        self.status, self.slug, self.detail = status, slug, detail


@dataclass(frozen=True)
class Chatter:
    """Who reads or posts: a seat, or a spectator (seat None). `holder` is the identity its
    mutes are kept under (None: an anonymous spectator, who can't mute); `player` its player."""

    seat: int | None
    player: str | None
    holder: str | None


def text_problem(text: str) -> str | None:
    """Why a free text is refused (None: it is fine)."""
    if not 1 <= len(text) <= TEXT_MAX or text != text.strip():
        return f"A message is {TEXT_RULE}."
    for char in text:
        if char in MARKUP or unicodedata.category(char) in REFUSED_CATEGORIES:
            return f"A message is {TEXT_RULE}."
    hidden = hidden_problem(text, name=False)
    return None if hidden is None else f"A message is seen as it is written: {hidden}"


def seat_holder(table: Table, seat: int) -> str:
    """The identity a seat's mutes are kept under: its player's, else its token's."""
    held = table.seats[seat]
    return f"player:{held.player}" if held.player else f"token:{held.token_hash}"


def chatter(table: Table, seat: int | None, player: str | None) -> Chatter:
    """The chatter a request is: its seat's (from the seat token or the player holding it),
    else a spectator (a player without a seat here, or nobody)."""
    if seat is not None:
        held = table.seats[seat]
        return Chatter(seat, held.player, seat_holder(table, seat))
    return Chatter(None, player, None if player is None else f"player:{player}")


def may_read(table: Table, who: Chatter) -> None:
    """Refuse a spectator of a table whose chat is for its seats."""
    if who.seat is None and not table.spectator_chat:
        raise ChatRefused(
            403,
            "chat-seats-only",
            "Only the seats of this table chat: send a seat's token (or its player's).",
        )


def shown_to(messages: Sequence[ChatMessage], muted: frozenset[str]) -> list[ChatMessage]:
    """The messages a reader who muted `muted` (seat numbers, `spectators`) gets."""
    return [message for message in messages if sender(message) not in muted]


def sender(message: ChatMessage) -> str:
    """What a reader mutes to hear no more of this message's poster."""
    return SPECTATORS if message.seat is None else str(message.seat)


def post(
    ctx: Context,
    game_id: str,
    table: Table,
    who: Chatter,
    *,
    preset: str | None = None,
    text: str | None = None,
    name: str | None = None,
) -> ChatMessage:
    """Post a message (a preset's code or free text, already checked) as `who`, judged on
    `table`, then tell the seated players who are away (their inbox). ChatRefused when `who`
    may not post; MovedOn when the game moved past `table` (judge again on the newer one)."""
    may_read(table, who)
    if who.holder is None:
        raise ChatRefused(
            401, "unauthorized", "Post with a seat's token or a player's (spectators read only)."
        )
    if who.seat is not None:
        name = table.seats[who.seat].name
    draft = ChatMessage("", who.seat, who.player, name or "", preset, text)
    posted = ctx.games.chat.post(game_id, draft, table.version)
    if posted is None:
        raise ChatRefused(
            409,
            "chat-archived",
            "This game was archived: its chat can be read, no longer posted to.",
        )
    try:
        tell_away(ctx, game_id, table, posted)
    except Exception:  # the message is posted; its notices are a courtesy
        log.exception("chat notices of %s in %s were not written", posted.id, game_id)
    return posted


def tell_away(ctx: Context, game_id: str, table: Table, message: ChatMessage) -> int:
    """Write a `chat` inbox entry for each seated player who is away (not here within the
    last minute, see docs/players.md) and hears its poster, once per game until the player is
    here again; how many were told."""
    seats = [
        (index, held.player)
        for index, held in enumerate(table.seats)
        if held.player and held.bot is None and index != message.seat
        and held.player != message.player
    ]  # fmt: skip
    if not seats:
        return 0
    here = ctx.presence.here([player for _, player in seats])
    mutes = ctx.games.chat.mutes(game_id)
    at_ms = int(time.time() * 1000)
    told = 0
    for (index, player), present in zip(seats, here, strict=True):
        if present or sender(message) in mutes.get(f"player:{player}", frozenset()):
            continue
        entry = {"type": "chat", "game": game_id, "version": table.version, "seat": index,
                 "appended_at_ms": at_ms, "message": message.id, "from_seat": message.seat,
                 "name": message.name}  # fmt: skip
        entry["preset" if message.preset is not None else "text"] = message.preset or message.text
        count = ctx.players.tell(player, game_id, [entry])
        if count and ctx.push.any(player):
            enqueue_push(ctx, player, game_id, table.version, [entry], key=message.id)
        told += count
    return told


def shown(message: ChatMessage, *, moderator: bool = False) -> dict[str, object]:
    """A message as clients get it (a player's id only for the auditor)."""
    found: dict[str, object] = {"id": message.id, "at": message.at, "seat": message.seat,
                                "name": message.name, "preset": message.preset,
                                "text": message.text}  # fmt: skip
    if moderator:
        found["player"] = message.player
    return found
