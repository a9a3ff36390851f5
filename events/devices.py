"""A player's devices: each player token it holds, when it was made and when last used.

The token's own key (`{ns}:player-token:<digest>`, events/players.py) is the truth: a token
acts while that key exists, and revoking the token deletes it, so anything kept under a token's
digest can tell the token is dead. Beside it, each player keeps an index of its devices
(`{ns}:{p:<id>}:devices`: device id -> the token's digest and when it was made, written with
the token) and when each was last used (`{ns}:{p:<id>}:used`, Unix seconds), written at most
every USED_EVERY seconds per device by each process: coarse, and costing a request nothing
in between. A token made before devices were listed joins the index when it is next used (or
at `loveletter rebuild`), with no time of making.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from events.connection import RedisClient, as_text
from events.locks import short_lock
from events.players import PLAYER_TOKEN, PlayerStore, device_id, device_record
from events.push import PushStore

USED_EVERY = 900.0  # seconds: how stale a device's "last used" may be
ALIVE_EVERY = 5.0  # seconds: how long a stream opened with a revoked token may go on
REMEMBERED = 100_000  # devices a process remembers writing (the oldest half is then forgotten)


@dataclass(frozen=True)
class Device:
    """One of a player's devices (a player token): its public id, and when it was made and
    last used (Unix seconds; None when unknown)."""

    id: str
    created_at: float | None
    last_used_at: float | None


class DeviceStore:
    """The devices of one namespace's players."""

    def __init__(self, redis_client: RedisClient, players: PlayerStore) -> None:
        self.redis = redis_client
        self.players = players
        self._written: dict[str, float] = {}  # device id -> when this process wrote its use
        self._lock = short_lock()

    def token_key(self, token_digest: str) -> str:
        """The key that lets the token of this digest act for its player."""
        return f"{self.players.namespace}:{PLAYER_TOKEN}:{token_digest}"

    def used(self, player_id: str, token_digest: str) -> None:
        """The token was used just now: written if this process has not written it lately."""
        device = device_id(token_digest)
        now = time.monotonic()
        with self._lock:
            written = self._written.get(device)
            if written is not None and now - written < USED_EVERY:
                return
            self._written[device] = now
            if len(self._written) > REMEMBERED:
                for old in sorted(self._written, key=self._written.__getitem__)[: REMEMBERED // 2]:
                    del self._written[old]
        devices, used = self.players.key(player_id, "devices"), self.players.key(player_id, "used")
        pipe = self.redis.pipeline(transaction=False)
        record = device_record(token_digest, None)  # a token made before devices were listed
        pipe.hsetnx(devices, device, record)
        pipe.hset(used, device, int(time.time()))
        pipe.pttl(self.players.key(player_id, "player"))
        left_ms = int(pipe.execute()[-1])
        if left_ms > 0:  # a guest not yet seated: forgotten with its record (`Players.keep`)
            self.redis.pexpire(devices, left_ms)
            self.redis.pexpire(used, left_ms)

    def alive(self, token_digest: str) -> Callable[[], bool]:
        """Whether the token of this digest still acts, asked of Redis at most every
        ALIVE_EVERY seconds: what a stream opened with it asks as it waits."""
        key, checked, live = self.token_key(token_digest), [-ALIVE_EVERY], [True]

        def ask() -> bool:
            now = time.monotonic()
            if live[0] and now - checked[0] >= ALIVE_EVERY:
                checked[0], live[0] = now, bool(self.redis.exists(key))
            return live[0]

        return ask

    def devices(self, player_id: str) -> list[Device]:
        """The player's devices whose tokens still act, the most recently made first (those
        whose tokens were revoked meanwhile are dropped from the index)."""
        found = list(self._indexed(player_id))
        if not found:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for _, digest, _ in found:
            pipe.exists(self.token_key(digest))
        alive = pipe.execute()
        used: Any = self.redis.hgetall(self.players.key(player_id, "used"))
        last = {as_text(k): float(v) for k, v in used.items()}
        dead = [device for (device, _, _), live in zip(found, alive, strict=True) if not live]
        if dead:
            self._forget(player_id, dead)
        devices = [
            Device(device, created, last.get(device))
            for (device, _, created), live in zip(found, alive, strict=True)
            if live
        ]
        return sorted(devices, key=lambda d: -(d.created_at or 0.0))

    def revoke(self, player_id: str, device: str) -> bool:
        """Revoke one of the player's devices: its token acts no more. False if the player
        has no such device."""
        raw: Any = self.redis.hget(self.players.key(player_id, "devices"), device)
        if raw is None:
            return False
        self.redis.delete(self.token_key(orjson.loads(raw)["digest"]))
        self._forget(player_id, [device])
        return True

    def revoke_all(self, player_id: str, keep: str | None = None) -> int:
        """Revoke every device of the player but `keep`; how many tokens were revoked."""
        found = [(device, digest) for device, digest, _ in self._indexed(player_id)]
        doomed = [(device, digest) for device, digest in found if device != keep]
        if not doomed:
            return 0
        revoked = sum(
            bool(self.redis.delete(self.token_key(digest))) for _, digest in doomed
        )  # one key at a time: on a cluster each lives in a slot of its own
        self._forget(player_id, [device for device, _ in doomed])
        return revoked

    def index_token(self, token_digest: str) -> bool:
        """List a token in its player's devices if it is not (a token made before devices were
        listed); whether it was added."""
        player: Any = self.redis.get(self.token_key(token_digest))
        if player is None:
            return False
        devices = self.players.key(as_text(player), "devices")
        record = device_record(token_digest, None)
        return bool(self.redis.hsetnx(devices, device_id(token_digest), record))

    def token_digests(self) -> Iterator[str]:
        """The digest of every player token of the namespace (a scan: for rebuilds)."""
        prefix = self.token_key("")
        for key in self.redis.scan_iter(match=prefix + "*", count=1000):
            yield as_text(key)[len(prefix) :]

    def _indexed(self, player_id: str) -> Iterator[tuple[str, str, float | None]]:
        """Each indexed device: its id, its token's digest, when it was made."""
        raw: Any = self.redis.hgetall(self.players.key(player_id, "devices"))
        for device, record in raw.items():
            data = orjson.loads(record)
            yield as_text(device), str(data["digest"]), data.get("created_at")

    def _forget(self, player_id: str, devices: list[str]) -> None:
        """Drop revoked devices from the index, and the push subscriptions they made."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hdel(self.players.key(player_id, "devices"), *devices)
        pipe.hdel(self.players.key(player_id, "used"), *devices)
        pipe.execute()
        PushStore(self.redis, namespace=self.players.namespace).forget_devices(player_id, devices)

    def holding(self, devices: Sequence[tuple[str, str]]) -> list[bool]:
        """Whether each player still holds each device (its token was not revoked), read at
        once."""
        if not devices:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for player_id, device in devices:
            pipe.hexists(self.players.key(player_id, "devices"), device)
        return [bool(found) for found in pipe.execute()]
