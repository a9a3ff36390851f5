"""Quick play: a player asks for a game, the queue matches players into a table, the table is
opened with them seated and started.

A match is made by one script in the store (events/queue_match.lua), so any API process or
worker may try; the process that made it opens the table right away, and the sweep opens any
whose process died first (the table's id is chosen before the match, so opening it twice
opens it once). See docs/quickplay.md.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Sequence
from typing import Any

import orjson

from events.players import Notice
from events.queue import Entry, Match, pool_name
from events.store import iso_time
from game.editions import EDITIONS
from game.table import TAKEOVER_BOT, OpenTable, TakeSeat
from play.context import Context
from play.inbox import enqueue_push
from play.lobby import new_game_id, open_table
from play.records import reliability
from play.send_command import KeyReused, StaleVersion

log = logging.getLogger(__name__)

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3
MATCHES_PER_SWEEP = 500  # per pool: the sweep runs every second anyway
NAME_MAX = 40


class AlreadyQueued(Exception):
    """The player waits with another entry."""

    def __init__(self, entry_id: str) -> None:
        super().__init__(entry_id)
        self.entry_id = entry_id


class WrongSeats(Exception):
    """A number of seats the edition is not played by."""


def now_ms() -> int:
    """The time, in Unix milliseconds."""
    return int(time.time() * 1000)


def rating(ctx: Context, player: str, edition: str) -> float:
    """The player's conservative rating in an edition, mu - 3 sigma (0 for a new player)."""
    raw: Any = ctx.games.store.redis.hget(f"{ctx.settings.namespace}:ratings:{edition}", player)
    if raw is None:
        return DEFAULT_MU - 3 * DEFAULT_SIGMA
    found = orjson.loads(raw)
    return float(found["mu"]) - 3 * float(found["sigma"])


def enter(
    ctx: Context,
    player: str,
    edition: str,
    seats: Sequence[int],
    *,
    ranked: bool = False,
    bots_after: float | None = None,
    bot: str = TAKEOVER_BOT,
    reliable_only: bool = False,
) -> Entry:
    """Put the player in the queue and try a match at once; the entry as it is after that.
    With `reliable_only`, the others at the table are reliable players (play/records.py)."""
    rules = EDITIONS[edition]
    wrong = [n for n in seats if not rules.min_players <= n <= rules.max_players]
    if wrong:
        raise WrongSeats(
            f"{edition} is played by {rules.min_players} to {rules.max_players} players, not"
            f" {', '.join(str(n) for n in sorted(set(wrong)))}."
        )
    at = now_ms()
    entry = Entry(
        id=secrets.token_urlsafe(12),
        player=player,
        edition=edition,
        ranked=ranked,
        seats=tuple(sorted(set(seats))),
        bots_after_ms=None if bots_after is None else int(bots_after * 1000),
        bot=bot,
        rating=rating(ctx, player, edition) if ranked else 0.0,
        at_ms=at,
        seen_ms=at,
        state="waiting",
        secret=secrets.token_urlsafe(24),
        reliable=reliability(ctx, player).reliable,
        reliable_only=reliable_only,
    )
    entered, entry_id = ctx.quickplay.enter(entry)
    if not entered:
        raise AlreadyQueued(entry_id)
    match_pool(ctx, entry.pool, anchor=entry.id, most=1)
    found = ctx.quickplay.get(entry.id)
    assert found is not None
    return found


def match_pool(
    ctx: Context, pool: str, *, anchor: str | None = None, most: int = MATCHES_PER_SWEEP
) -> list[str]:
    """Match in a pool until no group can be made (at most `most` times); the games opened."""
    opened = []
    for _ in range(most):
        match = ctx.quickplay.match(pool, new_game_id(), now_ms(), anchor)
        if match is None:
            break
        anchor = None
        opened.append(match.game)
        open_match(ctx, match)
    return opened


