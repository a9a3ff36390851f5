"""Players in the store: their records, tokens, transfer codes, games, inboxes and presence.

Every key of a player shares the hash tag `{p:<player id>}`, so one script can write a player's
inbox, games and record together on Redis Cluster. Tokens, transfer codes and inbox tickets are
random; only their SHA-256 is stored, each under a key of its own that names the player.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

import orjson

from events.background import Background
from events.connection import RedisClient, as_text
from events.locks import short_lock
from events.store import iso_time, to_json
from game.table import STATUSES

PLAYER_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
RELAY_SCRIPT = files("events").joinpath("relay.lua").read_text(encoding="utf-8")
TELL_SCRIPT = files("events").joinpath("tell.lua").read_text(encoding="utf-8")
ENTRY_ID = re.compile(r"[0-9]{1,20}-[0-9]{1,20}")
LARGEST_ID_PART = 2**64 - 1  # each part of a Redis stream entry id is an unsigned 64-bit integer
LAST_ENTRY_ID = f"{LARGEST_ID_PART}-{LARGEST_ID_PART}"  # nothing follows it (Redis: no range)
CHAT_TOLD = "chat-told"  # the games whose chat a player away was told of, until it is back
CHAT_TOLD_SECONDS = 7 * 24 * 3600  # forgotten after a week away: told once more then
DEVICE_ID = re.compile(r"[0-9a-f]{16}")
PUSH_TOLD = "push-told"  # the games whose turn was pushed to a player away (events/push.py)
PLAYER_TOKEN = "player-token"  # `{ns}:player-token:<digest>` names the player a token acts for
MY_GAMES = "mine"  # `{ns}:{p:<id>}:mine[:<status>]`: the player's games indexed (events/mygames.py)
MY_TURN = 10**13  # added to a game's score there while it waits on the player (Unix ms < 10**13)


def is_entry_id(text: str) -> bool:
    """Whether `text` is a stream entry id Redis takes: `<ms>-<n>`, each part below 2**64 (the
    pattern alone lets 20 digits through, up to 10**20 - 1)."""
    if not ENTRY_ID.fullmatch(text):
        return False
    ms, _, n = text.partition("-")
    return int(ms) <= LARGEST_ID_PART and int(n) <= LARGEST_ID_PART


def digest(secret: str) -> str:
    """What is stored of a token, a transfer code or a ticket."""
    return hashlib.sha256(secret.encode()).hexdigest()


def player_key(namespace: str, player_id: str, suffix: str) -> str:
    """`{ns}:{p:<id>}:suffix`: one player, one cluster slot."""
    if not PLAYER_ID.fullmatch(player_id):
        raise ValueError(f"a player id is 1-64 URL-safe characters: {player_id!r}")
    return f"{namespace}:{{p:{player_id}}}:{suffix}"


def device_id(token_digest: str) -> str:
    """The public id of the device holding a player token: derived from the token's digest,
    which it does not reveal (so a device keeps its id without one being stored)."""
    return hashlib.sha256(f"device\0{token_digest}".encode()).hexdigest()[:16]


def device_record(token_digest: str, created_at: float | None) -> str:
    """What a player's devices index keeps of one device (see events/devices.py)."""
    return orjson.dumps({"digest": token_digest, "created_at": created_at}).decode()


def inbox_channel(namespace: str) -> str:
    """The pub/sub channel on which every inbox entry of the namespace is published."""
    return f"{namespace}:inbox"


@dataclass(frozen=True)
class Player:
    """A player: a guest (`kind` "guest") or one named by a trusted issuer ("external")."""

    id: str
    name: str
    kind: str
    created_at: float
    games_abandoned: int = 0
    webhook_url: str | None = None
    webhook_secret: str | None = None


@dataclass(frozen=True)
class InboxEntry:
    """One entry of a player's inbox: its stream id (`<ms>-<n>`) and what it says."""

    id: str
    data: dict[str, Any]

    @property
    def at(self) -> str:
        """When it was written (from its id), ISO 8601 UTC."""
        return iso_time(int(self.id.split("-")[0]))

    def shown(self) -> dict[str, Any]:
        """The entry as clients get it: its id and time, then what it says."""
        return {"id": self.id, "at": self.at, **self.data}


