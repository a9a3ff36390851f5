"""The quick-play queue in the store: entries, pools, matches waiting for their table.

Every key shares the hash tag `{queue}`, so each script runs on one slot (Redis Cluster) and
matching is serialised by Redis itself: a match attempt is one script (`queue_match.lua`) that
picks a group of waiting entries, takes them out of their pool and marks them matched at once,
whichever API process or worker runs it. See docs/quickplay.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources import files
from typing import Any

from events.connection import RedisClient, as_text
from events.players import PLAYER_ID


def _script(name: str) -> str:
    return files("events").joinpath(name).read_text(encoding="utf-8")


STATES = ("waiting", "matched", "cancelled", "dropped")


@dataclass(frozen=True)
class Window:
    """How close ranked ratings must be: `base` + `growth` per second the longest waiting
    member of a group has waited, at most `most`."""

    base: float = 3.0
    growth: float = 0.5
    most: float = 50.0

    def at(self, waited_seconds: float) -> float:
        """The window after waiting this long."""
        return min(self.most, self.base + self.growth * max(0.0, waited_seconds))


@dataclass(frozen=True)
class Entry:
    """One player's wish to play: its pool, what it accepts, and what became of it."""

    id: str
    player: str
    edition: str
    ranked: bool
    seats: tuple[int, ...]
    bots_after_ms: int | None  # None: people only
    bot: str
    rating: float
    at_ms: int
    seen_ms: int
    state: str
    game: str | None = None
    seat: int | None = None
    opened: int | None = None  # the game's version once its table is open
    secret: str = ""
    reliable: bool = True  # the player's abandon rate was low enough when it entered
    reliable_only: bool = False  # matched only with reliable players

    @property
    def pool(self) -> str:
        """The pool it waits in: `<edition>:<1 ranked | 0>`."""
        return pool_name(self.edition, self.ranked)


@dataclass(frozen=True)
class Match:
    """A group matched to a new game: its entries, in seat order, and its table's settings."""

    game: str
    edition: str
    seats: int
    ranked: bool
    bot: str
    entries: tuple[str, ...]


def pool_name(edition: str, ranked: bool) -> str:
    """The name of the pool of an edition, ranked or not."""
    return f"{edition}:{1 if ranked else 0}"


