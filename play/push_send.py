"""Sending pushes (RFC 8030) to a player's browsers: whom, when, and what a push service's
answer means. Run by RQ jobs on the webhook queue, never on a command's path.

A push goes to a subscription's endpoint only once that address passed the webhooks' checks
(https, public addresses; the origins of LOVELETTER_PUSH_INSECURE_ORIGINS are the one
exception), encrypted for that browser (RFC 8291, aes128gcm) and signed with the service's
VAPID key (RFC 8292). 2xx: delivered; 404 or 410: the subscription is gone, and forgotten;
429 or 5xx (or no answer): tried again later, after the service's Retry-After if it gave one,
while the push is still worth sending (its TTL).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from pywebpush import WebPusher
from rq import Queue

from events.push import Subscription
from play import logs
from play.context import Context
from play.push import Push, preferences_of, push_of
from play.vapid import signer
from play.webhooks import Destination, Refused, answer, resolve

log = logs.get(__name__)

RETRY_PUSH = "workers.jobs.retry_push"
TIMEOUT_SECONDS = 5.0  # a whole delivery to one push service


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
    found = ctx.push.subscriptions(player_id)
    dead = [sub for sub in found if sub.device and not ctx.devices.holds(player_id, sub.device)]
    if dead:
        ctx.push.forget_devices(player_id, {sub.device for sub in dead if sub.device})
    return [sub for sub in found if sub not in dead]


def deliver(ctx: Context, player_id: str, entries: list[dict[str, Any]]) -> dict[str, int]:
    """Push the player's new inbox entries that their preferences want, to each of their
    browsers, unless they are at that game now; the outcomes counted."""
    counts: dict[str, int] = {}
    subscriptions = live_subscriptions(ctx, player_id)
    if not subscriptions:
        return counts
    preferences = preferences_of(ctx.push.preferences(player_id))
    now = datetime.now(UTC)
    for entry in entries:
        push = push_of(entry, preferences, now)
        if push is None or _here(ctx, player_id, entry):
            continue
        if push.notice == "your_turn" and not ctx.push.first_turn_told(player_id, push.game):
            continue  # pushed already in this away spell
        expires = time.time() + ctx.settings.push_ttl
        for subscription in subscriptions:
            outcome = send(ctx, player_id, subscription, push, expires, 0)
            counts[outcome] = counts.get(outcome, 0) + 1
    return counts


def _here(ctx: Context, player_id: str, entry: dict[str, Any]) -> bool:
    """Whether the player has the entry's game open now (its seat present; a quick-play match:
    the player present anywhere)."""
    seat = entry.get("seat")
    if entry.get("type") == "matched" or seat is None:
        return ctx.presence.here([player_id])[0]
    return ctx.presence.here([f"{entry['game']}/{seat}"])[0]


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
    attempt: int,
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
        found = answer(where, body, headers, timeout=TIMEOUT_SECONDS)
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
