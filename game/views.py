"""What one seat (or a spectator, seat None) may see (docs/rules.md, "What each seat sees")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from game import events as ev
from game import table
from game.clues import Clue
from game.state import GameState, Phase


@dataclass(frozen=True, slots=True)
class PublicSeat:
    """What everyone sees of one seat."""

    seat: int
    name: str
    tokens: int
    discards: tuple[str, ...]
    eliminated: bool
    protected: bool
    hand_size: int
    forfeited: bool = False


@dataclass(frozen=True, slots=True)
class KnownCard:
    """A card this seat learnt privately: `seat` held it (None: it lies under the deck)."""

    seat: int | None
    card: str
    source: str
    round: int
    turn: int
    still_held: bool
    depth: int = 0  # under the deck: how many cards lie below it


@dataclass(frozen=True, slots=True)
class RuledOut:
    """Public play showed that `seat`'s card was none of `cards` once it had made `plays` plays
    this round (a Guard or Bishop named it and missed; it won a comparison against a card shown)."""

    seat: int
    cards: tuple[str, ...]
    plays: int  # cards on the seat's discard pile this round when it was shown


@dataclass(frozen=True, slots=True)
class SeenBy:
    """Another seat knows the card in your hand: it saw it (Priest, Baron...) or gave it to you."""

    seat: int
    card: str


@dataclass(frozen=True)
class SeatView:
    """The game as one seat may see it; `you` and `hand` are None for a spectator."""

    edition: str
    players: tuple[str, ...]
    you: int | None
    phase: str
    round: int
    turn: int
    turn_seat: int | None  # whose turn it is (`current` differs while a Bishop's redraw waits)
    current: int | None
    decision: str | None
    tokens_to_win: int
    seats: tuple[PublicSeat, ...]
    deck_size: int
    face_up: tuple[str, ...]
    hand: tuple[str, ...] | None
    known: tuple[KnownCard, ...]
    sycophant: int | None
    jesters: tuple[tuple[int, int], ...]
    commitment: str
    round_winners: tuple[int, ...]
    end_reason: str | None
    showdown: tuple[tuple[int, str], ...]
    set_aside: str | None  # public only once the round is over
    deck: tuple[str, ...] | None  # public only once the round is over
    game_winners: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...] | None = None  # every hand: the all-seeing audience only
    # This round's public clues: a card a Guard named and missed, a comparison's winner.
    ruled_out: tuple[RuledOut, ...] = ()
    seen_by: tuple[SeenBy, ...] = ()  # who knows a card you hold (public: you saw them look)


def view(
    state: GameState, seat: int | None, *, everything: bool = False, clues: tuple[Clue, ...] = ()
) -> SeatView:
    """Exactly what `seat` may know of `state` (a spectator: public information only).

    `everything` is for those who may see the whole truth: auditors, and seats after the game.
    `clues` are the round's public clues, followed beside the state (`game.clues`).
    """
    live = state.phase is Phase.ROUND and not everything
    return _seat_view(
        edition=state.edition.id,
        players=state.players,
        you=seat,
        phase=state.phase.value,
        round=state.round,
        turn=state.turn,
        turn_seat=state.turn_seat if live else None,
        current=state.current,
        decision=state.decision.value if state.decision is not None and live else None,
        tokens_to_win=state.target,
        seats=tuple(
            PublicSeat(
                index,
                name,
                state.tokens[index],
                state.discards[index],
                state.eliminated[index],
                state.protected[index],
                len(state.hands[index]),
                index in state.forfeited,
            )
            for index, name in enumerate(state.players)
        ),
        deck_size=len(state.deck),
        face_up=state.face_up,
        hand=None if seat is None else state.hands[seat],
        known=tuple(
            KnownCard(k.seat, k.card, k.source, k.round, k.turn, k.still_held, k.depth)
            for k in state.knowledge
            if k.viewer == seat
        ),
        sycophant=state.sycophant,
        jesters=state.jesters,
        commitment=state.commitment,
        round_winners=state.round_winners,
        end_reason=state.end_reason,
        showdown=state.showdown,
        set_aside=None if live else state.set_aside,
        deck=None if live else state.deck,
        game_winners=state.game_winners,
        hands=state.hands if everything else None,
        ruled_out=tuple([RuledOut(*clue) for clue in clues]),
        seen_by=_seen_by(state, seat),
    )


# Cards whose swap a bystander who knew one of the hands may follow (`evolve._hands_swapped`).
_SWAPS = frozenset({"king", "cardinal"})


def _seen_by(state: GameState, seat: int | None) -> tuple[SeenBy, ...]:
    """The other seats that know a card `seat` still holds, each having learnt it in front of
    `seat`: they looked, compared, or swapped with it. A bystander who followed a card through a
    swap is left out (its new holder can't tell), known by not being the seat's swap partner."""
    if seat is None or not state.knowledge:
        return ()
    mine = [k for k in state.knowledge if k.seat == seat and k.viewer != seat and k.still_held]
    if not mine:
        return ()  # the usual case, on every move of a bot's search: nothing more to read
    partners = {
        (k.round, k.turn): k.seat
        for k in state.knowledge
        if k.viewer == seat and k.source in _SWAPS and k.seat is not None
    }
    return tuple(
        SeenBy(k.viewer, k.card)
        for k in mine
        if k.source not in _SWAPS or partners.get((k.round, k.turn)) == k.viewer
    )


_new = object.__new__


def _seat_view(**fields: Any) -> SeatView:
    """A SeatView of every field, without the frozen dataclass's slow field-by-field set-up
    (views are built on every move of a bot's search)."""
    seen = _new(SeatView)
    seen.__dict__.update(fields)
    return seen


def event_fields(event: Any) -> dict[str, Any]:
    """An event as plain data: its `type` and every field (the auditor's view)."""
    data: dict[str, Any] = {"type": event.type}
    for name in field_names(type(event)):
        data[name] = getattr(event, name)
    return data


def field_names(event_type: type) -> tuple[str, ...]:
    """The names of an event type's fields, in order (dataclasses.fields filters a type's
    fields anew on every call: they are kept here once found)."""
    names = _FIELD_NAMES.get(event_type)
    if names is None:
        names = _FIELD_NAMES[event_type] = tuple(field.name for field in fields(event_type))
    return names


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def redact(event: Any, seat: int | None, *, everything: bool = False) -> dict[str, Any]:
    """An event as `seat` may see it (None: a spectator); hidden cards become None.

    `everything` shows all but the table's secrets (token hashes, webhook secrets), which
    never leave the server, and what only its own seat sees (a webhook's URL).
    """
    data = event_fields(event)
    for name in _NEVER_SHOWN.get(type(event), ()):
        data[name] = None
    own = _OWN.get(type(event))
    if own is not None:
        own[1](data, seat)
    private = _PRIVATE.get(type(event))
    if private is not None and not everything:
        private[1](data, seat)
    return data


def hidden_fields(event_type: type) -> tuple[str, ...]:
    """The fields of an event type that some audience sees hidden: None, or for a tuple, a
    tuple of Nones (what `redact` may do to them)."""
    private = _PRIVATE.get(event_type, ((), None))[0]
    own = _OWN.get(event_type, ((), None))[0]
    return (*_NEVER_SHOWN.get(event_type, ()), *own, *private)


def _hidden(value: Any) -> Any:
    if isinstance(value, tuple):
        return tuple(None for _ in value)
    return None


Hide = Callable[[dict[str, Any], int | None], None]


def _unless(*parties: str, hidden: tuple[str, ...]) -> tuple[tuple[str, ...], Hide]:
    """Hide `hidden` fields from everyone but the seats named in the `parties` fields."""

    def hide(data: dict[str, Any], seat: int | None) -> None:
        if seat is None or all(data[party] != seat for party in parties):
            for name in hidden:
                data[name] = _hidden(data[name])

    return hidden, hide


def _round_started(data: dict[str, Any], seat: int | None) -> None:
    hands = enumerate(data["hands"])
    data["hands"] = tuple(card if index == seat else None for index, card in hands)
    for name in ("set_aside", "deck", "salt"):
        data[name] = _hidden(data[name])


def _game_started(data: dict[str, Any], seat: int | None) -> None:
    data["seed"] = None  # the seed would predict every deal


_NEVER_SHOWN: dict[type, tuple[str, ...]] = {
    table.SeatTaken: ("token_hash",),
    table.WebhookSet: ("secret",),
}

# Fields only their own seat sees, even once the game is over: a webhook's URL often carries
# a secret in its path.
_OWN: dict[type, tuple[tuple[str, ...], Hide]] = {
    table.WebhookSet: _unless("seat", hidden=("url",)),
}

# Per event type: the fields some audience sees hidden, and how they are hidden.
_PRIVATE: dict[type, tuple[tuple[str, ...], Hide]] = {
    table.TableOpened: (("seed",), _game_started),
    ev.GameStarted: (("seed",), _game_started),
    ev.RoundStarted: (("hands", "set_aside", "deck", "salt"), _round_started),
    ev.TurnStarted: _unless("seat", hidden=("card",)),
    ev.CardDrawn: _unless("seat", hidden=("card",)),
    ev.HandSeen: _unless("viewer", hidden=("card",)),
    ev.HandsCompared: _unless("seat", "target", hidden=("card", "target_card")),
    ev.HandsSwapped: _unless("seat", "other", hidden=("seat_card", "other_card")),
    ev.ChancellorDrew: _unless("seat", hidden=("cards",)),
    ev.ChancellorReturned: _unless("seat", hidden=("kept", "bottom")),
}