def seat_token(entry: Entry) -> str | None:
    """The seat token of a matched entry: derived from its secret and its game (HMAC-SHA256),
    so whoever opens the table, and the entry's reader later, get the same one."""
    if entry.game is None or not entry.secret:
        return None
    digest = hmac.new(entry.secret.encode(), f"seat-token:{entry.game}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()).decode().rstrip("=")


def _seated_names(names: Sequence[str], bots: Sequence[str | None]) -> list[str]:
    """The players' names at the table, made distinct from each other and the bots'."""
    taken = {f"{bot}-bot-{seat + 1}" for seat, bot in enumerate(bots) if bot}
    seated = []
    for name in names:
        candidate, n = name, 1
        while candidate in taken:
            n += 1
            suffix = f" {n}"
            candidate = name[: NAME_MAX - len(suffix)] + suffix
        taken.add(candidate)
        seated.append(candidate)
    return seated


def open_match(ctx: Context, match: Match) -> int | None:
    """Open the match's table with its players seated (and started: every seat is taken), mark
    its entries seated and tell the players; the game's version (None: an entry is gone)."""
    entries = ctx.quickplay.entries(list(match.entries))
    if any(entry is None or entry.game != match.game for entry in entries):
        log.warning("match %s lost an entry: not opened", match.game)
        ctx.quickplay.seated(match, 0)
        return None
    seated = [entry for entry in entries if entry is not None]
    humans = len(seated)
    bots: tuple[str | None, ...] = (None,) * humans + (match.bot,) * (match.seats - humans)
    records = [ctx.players.get(entry.player) for entry in seated]
    names = _seated_names(
        [record.name if record else f"player-{entry.player[:6]}" for record, entry in
         zip(records, seated, strict=True)], bots
    )  # fmt: skip
    takes = []
    for entry, name in zip(seated, names, strict=True):
        token = seat_token(entry)
        assert token is not None and entry.seat is not None
        token_hash = hashlib.sha256(token.encode()).hexdigest()
        takes.append(TakeSeat(entry.seat, name, token_hash, player=entry.player))
    command = OpenTable(
        edition=match.edition,
        bots=bots,
        seed=secrets.token_hex(32),
        takeover_bot=match.bot,
        seated=tuple(takes),
        **_ranked(match.ranked),
    )
    try:
        _, sent = open_table(ctx, command, {"by": "quickplay"}, game_id=match.game)
        version = sent.game.version
    except (
        KeyReused,
        StaleVersion,
    ):  # opened already (by the sweep, or a process that died after it)
        version = ctx.games.load(match.game).version
    ctx.quickplay.seated(match, version)
    at = now_ms()
    for entry in seated:
        told = {"type": "matched", "game": match.game, "version": version, "seat": entry.seat,
                "entry": entry.id, "edition": match.edition, "ranked": match.ranked,
                "appended_at_ms": at}  # fmt: skip
        _, _, push = ctx.players.relay(
            entry.player, f"match-{entry.id}", 1, Notice((told,)), at_ms=at
        )
        if push:
            enqueue_push(ctx, entry.player, match.game, version, [told])
    return version


def _ranked(ranked: bool) -> dict[str, Any]:
    """The table option saying the game is ranked, where tables have it."""
    fields = getattr(OpenTable, "__dataclass_fields__", {})
    return {"ranked": ranked} if "ranked" in fields else {}


def cancel(ctx: Context, entry: Entry) -> str:
    """Cancel a waiting entry; its state after (matched stays matched)."""
    return ctx.quickplay.cancel(entry)


def seen(ctx: Context, entry: Entry) -> None:
    """The entry's player polled it: it is still here."""
    if entry.state == "waiting":
        ctx.quickplay.touch(entry.id, now_ms())


def here(ctx: Context, player: str) -> None:
    """The player's inbox stream is open: an entry it waits with is still wanted."""
    ctx.quickplay.touch_player(player, now_ms())


def sweep_queue(ctx: Context, now: float | None = None) -> int:
    """Open the tables of matches whose process died first, then match in every pool (bots
    fill the tables of those who waited long enough); how many games were opened."""
    stamp = now_ms() if now is None else int(now * 1000)
    opened = 0
    queue = ctx.quickplay
    for game_id in queue.overdue(stamp):
        match = queue.plan(game_id)
        if match is None:
            continue
        try:
            if open_match(ctx, match) is not None:
                opened += 1
        except Exception as error:  # one bad match must not stop the others
            log.warning("opening matched game %s failed: %s", game_id, error)
    for pool in queue.pools():
        if queue.waiting(pool):
            opened += len(match_pool(ctx, pool))
    return opened


def entry_json(entry: Entry) -> dict[str, Any]:
    """An entry as its player reads it: matched once its table is open, with the game and the
    seat's token."""
    state = entry.state
    game = seat = token = None
    if state == "matched":
        if entry.opened is None:
            state = "waiting"  # its table is being opened: a moment
        else:
            game, seat, token = entry.game, entry.seat, seat_token(entry)
    return {
        "id": entry.id,
        "state": state,
        "edition": entry.edition,
        "seats": list(entry.seats),
        "ranked": entry.ranked,
        "bots_after": None if entry.bots_after_ms is None else entry.bots_after_ms // 1000,
        "bot": entry.bot,
        "reliable_only": entry.reliable_only,
        "entered_at": iso_time(entry.at_ms),
        "game": game,
        "seat": seat,
        "token": token,
    }


__all__ = ["AlreadyQueued", "WrongSeats", "enter", "pool_name"]
