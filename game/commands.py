"""What players (and the game's host) ask the rules to do."""

from __future__ import annotations

from dataclasses import dataclass

from game.values import quick_init


@quick_init  # made for every round dealt
@dataclass(frozen=True, slots=True)
class Deal:
    """A round's layout after the shuffle: the chance outcome a RoundStarted event records."""

    set_aside: str
    face_up: tuple[str, ...]
    hands: tuple[str, ...]  # one card per seat, in seat order
    deck: tuple[str, ...]  # the draw pile, top card first


@dataclass(frozen=True, slots=True)
class StartGame:
    """Create a game and deal its first round; `deal` rigs the shuffle (tests and imports only)."""

    edition: str
    players: tuple[str, ...]
    seed: str
    first_player: int | None = None
    deal: Deal | None = None


@quick_init  # made for every round dealt
@dataclass(frozen=True, slots=True)
class StartRound:
    """Deal the next round after one has ended; the rules choose who starts."""

    deal: Deal | None = None


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play a card from the hand with its choices: players, a named card or number, a look."""

    seat: int
    card: str
    targets: tuple[int, ...] = ()
    guess: str | int | None = None
    look: int | None = None


@dataclass(frozen=True, slots=True)
class FinishChancellor:
    """Keep one card; the others go under the deck in this order (the last one at the bottom)."""

    seat: int
    keep: str
    bottom: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AnswerRedraw:
    """The Bishop's chosen player decides whether to discard their hand and draw a new card."""

    seat: int
    redraw: bool


@dataclass(frozen=True, slots=True)
class Forfeit:
    """A seat gives the game up: out of this round and every later one, and it can't win."""

    seat: int


Command = StartGame | StartRound | PlayCard | FinishChancellor | AnswerRedraw | Forfeit
