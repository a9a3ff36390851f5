"""Sending pushes (RFC 8030) to a player's browsers: whom, when, and what a push service's
answer means. Run by RQ jobs on the webhook queue, never on a command's path: a drain job sends
every push waiting in the outbox (events/push_outbox.py), so RQ's cost is paid once for many.

A push goes to a subscription's endpoint only once that address passed the webhooks' checks
(https, public addresses; the origins of LOVELETTER_PUSH_INSECURE_ORIGINS are the one
exception), encrypted for that browser (RFC 8291, aes128gcm) and signed with the service's
VAPID key (RFC 8292). 2xx: delivered; 404 or 410: the subscription is gone, and forgotten;
429 or 5xx (or no answer): tried again later, after the service's Retry-After if it gave one,
while the push is still worth sending (its TTL).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from pywebpush import WebPusher
from rq import Queue

from events.push import Subscription
from events.push_outbox import Pending
from play import logs
from play.context import Context
from play.push import Push, preferences_of, push_of
from play.vapid import signer
from play.webhooks import Destination, KeptConnections, Refused, answer, resolve

log = logs.get(__name__)

RETRY_PUSH = "workers.jobs.retry_push"
DELIVER_PUSHES = "workers.jobs.deliver_pushes"
TIMEOUT_SECONDS = 5.0  # a whole delivery to one push service
DRAIN_BATCH = 50  # pushes taken from the outbox at once
DRAIN_SECONDS = 20.0  # a drain job hands over to the next after this (well within RQ's timeout)
LINGER_SECONDS = 1.0  # how long a drain job waits for another push before it stops
# Once a push comes to an idle drain job, how long it lets others come before it sends: a
# batch's reads cost about as much for one push as for fifty (p99 latency stays far under 1 s).
GATHER_SECONDS = 0.25


def endpoint_problem(ctx: Context, endpoint: str) -> str | None:
    """Why a subscription's endpoint is refused (None: it may be pushed to)."""
    try:
        destination(ctx, endpoint)
    except Refused as refusal:
        return str(refusal)
    return None


def destination(ctx: Context, endpoint: str) -> Destination:
    """The endpoint's checked destination; Refused unless it is https and public, or one of
    the insecure origins the settings name."""
    try:
        parts = urlsplit(endpoint)
        origin = f"{parts.scheme}://{parts.netloc}".lower()
    except ValueError:
        raise Refused("A push endpoint must be an https URL.") from None
    if origin in (o.lower().rstrip("/") for o in ctx.settings.push_insecure_origins):
        return resolve(endpoint, allow_private=True)
    if parts.scheme != "https":
        raise Refused("A push endpoint must be an https URL of a push service.")
    return resolve(endpoint, allow_private=ctx.settings.webhook_allow_private)


def live_subscriptions(ctx: Context, player_id: str) -> list[Subscription]:
    """The player's subscriptions whose devices still hold their tokens (others are dropped)."""
    return _reads(ctx, [player_id], []).subscriptions[player_id]


@dataclass(frozen=True)
class Reads:
    """What sending a batch of pushes needs to know, read for all of them at once: each
    player's live subscriptions and preferences, and who is here (by presence key)."""

    subscriptions: dict[str, list[Subscription]]
    preferences: dict[str, dict[str, Any]]
    here: dict[str, bool]


def _reads(ctx: Context, player_ids: list[str], whos: list[str]) -> Reads:
    """The players' subscriptions (those of revoked devices dropped) and preferences, and
    whether each of `whos` is here: three round trips to Redis however many pushes (and one
    per player whose device was revoked, to forget its subscriptions)."""
    stored = ctx.push.of_players(player_ids)
    devices = [(player, sub.device) for player in player_ids for sub in stored[player][0]
               if sub.device]  # fmt: skip
    held = ctx.devices.holding(devices)
    revoked = {pair for pair, holds in zip(devices, held, strict=True) if not holds}
    subscriptions = {}
    for player in player_ids:
        dead = {device for owner, device in revoked if owner == player}
        if dead:
            ctx.push.forget_devices(player, dead)
        subscriptions[player] = [sub for sub in stored[player][0] if sub.device not in dead]
    preferences = {player: preferences_of(stored[player][1]) for player in player_ids}
    here = dict(zip(whos, ctx.presence.here(whos), strict=True))
    return Reads(subscriptions, preferences, here)


def enqueue_drain(ctx: Context, *, helper: bool = False) -> None:
    """Enqueue a job that sends the pushes waiting (a helper: beside another, not lingering).
    Its id names the namespace, as every job's does, so tests find what they leave."""
    job_id = f"push-drain-{ctx.settings.namespace}-{uuid.uuid4().hex}"
    ctx.webhook_queue.enqueue(DELIVER_PUSHES, helper=helper, job_id=job_id)


def drain(
    ctx: Context, *, helper: bool = False, stopping: Callable[[], bool] = lambda: False
) -> dict[str, int]:
    """Send the pushes waiting, and those that come within LINGER_SECONDS of the last, for up
    to DRAIN_SECONDS or until `stopping` (then the next job goes on); the outcomes counted. A
    batch taken whole says pushes are piling up: a helper job (which does not linger) sends
    them beside this one."""
    ends = time.monotonic() + DRAIN_SECONDS

    def on() -> bool:
        return time.monotonic() < ends and not stopping()

    linger = 0.0 if helper else LINGER_SECONDS
    counts: dict[str, int] = {}
    kept = KeptConnections()
    try:
        while True:
            while on() and (batch := ctx.push_outbox.take(DRAIN_BATCH, linger, GATHER_SECONDS)):
                if len(batch) == DRAIN_BATCH:
                    enqueue_drain(ctx, helper=True)
                outcomes = deliver_batch(ctx, batch, kept)
                ctx.push_outbox.done(outcomes)
                for outcome in outcomes.values():
                    for name, count in outcome.items():
                        counts[name] = counts.get(name, 0) + count
            if helper:
                break
            if not ctx.push_outbox.release():
                break  # none waits: the next push enqueues the next drain job
            if not on():
                enqueue_drain(ctx)  # it holds the flag this one kept
                break
    finally:
        kept.close()
    return counts


