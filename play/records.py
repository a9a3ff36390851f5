"""The ratings projection: each finished game recorded once, whichever process sees it.

Right after an append that ends a game, its relay (play/inbox.py) records the table's finished
games; a process that dies before leaves the append's relay record, and the sweep relays and
records it again. Recording is idempotent per game (record.lua). Ratings depend on the order
of games, so each edition's rated games are folded in their order (end, key): a game that ends
before one already rated (its process died, the sweep came later) folds the edition again.
`rebuild` records everything again from the streams and the archive: the same numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import islice

from events.ratings import RATED_SINCE, RECORDED, HistoryEntry, RatingStore
from game.editions import EDITIONS
from game.ratings import Rating, rate, replay
from game.records import FinishedGame, finished_games
from play.context import Context

ATTEMPTS = 50  # other games rated meanwhile: compute again on the newer ratings
RELIABLE_ABANDON_RATE = 0.2  # a player who left at most this share of their games is reliable
BOARD_PAGE = 200  # leaderboard lines read at a time (players below the minimum are skipped)


class Busy(Exception):
    """The edition's ratings kept changing under a game's rating; the sweep comes again."""


def record_table(ctx: Context, game_id: str) -> int:
    """Record the table's finished games not recorded yet; how many were recorded now."""
    return sum(record_finished(ctx.ratings, game) for game in table_games(ctx, game_id))


def table_games(ctx: Context, game_id: str) -> list[FinishedGame]:
    """The finished games of a table, from its stream or the archive."""
    stored = ctx.games.read(game_id)
    decoded = ctx.games.vocabulary.decoded
    return finished_games(game_id, ((decoded(item), item.at) for item in stored))


def record_finished(store: RatingStore, game: FinishedGame) -> bool:
    """Record one finished game unless it is recorded; whether this call recorded it."""
    edition = game.edition
    for _ in range(ATTEMPTS):
        if store.recorded(edition, game.key):
            return False
        if not game.rated:
            outcome = store.record(game, seq=None, ratings={}, histories={})
        else:
            seq = store.seq(edition)  # read first: ratings read after it are those of `seq`
            last = store.last_rated(edition)
            if last is None or game.order > last:
                players = [str(seat.player) for seat in game.seats]
                after = rate(game, store.ratings(edition, players))
                histories = {p: [HistoryEntry(game.key, game.at, r)] for p, r in after.items()}
                outcome = store.record(game, seq=seq, ratings=after, histories=histories)
            else:
                ratings, history = replay([*store.rated_games(edition), game])
                histories = {p: [HistoryEntry(*entry) for entry in h] for p, h in history.items()}
                outcome = store.record(
                    game, seq=seq, ratings=ratings, histories=histories, replace_all=True
                )
        if outcome != RATED_SINCE:
            return outcome == RECORDED
    raise Busy(f"the ratings of {edition} kept changing under {game.key}")


@dataclass
class RebuildReport:
    """What `rebuild` found: tables read, finished games, rated games, per edition."""

    tables: int = 0
    games: dict[str, int] = field(default_factory=dict)
    rated: dict[str, int] = field(default_factory=dict)


def all_game_ids(ctx: Context) -> Iterator[str]:
    """Every game, in Redis or archived (each once)."""
    seen: set[str] = set()
    archive = ctx.games.archive
    sources: list[Iterable[str]] = [ctx.games.store.game_ids()]
    if archive is not None:
        sources.append(archive.list())
    for source in sources:
        for game_id in source:
            if game_id not in seen:
                seen.add(game_id)
                yield game_id


def rebuild(ctx: Context, progress: Callable[[int], None] | None = None) -> RebuildReport:
    """Forget every edition's ratings and statistics, then record every finished game again in
    the ratings' order (a game that ends meanwhile is recorded by its relay as usual)."""
    report = RebuildReport()
    for edition in EDITIONS:
        ctx.ratings.clear(edition)
    games: list[FinishedGame] = []
    for game_id in all_game_ids(ctx):
        games += table_games(ctx, game_id)
        report.tables += 1
        if progress is not None:
            progress(report.tables)
    for game in sorted(games, key=lambda g: g.order):
        record_finished(ctx.ratings, game)
        report.games[game.edition] = report.games.get(game.edition, 0) + 1
        report.rated[game.edition] = report.rated.get(game.edition, 0) + game.rated
    return report