def my_games_suffixes() -> list[str]:
    """The suffixes of a player's "my games" index: every game, then one set per status."""
    return [MY_GAMES, *(f"{MY_GAMES}:{status}" for status in STATUSES)]


@dataclass(frozen=True)
class Listed:
    """Where an append puts a game in a player's "my games": its status and whether it waits on
    the player; an empty status takes it out (the player left the table)."""

    status: str
    my_turn: bool = False

    def score(self, at_ms: int) -> int:
        """The game's score after an append made at `at_ms`: waiting on the player first, then
        the most recently moved."""
        return at_ms + (MY_TURN if self.my_turn else 0)

    def args(self, at_ms: int) -> list[str | int]:
        """relay.lua's two arguments for it: the status ('-': taken out) and the score."""
        return [self.status or "-", self.score(at_ms)]


@dataclass(frozen=True)
class Notice:
    """What one player must be told of one append: entries, whether the game becomes theirs,
    whether they lost a seat to a bot, and where the game now stands in their games."""

    entries: tuple[dict[str, Any], ...] = ()
    bind: bool = False
    abandoned: int = 0
    listed: Listed | None = None


class PlayerStore:
    """The players of one namespace."""

    def __init__(
        self, redis_client: RedisClient, *, namespace: str = "ll", inbox_length: int = 200
    ) -> None:
        self.redis = redis_client
        self.namespace = namespace
        self.inbox_length = inbox_length
        self._relay = redis_client.register_script(RELAY_SCRIPT)
        self._tell = redis_client.register_script(TELL_SCRIPT)

    def key(self, player_id: str, suffix: str) -> str:
        """`{ns}:{p:<id>}:suffix`: one player, one cluster slot."""
        return player_key(self.namespace, player_id, suffix)

    @property
    def chat_entries(self) -> int:
        """The most chat entries an inbox holds besides its notices (a tenth of its length)."""
        return max(1, self.inbox_length // 10)

    def _secret_key(self, kind: str, secret: str) -> str:
        return f"{self.namespace}:{kind}:{digest(secret)}"

    # Records and tokens.

    def create(
        self, player: Player, token: str | None = None, *, unseated_seconds: int | None = None
    ) -> bool:
        """Write a new player's record (False when the id exists: nothing is written) and,
        given one, a token that acts for it. With `unseated_seconds`, the player and its tokens
        are forgotten that long after, unless it takes a seat first (`keep`)."""
        fields: dict[Any, Any] = {"id": player.id, "name": player.name, "kind": player.kind,
                  "created_at": repr(player.created_at), "games_abandoned": 0}  # fmt: skip
        key = self.key(player.id, "player")
        if not self.redis.hsetnx(key, "id", player.id):
            return False
        self.redis.hset(key, mapping=fields)
        if unseated_seconds is not None:
            self.redis.expire(key, unseated_seconds)
        if token is not None:
            self.add_token(player.id, token)
        return True

    def add_token(self, player_id: str, token: str) -> None:
        """Let `token` act for the player (a player may hold several: one per device), and
        list it among the player's devices; it lives as long as the player's record (for ever
        once the player took a seat)."""
        token_key = self._secret_key(PLAYER_TOKEN, token)
        devices, token_digest = self.key(player_id, "devices"), digest(token)
        self.redis.hset(devices, device_id(token_digest), device_record(token_digest, time.time()))
        left_ms = int(self.redis.pttl(self.key(player_id, "player")))
        self.redis.set(token_key, player_id, px=left_ms if left_ms > 0 else None)
        if left_ms > 0:
            self.redis.pexpire(devices, left_ms)
            if int(self.redis.pttl(self.key(player_id, "player"))) < 0:  # kept meanwhile
                self.keep(player_id)

    def keep(self, player_id: str) -> None:
        """The player took a seat: its record, its devices and their tokens are kept for good (a
        guest never seated is forgotten, see `create`)."""
        self.redis.persist(self.key(player_id, "player"))
        devices = self.key(player_id, "devices")
        found: Any = self.redis.hvals(devices)
        for record in found:
            token_digest = orjson.loads(record)["digest"]
            self.redis.persist(f"{self.namespace}:{PLAYER_TOKEN}:{token_digest}")
        self.redis.persist(devices)
        self.redis.persist(self.key(player_id, "used"))

    def by_token(self, token: str) -> str | None:
        """The player a token acts for, if any."""
        found = self.redis.get(self._secret_key(PLAYER_TOKEN, token))
        return None if found is None else as_text(found)

    def get(self, player_id: str) -> Player | None:
        """A player's record."""
        raw: Any = self.redis.hgetall(self.key(player_id, "player"))
        if not raw or (b"name" not in raw and "name" not in raw):
            return None
        data = {as_text(k): as_text(v) for k, v in raw.items()}
        return Player(
            data["id"],
            data["name"],
            data["kind"],
            float(data["created_at"]),
            int(data.get("games_abandoned", 0)),
            data.get("webhook_url"),
            data.get("webhook_secret"),
        )

    def set_kind(self, player_id: str, kind: str) -> None:
        """Say what the player now is: a guest linked to the issuer's identity is `external`."""
        self.redis.hset(self.key(player_id, "player"), "kind", kind)

    def forget(self, player_id: str) -> None:
        """Delete a player that never played (its tokens are revoked first, by their keys)."""
        suffixes = (
            "player",
            "inbox",
            "relayed",
            "games",
            "devices",
            "used",
            "push",
            "push-prefs",
            PUSH_TOLD,
            *my_games_suffixes(),
        )
        self.redis.delete(*(self.key(player_id, suffix) for suffix in suffixes))

    def set_webhook(self, player_id: str, url: str | None, secret: str | None) -> None:
        """The player's webhook (None: removed)."""
        key = self.key(player_id, "player")
        if url is None:
            self.redis.hdel(key, "webhook_url", "webhook_secret")
        else:
            self.redis.hset(key, mapping={"webhook_url": url, "webhook_secret": secret or ""})

    # One-time secrets: transfer codes and inbox tickets.

    def issue(self, kind: str, secret: str, player_id: str, seconds: int) -> None:
        """Remember a short-lived secret standing for the player."""
        self.redis.set(self._secret_key(kind, secret), player_id, ex=seconds)

    def redeem(self, kind: str, secret: str) -> str | None:
        """The player a one-time secret stood for; it is gone from then on (GETDEL)."""
        found = self.redis.getdel(self._secret_key(kind, secret))
        return None if found is None else as_text(found)

    def peek(self, kind: str, secret: str) -> str | None:
        """The player a secret stands for, while it lasts (tickets: good until they expire)."""
        found = self.redis.get(self._secret_key(kind, secret))
        return None if found is None else as_text(found)

    # Games and the inbox.

    def games(self, player_id: str, limit: int = 1000) -> list[str]:
        """The games bound to the player, the latest first (at most `limit`)."""
        found: Any = self.redis.zrevrange(self.key(player_id, "games"), 0, limit - 1)
        return [as_text(game_id) for game_id in found]

    def relay(
        self, player_id: str, game_id: str, version: int, notice: Notice, *, at_ms: int
    ) -> tuple[int, bool, bool]:
        """Tell the player of a game's append once (see relay.lua): the entries written (-1:
        relayed before), whether the player has a webhook and whether it has push
        subscriptions."""
        suffixes = ("inbox", "relayed", "player", "games", "push", *my_games_suffixes())
        keys = [self.key(player_id, suffix) for suffix in suffixes]
        listing = ["", 0] if notice.listed is None else notice.listed.args(at_ms)
        args: list[str | int] = [
            game_id,
            version,
            self.inbox_length + self.chat_entries,
            at_ms,
            inbox_channel(self.namespace),
            player_id,
            1 if notice.bind else 0,
            notice.abandoned,
            *listing,
            *(to_json(entry) for entry in notice.entries),
        ]
        written, hook, push = self._relay(keys=keys, args=args)
        if notice.bind:  # seated: kept for good (also when this relay is repeated)
            self.keep(player_id)
        return int(written), bool(int(hook)), bool(int(push))

    def tell(self, player_id: str, game_id: str, entries: Sequence[dict[str, Any]]) -> int:
        """Add entries no append made (a game's chat) to the player's inbox, and publish them:
        once per game until the player is here again (see tell.lua); how many were added."""
        keys = [self.key(player_id, suffix) for suffix in ("inbox", CHAT_TOLD, "inbox-chat")]
        args: list[str | int] = [inbox_channel(self.namespace), player_id, game_id,
                                 self.chat_entries, CHAT_TOLD_SECONDS]  # fmt: skip
        args += [to_json(entry) for entry in entries]
        return int(self._tell(keys=keys, args=args))

    def inbox_head(self, player_id: str) -> str | None:
        """The id of the player's newest inbox entry (None: empty)."""
        found: Any = self.redis.xrevrange(self.key(player_id, "inbox"), "+", "-", 1)
        return as_text(found[0][0]) if found else None

    def inbox(self, player_id: str, after: str = "0-0", count: int = 100) -> list[InboxEntry]:
        """Inbox entries after the entry id `after`, oldest first."""
        if after == LAST_ENTRY_ID:
            return []
        entries: Any = self.redis.xrange(self.key(player_id, "inbox"), f"({after}", "+", count)
        return [
            InboxEntry(as_text(entry_id), orjson.loads(fields.get(b"d", fields.get("d"))))
            for entry_id, fields in entries
        ]


class Presence:
    """Who has had a request or a stream open lately: a key that lives `ttl` seconds per player
    (or seat). A process writes one at once the first time it sees that player; after that it
    renews it at most once per `every` seconds, in the background, all renewals due in one
    pipeline, so a waiting client asking again costs its request no Redis call."""

    def __init__(
        self, redis_client: RedisClient, *, namespace: str, every: float = 15.0, ttl: int = 75
    ) -> None:
        self.redis = redis_client
        self.namespace = namespace
        self.every = every
        self.ttl = ttl
        self._written: dict[str, float] = {}
        self._due: set[str] = set()  # renewals the background writer sends next
        self._writer = Background("presence", self._renew)
        self._lock = short_lock()

    def key(self, who: str) -> str:
        """The presence key of a player id or of `<game>/<seat>` (a seat without a player)."""
        return f"{self.namespace}:here:{who}"

    def touch(self, who: str) -> bool:
        """`who` is here now: written at once if this process has not written it lately,
        renewed in the background if it wrote it more than `every` s ago. True when `who` was
        away until now (its key was gone: an away spell ended)."""
        now = time.monotonic()
        with self._lock:
            written = self._written.get(who)
            if written is not None and now - written < self.every:
                return False
            self._written[who] = now
            if len(self._written) > 100_000:  # forget the oldest half
                for name in sorted(self._written, key=self._written.__getitem__)[:50_000]:
                    del self._written[name]
            renewed = written is not None and now - written < self.ttl - 2 * self.every
            if renewed:  # its key lives long enough for the writer to renew it
                self._due.add(who)
        if renewed:
            self._writer.ensure()
            return False
        try:
            was_here = self.redis.set(self.key(who), 1, ex=self.ttl, get=True)
            if was_here is None and PLAYER_ID.fullmatch(who):  # back: a new away spell follows
                told = (player_key(self.namespace, who, name) for name in (CHAT_TOLD, PUSH_TOLD))
                self.redis.delete(*told)
            return was_here is None
        except Exception:  # presence is a hint: a failed write must not fail the request
            with self._lock:
                self._written.pop(who, None)
            return False

    def _renew(self) -> None:
        """Write the renewals due, every `every` / 2 seconds, for as long as the process lives."""
        while True:
            time.sleep(self.every / 2)
            self.flush()

    def flush(self) -> None:
        """Write every renewal due now, in one pipeline."""
        with self._lock:
            due, self._due = self._due, set()
        if not due:
            return
        try:
            pipe = self.redis.pipeline(transaction=False)
            for who in due:
                pipe.set(self.key(who), 1, ex=self.ttl)
            pipe.execute()
        except Exception:  # a lost Redis: written at once again next time
            with self._lock:
                for who in due:
                    self._written.pop(who, None)

    def here(self, whos: Sequence[str]) -> list[bool]:
        """Whether each is here (had a request or a stream open within the last minute)."""
        if not whos:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for who in whos:
            pipe.exists(self.key(who))
        return [bool(found) for found in pipe.execute()]