def deliver_batch(
    ctx: Context, batch: list[Pending], kept: KeptConnections | None = None
) -> dict[str, dict[str, int]]:
    """Push each player's new inbox entries that their preferences want, to each of their
    browsers, unless they are at that game now; the outcomes counted, by push key."""
    players = list(dict.fromkeys(pending.player for pending in batch))
    whos = [_who(pending.player, entry) for pending in batch for entry in pending.entries]
    reads = _reads(ctx, players, list(dict.fromkeys(whos)))
    now = datetime.now(UTC)
    due = [
        (pending, push)
        for pending in batch
        if reads.subscriptions[pending.player]
        for entry in pending.entries
        if (push := push_of(entry, reads.preferences[pending.player], now)) is not None
        and not reads.here[_who(pending.player, entry)]
    ]
    turns = [(pending.player, push.game) for pending, push in due if push.notice == "your_turn"]
    first = iter(ctx.push.first_turns_told(turns))
    outcomes: dict[str, dict[str, int]] = {pending.key: {} for pending in batch}
    for pending, push in due:
        if push.notice == "your_turn" and not next(first):
            continue  # pushed already in this away spell
        counts = outcomes[pending.key]
        expires = time.time() + ctx.settings.push_ttl
        for subscription in reads.subscriptions[pending.player]:
            try:
                outcome = send(ctx, pending.player, subscription, push, expires, 0, kept)
            except Exception as error:  # one browser's trouble must not hold up the others
                log.warning("push failed", player=pending.player, error=str(error))
                outcome = "failed"
            counts[outcome] = counts.get(outcome, 0) + 1
    return outcomes


def _who(player_id: str, entry: dict[str, Any]) -> str:
    """Whose presence says the player has the entry's game open now: its seat's (a quick-play
    match: the player's, present anywhere)."""
    seat = entry.get("seat")
    if entry.get("type") == "matched" or seat is None:
        return player_id
    return f"{entry['game']}/{seat}"


@dataclass(frozen=True)
class Sending:
    """A push to one subscription, as a retry job carries it."""

    push: Push
    expires: float

    def job_args(self) -> dict[str, Any]:
        """What the retry job is given."""
        push = self.push
        return {"notice": push.notice, "game": push.game, "payload": push.payload,
                "topic": push.topic, "urgency": push.urgency, "expires": self.expires}  # fmt: skip

    @classmethod
    def from_job(cls, args: dict[str, Any]) -> Sending:
        """A Sending back from a retry job's arguments."""
        push = Push(args["notice"], args["game"], dict(args["payload"]), args["topic"],
                    args["urgency"])  # fmt: skip
        return cls(push, float(args["expires"]))


def send(
    ctx: Context, player_id: str, subscription: Subscription, push: Push, expires: float,
    attempt: int, kept: KeptConnections | None = None,
) -> str:  # fmt: skip
    """One attempt to push to one browser: `sent`, `gone` (forgotten), `retrying`, `expired`
    or `refused`."""
    ttl = int(expires - time.time())
    if ttl <= 0:
        return "expired"
    try:
        where = destination(ctx, subscription.endpoint)
    except Refused as refusal:
        log.warning("push endpoint refused", player=player_id, reason=str(refusal))
        return "refused"
    body = WebPusher(subscription.info()).encode(push.body(), "aes128gcm")["body"]
    headers = {
        "content-type": "application/octet-stream",
        "content-encoding": "aes128gcm",
        "ttl": str(ttl),
        "urgency": push.urgency,
        "topic": push.topic,
        "authorization": signer(ctx).authorization(subscription.endpoint),
    }
    wait: float | None
    try:
        found = answer(where, body, headers, timeout=TIMEOUT_SECONDS, kept=kept)
        status, wait = found.status, found.retry_after
    except OSError as error:
        log.warning("push service unreachable", player=player_id, error=str(error))
        status, wait = 0, None
    if 200 <= status < 300:
        return "sent"
    if status in (404, 410):
        ctx.push.unsubscribe(player_id, subscription.id)
        return "gone"
    if status != 0 and status != 429 and status < 500:
        log.warning("push refused", player=player_id, status=status)
        return "refused"
    retries = ctx.settings.push_retries
    if attempt >= len(retries):
        return "expired"
    delay = max(wait if wait is not None else 0.0, float(retries[attempt]))
    if time.time() + delay >= expires:
        return "expired"
    queue = Queue(ctx.settings.webhook_queue, connection=ctx.queue.connection)
    args = Sending(push, expires).job_args()
    job_id = (
        f"push-retry-{ctx.settings.namespace}-{player_id}-{subscription.id}-{push.topic}-{attempt}"
    )
    queue.enqueue_in(timedelta(seconds=delay), RETRY_PUSH, player_id, subscription.id, args,
                     attempt + 1, job_id=job_id)  # fmt: skip
    return "retrying"


def retry(ctx: Context, player_id: str, subscription_id: str, args: dict[str, Any],
          attempt: int) -> str:  # fmt: skip
    """A retry job's attempt, if the subscription is still there."""
    found = [sub for sub in live_subscriptions(ctx, player_id) if sub.id == subscription_id]
    if not found:
        return "gone"
    sending = Sending.from_job(args)
    return send(ctx, player_id, found[0], sending.push, sending.expires, attempt)