@dataclass(frozen=True)
class Standing:
    """A player's line of a leaderboard."""

    rank: int
    player: str
    name: str | None
    rating: Rating


def eligible(ctx: Context, edition: str, min_games: int) -> Iterator[tuple[int, str, Rating]]:
    """The edition's players with at least `min_games` rated games, best first: (rank, player,
    rating), read from the board a page at a time."""
    store, rank, start = ctx.ratings, 0, 0
    while page := store.board(edition, start, BOARD_PAGE):
        start += len(page)
        ratings = store.ratings(edition, [player for player, _ in page])
        for player, _ in page:
            rating = ratings.get(player)
            if rating is not None and rating.games >= min_games:
                rank += 1
                yield rank, player, rating


def leaderboard(
    ctx: Context, edition: str, *, limit: int, offset: int, min_games: int
) -> list[Standing]:
    """The edition's players with at least `min_games` rated games, by mu - 3 sigma (best
    first), from the `offset`-th such player on."""
    found = []
    for rank, player, rating in islice(eligible(ctx, edition, min_games), offset, offset + limit):
        known = ctx.players.get(player)
        found.append(Standing(rank, player, None if known is None else known.name, rating))
    return found


@dataclass(frozen=True)
class Reliability:
    """How often a player leaves (BGA's "karma"): of their finished games in every edition,
    how many they left to a bot or forfeited."""

    games: int
    abandons: int

    @property
    def abandon_rate(self) -> float:
        """Abandons per finished game (0 before any game)."""
        return self.abandons / self.games if self.games else 0.0

    @property
    def reliable(self) -> bool:
        """Whether quick play's `reliable_only` entries may be matched with this player."""
        return self.abandon_rate <= RELIABLE_ABANDON_RATE


def reliability(ctx: Context, player: str) -> Reliability:
    """The player's finished games and abandons, all editions together."""
    games, abandons = ctx.ratings.totals(EDITIONS, player, ("games", "abandons"))
    return Reliability(games, abandons)


@dataclass(frozen=True)
class OwnStanding:
    """Where one player stands: their rating (None before their first rated game) and their
    rank (None until they have `min_games` rated games and so appear on the board)."""

    player: str
    rating: Rating | None
    rank: int | None


def standing(ctx: Context, edition: str, player: str, *, min_games: int) -> OwnStanding:
    """One player's standing on the edition's board (reading the board down to them)."""
    rating = ctx.ratings.ratings(edition, [player]).get(player)
    if rating is None or rating.games < min_games:
        return OwnStanding(player, rating, None)
    rank = next((r for r, found, _ in eligible(ctx, edition, min_games) if found == player), None)
    return OwnStanding(player, rating, rank)


@dataclass(frozen=True)
class EditionRecord:
    """A player's rating, its history and statistics in one edition."""

    edition: str
    rating: Rating | None
    history: list[HistoryEntry]
    statistics: dict[str, int]


TOTALS = ("games", "wins", "abandons")  # a player's counters over every edition


def record_totals(records: Iterable[EditionRecord]) -> dict[str, int | float]:
    """A player's finished games, wins and abandons over every edition, and its abandon rate
    (the same names and numbers wherever a player's counters are shown)."""
    found = list(records)
    totals: dict[str, int | float] = {
        name: sum(record.statistics.get(name, 0) for record in found) for name in TOTALS
    }
    totals["abandon_rate"] = Reliability(int(totals["games"]), int(totals["abandons"])).abandon_rate
    return totals


def player_record(ctx: Context, player: str) -> list[EditionRecord]:
    """The player's records in every edition where they finished a game."""
    records = []
    for edition in EDITIONS:
        statistics = ctx.ratings.statistics(edition, player)
        if not statistics:
            continue
        rating = ctx.ratings.ratings(edition, [player]).get(player)
        records.append(
            EditionRecord(edition, rating, ctx.ratings.history(edition, player), statistics)
        )
    return records
