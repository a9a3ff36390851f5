"""The whole truth of a game at one moment, as an immutable value."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import Any

from game.editions import Edition
from game.values import quick_init


class Phase(StrEnum):
    """Where the game stands."""

    ROUND = "round"  # a round is being played
    BETWEEN_ROUNDS = "between-rounds"  # a round ended; the next one is not dealt yet
    OVER = "over"


class Decision(StrEnum):
    """What the seat that must act has to do."""

    PLAY = "play"
    CHANCELLOR = "chancellor"
    REDRAW = "redraw"


_ROUND = Phase.ROUND  # read on every move: a module constant is quicker than the enum's attribute


@quick_init  # made on every look at a hand, and again when the card may have moved
@dataclass(frozen=True, slots=True)
class Knowledge:
    """Something `viewer` learnt privately: `seat` held `card` (seat None: under the deck)."""

    viewer: int
    seat: int | None
    card: str
    source: str  # the card through which it was learnt
    round: int
    turn: int
    still_held: bool = True  # False once public play shows the card may have moved
    depth: int = 0  # for cards under the deck: how many cards lie below it


@dataclass(frozen=True)
class GameState:
    """A game between rounds or in the middle of one; change it only through `evolve`."""

    edition: Edition
    players: tuple[str, ...]
    seed: str
    tokens: tuple[int, ...]
    # A factory rather than a default: an enum member as a class attribute keeps CPython from
    # specialising reads of the field, and `state.phase` is read several times a move.
    phase: Phase = field(default_factory=lambda: Phase.BETWEEN_ROUNDS)
    round: int = 0
    turn: int = 0  # turns started this round
    turn_seat: int = 0  # whose turn it is
    decision: Decision | None = None
    deciding_seat: int | None = None  # who must act when it is not the turn's player (redraw)
    hands: tuple[tuple[str, ...], ...] = ()
    discards: tuple[tuple[str, ...], ...] = ()
    eliminated: tuple[bool, ...] = ()
    protected: tuple[bool, ...] = ()
    deck: tuple[str, ...] = ()
    set_aside: str | None = None
    face_up: tuple[str, ...] = ()
    sycophant: int | None = None  # the seat the next card must choose, if it can
    jesters: tuple[tuple[int, int], ...] = ()  # (Jester's player, chosen seat)
    knowledge: tuple[Knowledge, ...] = ()
    commitment: str = ""
    salt: str = ""
    dealt: tuple[str, ...] = ()
    round_winners: tuple[int, ...] = ()  # winners of the last round that ended
    end_reason: str | None = None  # how the last round ended
    showdown: tuple[tuple[int, str], ...] = ()
    game_winners: tuple[int, ...] = ()
    forfeited: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        # The fields as a dict of its own: the first one of an instance shares its keys with the
        # class, and so would every copy (`fields`), whose reads CPython 3.11 can't specialise.
        _set_dict(self, dict(self.__dict__))

    def evolved(self, **changes: Any) -> GameState:
        """A copy with some fields changed (a fast `dataclasses.replace`)."""
        fields = self.fields()
        fields.update(changes)
        return from_fields(fields)

    def fields(self) -> dict[str, Any]:
        """Every field by name, in a new dict: change some and make the next state of it with
        `from_fields` (on every event: quicker than `evolved`'s keywords)."""
        return self.__dict__.copy()

    @property
    def current(self) -> int | None:
        """The seat that must act now, or None between rounds and after the game."""
        if self.phase is not _ROUND:
            return None
        return self.turn_seat if self.deciding_seat is None else self.deciding_seat

    def contenders(self) -> list[int]:
        """Seats that can still win the game (all but those that forfeited)."""
        return [seat for seat in range(len(self.players)) if seat not in self.forfeited]

    @property
    def target(self) -> int:
        """Tokens needed to win this game."""
        return self.edition.target(len(self.players))

    def seats_in_round(self) -> list[int]:
        """Seats still in the round, in seat order."""
        return [seat for seat, out in enumerate(self.eliminated) if not out]

    def next_seat(self, seat: int) -> int:
        """The next seat after `seat` (wrapping around) that is still in the round."""
        return _next_seat(self.eliminated, seat)


# What `from_fields` calls: object's own constructor, and the setter of a GameState's __dict__.
_new = object.__new__
_set_dict = GameState.__dict__["__dict__"].__set__


def from_fields(fields: dict[str, Any]) -> GameState:
    """The state with these fields (every one, as `GameState.fields` gives them), taken as they
    are: no checks and no copy."""
    new = _new(GameState)
    _set_dict(new, fields)
    return new


@cache
def _next_seat(eliminated: tuple[bool, ...], seat: int) -> int:
    count = len(eliminated)
    for step in range(1, count + 1):
        candidate = (seat + step) % count
        if not eliminated[candidate]:
            return candidate
    return seat
