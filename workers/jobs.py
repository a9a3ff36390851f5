"""RQ jobs. Each carries the game version it was scheduled for and does nothing once the game
has moved on, so duplicated, retried or late jobs never move twice."""

from __future__ import annotations

import json
import logging
import time
from datetime import UTC, datetime
from typing import Any

from events.games import LoadedGame
from game.bots import Options, make_policy
from game.commands import Command
from game.legal import legal_commands
from game.state import GameState
from game.table import TimeOut
from game.views import view
from workers.context import current
from workers.path import submit
from workers.webhooks import Refused, headers, post, resolve

log = logging.getLogger(__name__)

STALE = "stale"


def _waiting_on(game: LoadedGame, version: int, seat: int) -> bool:
    """Whether the game is still at `version` with `seat` to act."""
    table = game.table
    return (
        game.version == version
        and table is not None
        and table.game is not None
        and table.game.current == seat
    )


def _choose(policy_name: str, seed: str, state: GameState, seat: int, budget_ms: float) -> Command:
    """What a policy plays for `seat`, from that seat's view alone."""
    policy = make_policy(policy_name, seed, Options(budget_ms))
    return policy.choose(view(state, seat), legal_commands(state))


def bot_turn(game_id: str, version: int, seat: int) -> str:
    """Let a bot seat act: its policy sees only its seat's view and the legal commands."""
    ctx = current()
    game = ctx.games.load(game_id)
    if not _waiting_on(game, version, seat):
        return STALE
    assert game.table is not None and game.table.game is not None
    name = game.table.seats[seat].bot or "heuristic"
    command = _choose(name, f"{game_id}/{seat}", game.table.game, seat, ctx.settings.bot_budget_ms)
    meta = {"by": "bot", "seat": seat, "policy": name}
    return _submit(game_id, version, command, f"bot-{version}", meta, game)


def turn_deadline(game_id: str, version: int, seat: int) -> str:
    """A human's time ran out: the heuristic moves for it, or it forfeits, as the table says."""
    ctx = current()
    game = ctx.games.load(game_id)
    if not _waiting_on(game, version, seat):
        return STALE
    assert game.table is not None and game.table.game is not None
    move = None
    if game.table.on_timeout == "bot":
        budget = ctx.settings.bot_budget_ms
        move = _choose("heuristic", f"{game_id}/{seat}/timeout", game.table.game, seat, budget)
    command = TimeOut(seat, move)  # type: ignore[arg-type]  # a move is never a host command
    return _submit(game_id, version, command, f"timeout-{version}", {"by": "timeout"}, game)


def _submit(
    game_id: str, version: int, command: Any, key: str, meta: dict[str, Any], game: LoadedGame
) -> str:
    """Send a job's command through the command path, decided on `version`."""
    outcome = submit(
        current(), game_id, command, expected_version=version, idempotency_key=key, meta=meta,
        loaded=game,
    )  # fmt: skip
    return outcome.status


def deliver_webhook(game_id: str, version: int, seat: int) -> str:
    """Tell a seat it must act: a thin, signed POST; an error makes RQ retry it with backoff."""
    ctx = current()
    game = ctx.games.load(game_id)
    if not _waiting_on(game, version, seat):
        return STALE
    assert game.table is not None and game.table.game is not None
    seated = game.table.seats[seat]
    if seated.webhook is None or seated.webhook_secret is None:
        return "no-webhook"
    try:  # resolved once: the delivery goes to an address checked here
        destination = resolve(seated.webhook, allow_private=ctx.settings.webhook_allow_private)
    except Refused as refusal:
        log.warning("webhook of %s seat %s refused: %s", game_id, seat, refusal)
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


class WebhookFailed(Exception):
    """A receiver answered something else than 2xx (RQ tries again later)."""
