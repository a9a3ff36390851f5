"""Ratings, leaderboards and players' statistics in the store, one edition at a time.

`{ns}:ratings:<edition>` is a hash: player id -> `{"mu", "sigma", "games"}` (JSON). Every other
key of an edition is `{ns}:{<ns>:ratings:<edition>}:<suffix>`: its hash tag puts it in that
hash's cluster slot, so one script (record.lua) records a game in all of them at once.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

from events.connection import RedisClient, as_text
from game.ratings import Rating
from game.records import PLAYED_TURNS, FinishedGame, SeatRecord

RECORD_SCRIPT = files("events").joinpath("record.lua").read_text(encoding="utf-8")
RECORDED, RECORDED_BEFORE, RATED_SINCE = 1, -1, -2


@dataclass(frozen=True)
class HistoryEntry:
    """A player's rating after one rated game."""

    game: str  # the game's key, `<game id>#<number>`
    at: int  # its end, Unix ms
    rating: Rating

    def text(self) -> str:
        """As stored."""
        return json.dumps({"game": self.game, "at": self.at, **self.rating.json()})

    @classmethod
    def parse(cls, text: str) -> HistoryEntry:
        """From its stored text."""
        data = json.loads(text)
        return cls(data["game"], int(data["at"]), Rating.from_json(data))


def record_json(game: FinishedGame) -> str:
    """A finished game as kept in its edition's records (enough to rate it again)."""
    seats = [
        {
            "player": s.player,
            "winner": s.winner,
            "tokens": s.tokens,
            "left": s.left,
            "turns": s.turns,
        }
        for s in game.seats
    ]
    data = {"key": game.key, "at": game.at, "rated": game.rated, "seats": seats}
    return json.dumps(data, separators=(",", ":"))


def parse_record(edition: str, text: str) -> FinishedGame:
    """A finished game from its record (without the statistics, which are counted already)."""
    data = json.loads(text)
    seats = [  # records written before `turns` counted every game as played
        SeatRecord(i, s["player"], winner=s["winner"], tokens=s["tokens"], left=s["left"],
                   turns=s.get("turns", PLAYED_TURNS))
        for i, s in enumerate(data["seats"])
    ]  # fmt: skip
    return FinishedGame(data["key"], edition, int(data["at"]), bool(data["rated"]), seats)


def statistics(seat: SeatRecord) -> dict[str, int]:
    """The counters one seat adds to its player's statistics."""
    counts = {
        "games": 1,
        "wins": int(seat.winner and not seat.left),
        "abandons": int(seat.left),
        "rounds_showdown": seat.rounds_showdown,
        "rounds_elimination": seat.rounds_elimination,
    }
    counts.update({f"card:{card}": n for card, n in seat.cards.items()})
    return {name: n for name, n in counts.items() if n}


