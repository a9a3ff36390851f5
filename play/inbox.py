"""What the players must be told of an append, and its relay to their inboxes.

An append's notices are decided from its events and the table after them (pure: `notices`).
The append itself records, in the game's own slot, that they must be relayed (its relay set,
see events/due.py); right after it, `relay` writes each player's entries with one script in
that player's slot and forgets the record. A process that dies in between leaves the record,
and the sweep (`relay_overdue`) relays it a few seconds later. A relay is idempotent by game
and version (events/relay.lua), so relaying twice writes nothing twice.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from contextlib import suppress
from typing import Any

from rq import Retry
from rq.exceptions import DuplicateJobError

from events.players import Notice
from events.push_outbox import Pending
from events.store import StoredEvent
from game.events import GameEnded, GameStarted, RedrawOffered, TurnStarted
from game.table import SeatTaken, SeatTakenOver, Table, waiting_on
from play.context import Context
from play.mygames import listings
from play.push_send import enqueue_drain
from play.records import record_table

log = logging.getLogger(__name__)

RELAY_GRACE_SECONDS = 3.0  # how long a relay may take before the sweep makes it
DELIVER_PLAYER_WEBHOOK = "workers.jobs.deliver_player_webhook"
PUSHED_TYPES = ("your_turn", "game_started", "game_over", "matched", "chat")
# What an inbox entry can be (`chat`: written by play/chat.py, `matched`: by the quick-play
# matcher, not by an append).
INBOX_TYPES = ("your_turn", "game_started", "game_over", "seat_taken_over", "matched", "chat")


def notices(
    game_id: str, first: int, events: Sequence[Any], after: Table, before: Table | None
) -> dict[str, Notice]:
    """Per player id, what the append of `events` (versions from `first`, `before` becoming
    `after`) tells them; every player either table names learns where the game now stands in
    their games."""
    last = first + len(events) - 1
    found: dict[str, dict[str, Any]] = {}

    def tell(player: str | None, entry: dict[str, Any] | None = None, **flags: Any) -> None:
        if not player:
            return
        mine = found.setdefault(
            player, {"entries": [], "bind": False, "abandoned": 0, "listed": None}
        )
        if entry is not None:
            mine["entries"].append({"game": game_id, "version": last, **entry})
        for name, value in flags.items():
            mine[name] = mine[name] + value if name == "abandoned" else value

    players = [seat.player for seat in after.seats]
    turns: set[int] = set()
    for event in events:
        if isinstance(event, SeatTaken):
            tell(event.player, bind=True)
        elif isinstance(event, GameStarted):
            for seat, player in enumerate(players):
                tell(player, {"type": "game_started", "seat": seat, "edition": after.edition})
        elif isinstance(event, (TurnStarted, RedrawOffered)):
            turns.add(event.seat)
        elif isinstance(event, SeatTakenOver):
            left_by = after.seats[event.seat].left_by
            entry = {"type": "seat_taken_over", "seat": event.seat, "bot": event.bot,
                     "reason": event.reason}  # fmt: skip
            tell(left_by, entry, abandoned=1)
        elif isinstance(event, GameEnded):  # those who left it to a bot are told too
            for seat, player in enumerate(players):
                player = player or after.seats[seat].left_by
                entry = {"type": "game_over", "seat": seat, "winners": list(event.winners),
                         "won": seat in event.winners}  # fmt: skip
                tell(player, entry)
    waiting = waiting_on(after)
    if waiting is not None and waiting.bot is None and waiting.seat in turns:
        tell(players[waiting.seat], {"type": "your_turn", "seat": waiting.seat})
    for player, where in listings(before, after).items():
        tell(player, listed=where)
    return {
        player: Notice(tuple(data["entries"]), data["bind"], data["abandoned"], data["listed"])
        for player, data in found.items()
    }


def relay(
    ctx: Context, game_id: str, first: int, last: int, told: dict[str, Notice], at_ms: int
) -> int:
    """Write each player's notices of the append `first`..`last` (once), enqueue their
    webhooks, and forget the append's relay record; the entries written."""
    written = 0
    for player, notice in told.items():
        entries = tuple({**entry, "appended_at_ms": at_ms} for entry in notice.entries)
        notice = Notice(entries, notice.bind, notice.abandoned, notice.listed)
        count, hook, push = ctx.players.relay(player, game_id, last, notice, at_ms=at_ms)
        if count > 0:
            written += count
            if hook:
                _enqueue_webhook(ctx, player, game_id, last, list(entries))
            if push:
                enqueue_push(ctx, player, game_id, last, list(entries))
    if any(entry["type"] == "game_over" for notice in told.values() for entry in notice.entries):
        record_table(ctx, game_id)  # before the relay record goes: the sweep does it otherwise
    ctx.games.store.relays.drop(game_id, last, first)
    return written


