"""Players' Web Push subscriptions and notification preferences, in the player's slot.

`{ns}:{p:<id>}:push` maps each subscription's id to what the push service needs (its endpoint
and keys) and the device (player token) that made it; revoking that device removes it
(events/devices.py). `{ns}:{p:<id>}:push-prefs` holds the player's preferences (JSON), and
`{ns}:{p:<id>}:push-told` the games whose turn was pushed while the player was away; presence
deletes it when the player is back (events/players.py), so one away spell gets one turn push per
game.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from events.connection import RedisClient, as_text
from events.players import PUSH_TOLD, player_key

SUBSCRIPTIONS = "push"
PREFERENCES = "push-prefs"
TOLD = PUSH_TOLD
TOLD_SECONDS = 7 * 24 * 3600  # forgotten after a week away: a turn is pushed once more then
MOST_SUBSCRIPTIONS = 10  # per player: a browser or two on each of a few devices


@dataclass(frozen=True)
class Subscription:
    """A browser's push subscription (RFC 8030 endpoint, RFC 8291 keys), and the device that
    made it (None: made with the issuer's JWT, no device of ours)."""

    id: str
    endpoint: str
    p256dh: str
    auth: str
    expiration_time: int | None
    device: str | None
    created_at: float

    def info(self) -> dict[str, Any]:
        """The subscription as pywebpush takes it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


def subscription_id(endpoint: str) -> str:
    """A subscription's public id: its endpoint's digest (the same browser subscribing again
    keeps its id)."""
    return hashlib.sha256(f"push\0{endpoint}".encode()).hexdigest()[:16]


class TooManySubscriptions(Exception):
    """The player holds MOST_SUBSCRIPTIONS already."""


class PushStore:
    """The push subscriptions and notification preferences of one namespace's players."""

    def __init__(self, redis_client: RedisClient, *, namespace: str) -> None:
        self.redis = redis_client
        self.namespace = namespace

    def key(self, player_id: str, suffix: str) -> str:
        """`{ns}:{p:<id>}:suffix`."""
        return player_key(self.namespace, player_id, suffix)

    def subscribe(
        self,
        player_id: str,
        endpoint: str,
        keys: tuple[str, str],
        expiration_time: int | None,
        device: str | None,
    ) -> Subscription:
        """Keep a subscription (the same endpoint again replaces it); TooManySubscriptions when
        the player holds MOST_SUBSCRIPTIONS others."""
        found = Subscription(subscription_id(endpoint), endpoint, keys[0], keys[1],
                             expiration_time, device, time.time())  # fmt: skip
        key = self.key(player_id, SUBSCRIPTIONS)
        if not self.redis.hexists(key, found.id) and self.redis.hlen(key) >= MOST_SUBSCRIPTIONS:
            raise TooManySubscriptions
        record = {"endpoint": endpoint, "p256dh": keys[0], "auth": keys[1],
                  "expiration_time": expiration_time, "device": device,
                  "created_at": found.created_at}  # fmt: skip
        self.redis.hset(key, found.id, orjson.dumps(record))
        return found

    def subscriptions(self, player_id: str) -> list[Subscription]:
        """The player's subscriptions, the oldest first."""
        raw: Any = self.redis.hgetall(self.key(player_id, SUBSCRIPTIONS))
        found = [_subscription(as_text(sid), orjson.loads(data)) for sid, data in raw.items()]
        return sorted(found, key=lambda sub: sub.created_at)

    def of_players(
        self, player_ids: Sequence[str]
    ) -> dict[str, tuple[list[Subscription], dict[str, Any] | None]]:
        """Each player's subscriptions (the oldest first) and stored preferences, read at once."""
        pipe = self.redis.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.hgetall(self.key(player_id, SUBSCRIPTIONS))
            pipe.get(self.key(player_id, PREFERENCES))
        replies: list[Any] = pipe.execute()
        found = {}
        for index, player_id in enumerate(player_ids):
            raw, preferences = replies[2 * index], replies[2 * index + 1]
            subscriptions = [_subscription(as_text(sid), orjson.loads(data))
                             for sid, data in raw.items()]  # fmt: skip
            subscriptions.sort(key=lambda sub: sub.created_at)
            found[player_id] = (
                subscriptions,
                None if preferences is None else dict(orjson.loads(preferences)),
            )
        return found

    def any(self, player_id: str) -> bool:
        """Whether the player has any subscription."""
        return bool(self.redis.exists(self.key(player_id, SUBSCRIPTIONS)))

    def unsubscribe(self, player_id: str, subscription: str) -> bool:
        """Forget one subscription; whether there was one."""
        return bool(self.redis.hdel(self.key(player_id, SUBSCRIPTIONS), subscription))

    def forget_devices(self, player_id: str, devices: Iterable[str]) -> int:
        """Forget the subscriptions made by these devices (they were revoked); how many."""
        doomed = set(devices)
        dead = [sub.id for sub in self.subscriptions(player_id) if sub.device in doomed]
        if not dead:
            return 0
        return int(self.redis.hdel(self.key(player_id, SUBSCRIPTIONS), *dead))

    def preferences(self, player_id: str) -> dict[str, Any] | None:
        """The player's stored preferences (None: never set)."""
        found = self.redis.get(self.key(player_id, PREFERENCES))
        return None if found is None else dict(orjson.loads(found))

    def set_preferences(self, player_id: str, preferences: dict[str, Any]) -> None:
        """Store the player's preferences."""
        self.redis.set(self.key(player_id, PREFERENCES), orjson.dumps(preferences))

    def first_turns_told(self, turns: Sequence[tuple[str, str]]) -> list[bool]:
        """Note for each (player, game), in order, that the player's turn there was pushed in
        this away spell; False where it was already (nothing pushed again until the player is
        back)."""
        if not turns:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for player_id, game_id in turns:
            key = self.key(player_id, TOLD)
            pipe.hsetnx(key, game_id, 1)
            pipe.expire(key, TOLD_SECONDS)
        return [bool(first) for first in pipe.execute()[::2]]

    def seen(self, player_id: str, game_id: str) -> None:
        """The player is back at this game: its next turn is pushed again once it is away."""
        self.redis.hdel(self.key(player_id, TOLD), game_id)

    def forget(self, player_id: str) -> None:
        """Delete everything of the player's here (the player is forgotten)."""
        self.redis.delete(*(self.key(player_id, s) for s in (SUBSCRIPTIONS, PREFERENCES, TOLD)))


def _subscription(sid: str, data: dict[str, Any]) -> Subscription:
    return Subscription(sid, data["endpoint"], data["p256dh"], data["auth"],
                        data.get("expiration_time"), data.get("device"),
                        float(data.get("created_at") or 0.0))  # fmt: skip