class QuickPlayQueue:
    """The quick-play queue of one namespace."""

    def __init__(
        self,
        redis_client: RedisClient,
        *,
        namespace: str = "ll",
        gone_ms: int = 30_000,
        keep_seconds: int = 3600,
        window: Window | None = None,
        scan: int = 256,
        anchors: int = 32,
        open_grace_ms: int = 5000,
    ) -> None:
        self.redis = redis_client
        self.namespace = namespace
        self.gone_ms = gone_ms
        self.keep_seconds = keep_seconds
        self.window = window or Window()
        self.scan = scan
        self.anchors = anchors
        self.open_grace_ms = open_grace_ms
        self.prefix = f"{namespace}:{{queue}}:"
        self._enter = redis_client.register_script(_script("queue_enter.lua"))
        self._match = redis_client.register_script(_script("queue_match.lua"))
        self._cancel = redis_client.register_script(_script("queue_cancel.lua"))
        self._touch = redis_client.register_script(_script("queue_touch.lua"))
        self._seated = redis_client.register_script(_script("queue_seated.lua"))

    def key(self, suffix: str) -> str:
        """`{ns}:{queue}:suffix`: every key of the queue in one slot."""
        return self.prefix + suffix

    def entry_key(self, entry_id: str) -> str:
        """An entry's hash."""
        return self.key(f"entry:{entry_id}")

    def pointer_key(self, player: str) -> str:
        """The key naming the entry a player waits with."""
        if not PLAYER_ID.fullmatch(player):
            raise ValueError(f"not a player id: {player!r}")
        return self.key(f"player:{player}")

    def pool_key(self, pool: str) -> str:
        """A pool's sorted set of waiting entries."""
        return self.key(f"pool:{pool}")

    def enter(self, entry: Entry) -> tuple[bool, str]:
        """Put an entry in its pool: (True, its id), or (False, the id of the entry the player
        already waits with; nothing is written)."""
        fields: dict[str, Any] = {
            "id": entry.id,
            "player": entry.player,
            "edition": entry.edition,
            "ranked": 1 if entry.ranked else 0,
            "seats": ",".join(str(n) for n in sorted(entry.seats)),
            "bots_after": -1 if entry.bots_after_ms is None else entry.bots_after_ms,
            "bot": entry.bot,
            "rating": repr(float(entry.rating)),
            "at": entry.at_ms,
            "seen": entry.seen_ms,
            "state": "waiting",
            "secret": entry.secret,
            "reliable": 1 if entry.reliable else 0,
            "reliable_only": 1 if entry.reliable_only else 0,
        }
        keys = [
            self.entry_key(entry.id),
            self.pool_key(entry.pool),
            self.key("pools"),
            self.pointer_key(entry.player),
        ]
        args: list[Any] = [entry.id, entry.at_ms, entry.pool]
        for name, value in fields.items():
            args += [name, value]
        entered, entry_id = self._enter(keys=keys, args=args)
        return bool(int(entered)), as_text(entry_id)

    def get(self, entry_id: str) -> Entry | None:
        """An entry (None: unknown, or expired an hour after it was finished)."""
        raw: Any = self.redis.hgetall(self.entry_key(entry_id))
        if not raw:
            return None
        data = {as_text(k): as_text(v) for k, v in raw.items()}
        if "player" not in data:
            return None
        bots_after = int(data["bots_after"])
        return Entry(
            data["id"],
            data["player"],
            data["edition"],
            data["ranked"] == "1",
            tuple(int(n) for n in data["seats"].split(",")),
            None if bots_after < 0 else bots_after,
            data["bot"],
            float(data["rating"]),
            int(data["at"]),
            int(data["seen"]),
            data["state"],
            data.get("game"),
            int(data["seat"]) if "seat" in data else None,
            int(data["opened"]) if "opened" in data else None,
            data.get("secret", ""),
            data.get("reliable", "1") == "1",
            data.get("reliable_only", "0") == "1",
        )

    def entries(self, entry_ids: list[str]) -> list[Entry | None]:
        """Several entries (None where one is gone)."""
        return [self.get(entry_id) for entry_id in entry_ids]

    def cancel(self, entry: Entry) -> str:
        """Cancel a waiting entry; its state after (a matched one stays matched)."""
        keys = [self.entry_key(entry.id), self.pool_key(entry.pool), self.pointer_key(entry.player)]
        return as_text(self._cancel(keys=keys, args=[entry.id, self.keep_seconds]))

    def touch(self, entry_id: str, now_ms: int) -> bool:
        """The entry's player is here (a poll): refresh it while it waits."""
        keys = [self.entry_key(entry_id)]
        return bool(self._touch(keys=keys, args=[now_ms, self.key("entry:"), 0]))

    def touch_player(self, player: str, now_ms: int) -> bool:
        """The player is here (its inbox stream is open): refresh the entry it waits with."""
        keys = [self.pointer_key(player)]
        return bool(self._touch(keys=keys, args=[now_ms, self.key("entry:"), 1]))

    def pools(self) -> list[str]:
        """The pools that have held entries."""
        found: Any = self.redis.smembers(self.key("pools"))
        return sorted(as_text(pool) for pool in found)

    def waiting(self, pool: str) -> int:
        """How many entries a pool holds (some may be of players gone)."""
        return int(self.redis.zcard(self.pool_key(pool)))

    def match(
        self, pool: str, game_id: str, now_ms: int, anchor: str | None = None
    ) -> Match | None:
        """One match attempt in a pool (see queue_match.lua): the match made, if any."""
        edition, _, ranked = pool.rpartition(":")
        keys = [self.pool_key(pool), self.key("pending"), self.key(f"match:{game_id}")]
        window = self.window
        args: list[Any] = [
            now_ms,
            self.gone_ms,
            self.scan,
            self.anchors,
            game_id,
            window.base,
            window.growth,
            window.most,
            anchor or "",
            self.key("entry:"),
            self.key("player:"),
            self.keep_seconds,
            self.open_grace_ms,
            ranked,
            edition,
        ]
        found: Any = self._match(keys=keys, args=args)
        if not found:
            return None
        entries = tuple(as_text(entry_id) for entry_id in found[2:])
        plan = self.plan(as_text(found[0]))
        assert plan is not None and plan.entries == entries
        return plan

    def plan(self, game_id: str) -> Match | None:
        """A pending match's plan (None once its table is open)."""
        raw: Any = self.redis.hgetall(self.key(f"match:{game_id}"))
        if not raw:
            return None
        data = {as_text(k): as_text(v) for k, v in raw.items()}
        return Match(
            game_id,
            data["edition"],
            int(data["seats"]),
            data["ranked"] == "1",
            data["bot"],
            tuple(data["entries"].split(",")),
        )

    def overdue(self, now_ms: int, limit: int = 100) -> list[str]:
        """Games of matches whose table should have been opened by now."""
        found: Any = self.redis.zrangebyscore(self.key("pending"), "-inf", now_ms, 0, limit)
        return [as_text(game_id) for game_id in found]

    def seated(self, match: Match, version: int) -> None:
        """The match's table is open at `version`: its entries say so, it is pending no more."""
        keys = [self.key("pending"), self.key(f"match:{match.game}")]
        args: list[Any] = [match.game, version, self.keep_seconds, self.key("entry:")]
        self._seated(keys=keys, args=[*args, *match.entries])