def relay_after_append(
    ctx: Context, game_id: str, first: int, last: int, told: dict[str, Notice], at_ms: int
) -> None:
    """`relay` right after an append; a failure is left to the sweep (the record stays)."""
    try:
        relay(ctx, game_id, first, last, told, at_ms)
    except Exception as error:  # the append stands; the sweep relays it within seconds
        log.warning("relay of %s@%d-%d left to the sweep: %s", game_id, first, last, error)


def relay_overdue(ctx: Context, now: float | None = None) -> int:
    """Relay every append whose relay is overdue (its process died, or Redis failed it)."""
    now = time.time() if now is None else now
    relays = ctx.games.store.relays
    done = 0
    for item in relays.overdue(now):
        first = item.first if item.first is not None else item.version
        stored = ctx.games.read(item.game_id, first, item.version)
        game = ctx.games.load(item.game_id, item.version)
        if game.table is None or len(stored) != item.version - first + 1:
            relays.drop(item.game_id, item.version, first)  # gone (or never whole): nothing
            continue
        before = ctx.games.load(item.game_id, first - 1).table if first > 1 else None
        events = [ctx.games.vocabulary.decoded(entry) for entry in stored]
        told = notices(item.game_id, first, events, game.table, before)
        relay(ctx, item.game_id, first, item.version, told, _at_ms(stored))
        done += 1
    return done


def _at_ms(stored: list[StoredEvent]) -> int:
    """When an append was made (its entries' time; now if they have none)."""
    at = stored[-1].at if stored else None
    return int(time.time() * 1000) if at is None else at


def enqueue_push(
    ctx: Context,
    player: str,
    game_id: str,
    version: int,
    entries: list[dict[str, Any]],
    *,
    key: str = "",
) -> None:
    """Queue the player's push of the entries a push may tell of (once per player, game and
    version), for the drain jobs of the webhook queue: a slow push service never delays a
    move."""
    pushed = [entry for entry in entries if entry.get("type") in PUSHED_TYPES]
    if not pushed:
        return
    if ctx.push_outbox.add(Pending(push_key(player, game_id, version, key), player, pushed)):
        enqueue_drain(ctx)


def push_key(player: str, game_id: str, version: int, key: str = "") -> str:
    """What names a push in the outbox: its player, game and version (and a chat line's id)."""
    return f"{player}-{game_id}-{version}{key}"


def _enqueue_webhook(
    ctx: Context, player: str, game_id: str, version: int, entries: list[dict[str, Any]]
) -> None:
    """The player's webhook job for these entries (once per player, game and version)."""
    key = f"phook-{ctx.settings.namespace}-{player}-{game_id}-{version}"
    retries = ctx.settings.webhook_retries
    with suppress(DuplicateJobError):  # enqueued already
        ctx.queue.enqueue(
            DELIVER_PLAYER_WEBHOOK,
            player,
            entries,
            job_id=key,
            unique=True,
            retry=Retry(max=len(retries), interval=list(retries)),
        )
