"""Each player's games, indexed for "my games": sorted sets in the player's slot, one of every
game that names the player and one per status, so a page is one ZRANGE whatever the player's
count of games.

A game's score is the time of its last append (Unix ms), plus MY_TURN when it waits on the
player: a descending range lists the games waiting on the player first, then the most recently
moved. relay.lua writes them with the player's inbox, from each append (play/inbox.py decides
what); `rebuild` writes them again from the streams. See docs/players.md, "My games".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from events.connection import RedisClient, as_text
from events.players import MY_GAMES, Listed, my_games_suffixes, player_key
from game.table import STATUSES

PIPELINE_SIZE = 1000


@dataclass(frozen=True)
class MyGamesPage:
    """One page of a player's games (ids, best first) and how many the filter holds."""

    game_ids: list[str]
    total: int


@dataclass(frozen=True)
class IndexRebuild:
    """What a rebuild of the players' indexes wrote: players and games listed, strays removed."""

    players: int
    games: int
    removed: int


class MyGamesIndex:
    """The players' game indexes of one namespace."""

    def __init__(self, redis_client: RedisClient, *, namespace: str = "ll") -> None:
        self.redis = redis_client
        self.namespace = namespace

    def key(self, player_id: str, status: str | None = None) -> str:
        """The set of the player's games (of one status)."""
        suffix = MY_GAMES if status is None else f"{MY_GAMES}:{status}"
        return player_key(self.namespace, player_id, suffix)

    def page(self, player_id: str, status: str | None, offset: int, limit: int) -> MyGamesPage:
        """Games `offset` to `offset + limit - 1` of the player (of `status`), best first: one
        ZRANGE by rank and one ZCARD, O(log n + limit)."""
        key = self.key(player_id, status)
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrange(key, offset, offset + limit - 1, desc=True)
        pipe.zcard(key)
        found, total = pipe.execute()
        return MyGamesPage([as_text(game_id) for game_id in found], int(total))

    def scores(self, player_id: str, status: str | None = None) -> dict[str, int]:
        """Every game of the player (of `status`) with its score (for checks and tests)."""
        found: Any = self.redis.zrange(self.key(player_id, status), 0, -1, withscores=True)
        return {as_text(game_id): int(score) for game_id, score in found}

    def rebuild(self, wanted: Mapping[str, Mapping[str, tuple[Listed, int]]]) -> IndexRebuild:
        """Make every player's index hold exactly `wanted` (player -> game -> (listing, time of
        its last append)); players not in it lose their index."""
        pipe = self.redis.pipeline(transaction=False)
        games = 0
        for player_id, mine in wanted.items():
            for game_id, (where, at_ms) in mine.items():
                _queue_listing(pipe, self.key, player_id, game_id, where.status,
                               where.score(at_ms))  # fmt: skip
                games += 1
                _flush_if_long(pipe)
        pipe.execute()
        removed = 0
        for key in self._keys():
            player_id = _player_of(key)
            status = as_text(key).rsplit(":", 1)[1]
            mine = wanted.get(player_id, {})
            for member, _score in self.redis.zscan_iter(key, count=1000):
                game_id = as_text(member)
                wanted_here = mine.get(game_id)
                if wanted_here is None or status not in (MY_GAMES, wanted_here[0].status):
                    pipe.zrem(key, member)
                    removed += 1
                    _flush_if_long(pipe)
        pipe.execute()
        return IndexRebuild(len(wanted), games, removed)

    def _keys(self) -> Iterable[Any]:
        """Every index key of the namespace (a SCAN: rebuilds only)."""
        for suffix in my_games_suffixes():
            yield from self.redis.scan_iter(match=f"{self.namespace}:{{p:*}}:{suffix}", count=1000)


def _queue_listing(
    pipe: Any, key: Any, player_id: str, game_id: str, status: str, score: int
) -> None:
    """Queue what relay.lua does for a listing: in the set of all and in its status's alone."""
    pipe.zadd(key(player_id), {game_id: score})
    for other in STATUSES:
        if other == status:
            pipe.zadd(key(player_id, other), {game_id: score})
        else:
            pipe.zrem(key(player_id, other), game_id)


def _player_of(key: Any) -> str:
    """The player id in `{ns}:{p:<id>}:suffix`."""
    text = as_text(key)
    return text[text.index("{p:") + 3 : text.index("}")]


def _flush_if_long(pipe: Any) -> None:
    """Send a long pipeline's queued commands, so none grows without bound."""
    if len(pipe) >= PIPELINE_SIZE:
        pipe.execute()
