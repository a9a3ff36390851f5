"""Players' ratings: openskill's Plackett-Luce model over the placings of rated games.

A rating depends on the order games are rated in, so every rating here is the fold of an
edition's rated games in their `FinishedGame.order` (end time, then key): the live projection
and `loveletter rebuild` fold the same games in the same order and get the same numbers.

Ratings reward play: a game someone left moves the ratings of those who stayed only when it
was really played (`FinishedGame.played`: every person made a round's turns of their own);
whoever left takes the loss (placed last) either way. So a second account that joins and
leaves at once gives nothing to anyone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from game.records import FinishedGame

MODEL = PlackettLuce()
MU = MODEL.mu  # openskill's defaults: 25 and 25/3
SIGMA = MODEL.sigma


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating in one edition, and how many rated games made it."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: what the leaderboard sorts by."""
        return self.mu - 3 * self.sigma

    def json(self) -> dict[str, Any]:
        """As stored: {"mu", "sigma", "games"}."""
        return {"mu": self.mu, "sigma": self.sigma, "games": self.games}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Rating:
        """A stored rating (None: the default)."""
        if data is None:
            return cls()
        return cls(float(data["mu"]), float(data["sigma"]), int(data["games"]))


def rate(game: FinishedGame, ratings: Mapping[str, Rating]) -> dict[str, Rating]:
    """The ratings `game` moves, from `ratings` before it: every seated player's when it was
    played, else only those of the players who left it."""
    players = [seat.player for seat in game.seats]
    assert all(players) and len(set(players)) == len(players), players
    before = [ratings.get(str(player), Rating()) for player in players]
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = MODEL.rate(teams, ranks=[float(rank) for rank in game.ranks()])
    played = game.played
    return {
        str(seat.player): Rating(team[0].mu, team[0].sigma, old.games + 1)
        for seat, team, old in zip(game.seats, after, before, strict=True)
        if played or seat.left
    }


def replay(
    games: Iterable[FinishedGame],
) -> tuple[dict[str, Rating], dict[str, list[tuple[str, int, Rating]]]]:
    """The ratings after rating these games in their order, and each player's history
    (game key, its end, the rating after it)."""
    ratings: dict[str, Rating] = {}
    history: dict[str, list[tuple[str, int, Rating]]] = {}
    for game in sorted(games, key=lambda g: g.order):
        changed = rate(game, ratings)
        ratings.update(changed)
        for player, rating in changed.items():
            history.setdefault(player, []).append((game.key, game.at, rating))
    return ratings, history
