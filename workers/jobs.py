"""RQ jobs: thin adapters that hand a bot's move, a late seat's time-out or a "your turn" call
to the use cases. Each carries the version it was scheduled for and does nothing once the game
has moved on, so duplicated, retried or late jobs never move twice."""

from __future__ import annotations

import json
import threading
import time
from datetime import UTC, datetime

from events.games import LoadedGame
from events.store import Idempotency
from game.bots import Options, make_policy
from game.commands import Command
from game.legal import legal_commands
from game.table import Table, TimeOut, Waiting, waiting_on
from game.views import view
from play import logs, push_send
from play.context import Context, current
from play.follow_up import LEASE_SECONDS
from play.send_command import StaleVersion, send_command
from play.webhooks import Refused, headers, post, resolve

log = logs.get(__name__)

# Set when this worker is asked to stop (workers/worker.py): a job that lingers for more work
# (the push drain) ends at once rather than hold the stop up.
STOPPING = threading.Event()
STALE = "stale"


def bot_turn(game_id: str, version: int, seat: int) -> str:
    """Let a bot seat act: its policy sees only its seat's view and the legal commands."""
    ctx = current()
    game, waiting = _claim(ctx, game_id, version, seat)
    if game is None or waiting is None or waiting.bot is None:
        return STALE
    assert game.table is not None and game.table.game is not None
    command = _choose(
        waiting.bot, f"{game_id}/{seat}", game.table, seat, ctx.settings.bot_budget_ms
    )
    meta = {"by": "bot", "seat": seat, "policy": waiting.bot}
    return _send(ctx, game_id, game, command, f"bot-{version}", meta)


def turn_deadline(game_id: str, version: int, seat: int) -> str:
    """A human's time ran out: the heuristic moves for it, or it forfeits, as the table says."""
    ctx = current()
    game, waiting = _claim(ctx, game_id, version, seat)
    if game is None or waiting is None or waiting.bot is not None:
        return STALE
    assert game.table is not None and game.table.game is not None
    move = None
    if game.table.on_timeout == "bot":
        budget = ctx.settings.bot_budget_ms
        move = _choose("heuristic", f"{game_id}/{seat}/timeout", game.table, seat, budget)
    command = TimeOut(seat, move)  # type: ignore[arg-type]  # a move is never a host command
    return _send(ctx, game_id, game, command, f"timeout-{version}", {"by": "timeout"})


def deliver_webhook(game_id: str, version: int, seat: int) -> str:
    """Tell a seat it must act: a thin, signed POST; an error makes RQ retry it with backoff."""
    ctx = current()
    game = ctx.games.load(game_id)
    waiting = waiting_on(game.table)
    if game.version != version or waiting is None or waiting.seat != seat:
        return STALE
    assert game.table is not None and game.table.game is not None
    seated = game.table.seats[seat]
    if seated.webhook is None or seated.webhook_secret is None:
        return "no-webhook"
    try:  # resolved once: the delivery goes to an address checked here
        destination = resolve(seated.webhook, allow_private=ctx.settings.webhook_allow_private)
    except Refused as refusal:
        log.warning("webhook refused", game=game_id, seat=seat, reason=str(refusal))
        return "refused"
    now = int(time.time())
    payload = {
        "type": "turn.ready",
        "timestamp": datetime.fromtimestamp(now, UTC).isoformat(),
        "data": {
            "game": game_id,
            "seat": seat,
            "version": version,
            "decision": game.table.game.decision,
        },
    }
    body = json.dumps(payload, separators=(",", ":")).encode()
    message_id = f"msg_{game_id}_{version}_{seat}"
    signed = headers(seated.webhook_secret, message_id, now, body)
    status = post(destination, body, signed, timeout=ctx.settings.webhook_timeout)
    if not 200 <= status < 300:  # a redirect is not followed: not delivered either
        raise WebhookFailed(f"the webhook of {game_id} seat {seat} answered {status}")
    return "delivered"


def _claim(
    ctx: Context, game_id: str, version: int, seat: int
) -> tuple[LoadedGame | None, Waiting | None]:
    """The game, if it still waits on `seat` at `version`; its sweep is put off while we work."""
    game = ctx.games.load(game_id)
    waiting = waiting_on(game.table)
    if game.version != version or waiting is None or waiting.seat != seat:
        return None, None
    ctx.games.store.due.postpone(game_id, version, time.time() + LEASE_SECONDS)
    return game, waiting


def _choose(policy_name: str, seed: str, table: Table, seat: int, budget_ms: float) -> Command:
    """What a policy plays for `seat`, from that seat's view alone."""
    state = table.game
    assert state is not None
    policy = make_policy(policy_name, seed, Options(budget_ms))
    return policy.choose(view(state, seat, clues=table.clues), legal_commands(state))


def _send(
    ctx: Context, game_id: str, game: LoadedGame, command: object, key: str, meta: dict[str, object]
) -> str:
    """Send a job's command, decided on the game's version; its key names the turn, so when two
    attempts race, the one that lands first is the move and the other repeats it."""
    try:
        sent = send_command(
            ctx,
            game_id,
            command,
            game=game,
            expected_version=game.version,
            idempotency=Idempotency("job", key),
            meta=meta,
        )
    except StaleVersion:
        return STALE
    return "repeated" if sent.repeated else "ok"


class WebhookFailed(Exception):
    """A receiver answered something else than 2xx (RQ tries again later)."""


def deliver_player_webhook(player_id: str, entries: list[dict[str, object]]) -> str:
    """POST a player's new inbox entries to their webhook, signed like a seat's; an error makes
    RQ retry it with backoff."""
    ctx = current()
    player = ctx.players.get(player_id)
    if player is None or not player.webhook_url or not player.webhook_secret:
        return "no-webhook"
    try:
        destination = resolve(player.webhook_url, allow_private=ctx.settings.webhook_allow_private)
    except Refused as refusal:
        log.warning("player webhook refused", player=player_id, reason=str(refusal))
        return "refused"
    now = int(time.time())
    payload = {
        "type": "inbox.entries",
        "timestamp": datetime.fromtimestamp(now, UTC).isoformat(),
        "data": {"player": player_id, "entries": entries},
    }
    body = json.dumps(payload, separators=(",", ":")).encode()
    first = entries[0] if entries else {}
    message_id = f"msg_{player_id}_{first.get('game')}_{first.get('version')}"
    signed = headers(player.webhook_secret, message_id, now, body)
    status = post(destination, body, signed, timeout=ctx.settings.webhook_timeout)
    if not 200 <= status < 300:
        raise WebhookFailed(f"the webhook of player {player_id} answered {status}")
    return "delivered"


def deliver_pushes(helper: bool = False) -> dict[str, int]:
    """Send the pushes waiting in the outbox to the players' browsers (play/push_send.py),
    until this worker is asked to stop."""
    return push_send.drain(current(), helper=helper, stopping=STOPPING.is_set)


def retry_push(player_id: str, subscription_id: str, push: dict[str, object], attempt: int) -> str:
    """Try a push to one browser again (the push service answered 429 or 5xx)."""
    return push_send.retry(current(), player_id, subscription_id, push, attempt)
