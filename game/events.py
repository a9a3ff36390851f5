"""What happened in a game: small frozen records that `evolve` folds into the state.

Events record outcomes (the shuffled deal, the card drawn, who lost a comparison), never
intentions, so folding them needs no randomness and no rule checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, get_args

from game.values import quick_init


@dataclass(frozen=True, slots=True)
class GameStarted:
    """A game of this edition began with these players in seat order."""

    type: ClassVar[str] = "game_started"
    edition: str
    players: tuple[str, ...]
    seed: str  # the game's random source; secret until the game ends


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """A round was dealt; `commitment` is SHA-256 of the salted deal (see `game.fairness`)."""

    type: ClassVar[str] = "round_started"
    round: int
    first: int
    set_aside: str
    face_up: tuple[str, ...]
    hands: tuple[str, ...]
    deck: tuple[str, ...]
    salt: str
    commitment: str


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """It is this seat's turn: their Handmaid protection ends and they draw the deck's top card."""

    type: ClassVar[str] = "turn_started"
    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """A seat drew a card from the deck (or, the deck being empty, the set-aside card)."""

    type: ClassVar[str] = "card_drawn"
    seat: int
    card: str
    from_set_aside: bool = False


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """A seat played a card with its choices; it went onto their discard pile."""

    type: ClassVar[str] = "card_played"
    seat: int
    card: str
    targets: tuple[int, ...] = ()
    guess: str | int | None = None
    look: int | None = None


@dataclass(frozen=True, slots=True)
class GuessChecked:
    """A Guard's or Bishop's guess at a player's hand was right or wrong."""

    type: ClassVar[str] = "guess_checked"
    seat: int
    target: int
    guess: str | int
    correct: bool


@dataclass(frozen=True, slots=True)
class HandSeen:
    """`viewer` looked at `seat`'s hand (Priest, Baroness, Cardinal)."""

    type: ClassVar[str] = "hand_seen"
    viewer: int
    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class HandsCompared:
    """Two hands were compared privately (Baron, Dowager Queen); `loser` is None on a tie."""

    type: ClassVar[str] = "hands_compared"
    seat: int
    target: int
    card: str
    target_card: str
    loser: int | None


@dataclass(frozen=True, slots=True)
class ProtectionGained:
    """A Handmaid protects this seat until the start of their next turn."""

    type: ClassVar[str] = "protection_gained"
    seat: int


@dataclass(frozen=True, slots=True)
class HandDiscarded:
    """A seat was made to discard their hand without effect (Prince, Bishop redraw, Assassin)."""

    type: ClassVar[str] = "hand_discarded"
    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class HandsSwapped:
    """Two seats swapped hands (King, Cardinal); each `*_card` is what that seat holds now."""

    type: ClassVar[str] = "hands_swapped"
    seat: int
    other: int
    seat_card: str
    other_card: str


@dataclass(frozen=True, slots=True)
class ChancellorDrew:
    """A Chancellor's player drew these cards and must now keep one."""

    type: ClassVar[str] = "chancellor_drew"
    seat: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ChancellorReturned:
    """The Chancellor's player kept one card and put the others under the deck, last lowest."""

    type: ClassVar[str] = "chancellor_returned"
    seat: int
    kept: str
    bottom: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SycophantMarked:
    """The next card played that chooses players must choose `target` if it can."""

    type: ClassVar[str] = "sycophant_marked"
    seat: int
    target: int


@dataclass(frozen=True, slots=True)
class JesterMarked:
    """If `target` wins this round, `seat` gains a token."""

    type: ClassVar[str] = "jester_marked"
    seat: int
    target: int


@dataclass(frozen=True, slots=True)
class AssassinRevealed:
    """A Guard chose the Assassin's holder: the Guard's player is eliminated instead."""

    type: ClassVar[str] = "assassin_revealed"
    seat: int  # the Assassin's holder
    guard_player: int


@dataclass(frozen=True, slots=True)
class RedrawOffered:
    """A right Bishop guess: the chosen seat must answer whether to discard and draw."""

    type: ClassVar[str] = "redraw_offered"
    seat: int


@dataclass(frozen=True, slots=True)
class RedrawAnswered:
    """The Bishop's chosen seat answered."""

    type: ClassVar[str] = "redraw_answered"
    seat: int
    redraw: bool


@dataclass(frozen=True, slots=True)
class PlayerEliminated:
    """A seat is out of the round; `hand` is what they laid down face up."""

    type: ClassVar[str] = "player_eliminated"
    seat: int
    hand: tuple[str, ...]
    cause: str  # the card that eliminated them


@dataclass(frozen=True, slots=True)
class TokenGained:
    """A seat gained a token; `reason` is round, spy, jester, bishop or constable."""

    type: ClassVar[str] = "token_gained"
    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """The round ended; its deal, salt, set-aside card and remaining deck become public."""

    type: ClassVar[str] = "round_ended"
    round: int
    winners: tuple[int, ...]
    reason: str  # last-standing, showdown or token-target
    showdown: tuple[tuple[int, str], ...]  # (seat, card) revealed at a showdown
    set_aside: str | None
    deck: tuple[str, ...]
    dealt: tuple[str, ...]  # the whole shuffled deal, in `game.fairness` order
    salt: str


@dataclass(frozen=True, slots=True)
class SeatForfeited:
    """A seat gave the game up; it is out of every round from now on."""

    type: ClassVar[str] = "seat_forfeited"
    seat: int


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game is over; every seat at or above the token target won."""

    type: ClassVar[str] = "game_ended"
    winners: tuple[int, ...]


Event = (
    GameStarted
    | RoundStarted
    | TurnStarted
    | CardDrawn
    | CardPlayed
    | GuessChecked
    | HandSeen
    | HandsCompared
    | ProtectionGained
    | HandDiscarded
    | HandsSwapped
    | ChancellorDrew
    | ChancellorReturned
    | SycophantMarked
    | JesterMarked
    | AssassinRevealed
    | RedrawOffered
    | RedrawAnswered
    | PlayerEliminated
    | TokenGained
    | RoundEnded
    | SeatForfeited
    | GameEnded
)

EVENT_TYPES: dict[str, type[Event]] = {cls.type: cls for cls in get_args(Event)}

for _event_type in EVENT_TYPES.values():
    quick_init(_event_type)  # a round's events are made on every deal, some on every move