class RatingStore:
    """The ratings and statistics of one namespace."""

    def __init__(self, redis_client: RedisClient, *, namespace: str = "ll") -> None:
        self.redis = redis_client
        self.namespace = namespace
        self._record = redis_client.register_script(RECORD_SCRIPT)

    def ratings_key(self, edition: str) -> str:
        """The edition's ratings hash (read as it is by other parts, e.g. quick play)."""
        return f"{self.namespace}:ratings:{edition}"

    def key(self, edition: str, suffix: str) -> str:
        """Another key of the edition, in its ratings hash's cluster slot."""
        return f"{self.namespace}:{{{self.ratings_key(edition)}}}:{suffix}"

    # Reading.

    def seq(self, edition: str) -> int:
        """How many rated games the edition's ratings were folded from."""
        found: Any = self.redis.hget(self.key(edition, "meta"), "seq")
        return 0 if found is None else int(found)

    def recorded(self, edition: str, game_key: str) -> bool:
        """Whether the game is recorded (its statistics counted, its ratings applied)."""
        return bool(self.redis.hexists(self.key(edition, "records"), game_key))

    def last_rated(self, edition: str) -> tuple[int, str] | None:
        """The order (end, key) of the edition's last rated game."""
        found: Any = self.redis.zrange(self.key(edition, "rated"), -1, -1, withscores=True)
        if not found:
            return None
        member, score = found[0]
        return (int(score), as_text(member))

    def ratings(self, edition: str, players: Sequence[str]) -> dict[str, Rating]:
        """The players' ratings (those with none are left out)."""
        if not players:
            return {}
        found: Any = self.redis.hmget(self.ratings_key(edition), list(players))
        return {
            player: Rating.from_json(json.loads(text))
            for player, text in zip(players, found, strict=True)
            if text is not None
        }

    def all_ratings(self, edition: str) -> dict[str, Rating]:
        """Every rating of the edition."""
        found: Any = self.redis.hgetall(self.ratings_key(edition))
        return {as_text(k): Rating.from_json(json.loads(v)) for k, v in found.items()}

    def rated_games(self, edition: str) -> list[FinishedGame]:
        """Every rated game's record, in no particular order."""
        found: Any = self.redis.hgetall(self.key(edition, "records"))
        games = [parse_record(edition, as_text(text)) for text in found.values()]
        return [game for game in games if game.rated]

    def history(self, edition: str, player: str) -> list[HistoryEntry]:
        """The player's rating after each of their rated games, oldest first."""
        found: Any = self.redis.lrange(self.key(edition, f"history:{player}"), 0, -1)
        return [HistoryEntry.parse(as_text(text)) for text in found]

    def statistics(self, edition: str, player: str) -> dict[str, int]:
        """The player's counters in the edition (see `statistics`)."""
        found: Any = self.redis.hgetall(self.key(edition, f"stats:{player}"))
        return {as_text(k): int(v) for k, v in found.items()}

    def totals(self, editions: Iterable[str], player: str, names: Sequence[str]) -> list[int]:
        """The player's counters `names` summed over these editions (one round trip)."""
        pipe = self.redis.pipeline(transaction=False)
        for edition in editions:
            pipe.hmget(self.key(edition, f"stats:{player}"), list(names))
        sums = [0] * len(names)
        for found in pipe.execute():
            for index, value in enumerate(found):
                sums[index] += 0 if value is None else int(value)
        return sums

    def board(self, edition: str, start: int, count: int) -> list[tuple[str, float]]:
        """Players by mu - 3 sigma, best first, from `start`."""
        found: Any = self.redis.zrevrange(
            self.key(edition, "board"), start, start + count - 1, withscores=True
        )
        return [(as_text(player), float(score)) for player, score in found]

    # Writing.

    def record(
        self,
        game: FinishedGame,
        *,
        seq: int | None,
        ratings: Mapping[str, Rating],
        histories: Mapping[str, Iterable[HistoryEntry]],
        replace_all: bool = False,
    ) -> int:
        """Record a finished game once (see record.lua): its statistics and, when rated, the
        `ratings` and `histories` computed on the edition's `seq`. RECORDED, RECORDED_BEFORE or
        RATED_SINCE (nothing written: compute again)."""
        edition = game.edition
        counted = {s.player: statistics(s) for s in game.seats if s.player is not None}
        players = list(dict.fromkeys([*counted, *ratings]))
        keys = [
            self.ratings_key(edition),
            *(self.key(edition, name) for name in ("board", "rated", "records", "meta")),
        ]
        args: list[str | int | float] = [
            game.key,
            game.at,
            record_json(game),
            "" if seq is None else seq,
            1 if replace_all else 0,
        ]
        for player in players:
            keys += [self.key(edition, f"history:{player}"), self.key(edition, f"stats:{player}")]
            rating = ratings.get(player)
            entries = [entry.text() for entry in histories.get(player, ())]
            stats = counted.get(player)
            args += [
                player,
                "" if rating is None else json.dumps(rating.json()),
                0 if rating is None else repr(rating.conservative),
                json.dumps(entries),
                json.dumps(stats) if stats else "",
            ]
        return int(self._record(keys=keys, args=args))

    def clear(self, edition: str) -> None:
        """Forget the edition's ratings, records and statistics (before a rebuild)."""
        match = self.key(edition, "*")
        doomed = [self.ratings_key(edition), *self.redis.scan_iter(match=match, count=1000)]
        for start in range(0, len(doomed), 500):
            self.redis.delete(*doomed[start : start + 500])
