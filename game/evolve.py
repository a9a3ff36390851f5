"""`evolve(state, event) -> state`: apply what happened, with no checks and no randomness."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from game import events as ev
from game.editions import EDITIONS
from game.fairness import dealt_order
from game.state import Decision, GameState, Knowledge, Phase, from_fields


def evolve(state: GameState | None, event: ev.Event) -> GameState:
    """The state after `event` (None before the game has started)."""
    return EVOLVERS[type(event)](state, event)


def fold(events: Iterable[ev.Event], state: GameState | None = None) -> GameState | None:
    """Apply events in order, from `state` (default: before the game)."""
    for event in events:
        state = evolve(state, event)
    return state


def _put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    changed = list(values)
    changed[index] = value
    return tuple(changed)


@cache  # hands are few: a lookup is quicker than the slicing
def _without(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    """The hand with one copy of `card` taken out."""
    index = hand.index(card)
    return hand[:index] + hand[index + 1 :]


def _forget(
    knowledge: tuple[Knowledge, ...], seat: int, card: str | None = None
) -> tuple[Knowledge, ...]:
    """Mark what others knew of `seat`'s hand (of `card` only, if given) as possibly moved."""
    for k in knowledge:
        if k.seat == seat and k.still_held and (card is None or k.card == card):
            break
    else:
        return knowledge  # nothing known of it: the same facts (the usual case)
    return tuple(
        [  # a list first: quicker than a generator
            Knowledge(k.viewer, k.seat, k.card, k.source, k.round, k.turn, False, k.depth)
            if k.seat == seat and k.still_held and (card is None or k.card == card)
            else k
            for k in knowledge
        ]
    )


def _drawn_from_deck(knowledge: tuple[Knowledge, ...], deck_size: int) -> tuple[Knowledge, ...]:
    """Cards known to lie under the deck are gone once the deck has shrunk past them."""
    for k in knowledge:
        if k.seat is None and k.still_held and k.depth >= deck_size:
            break
    else:
        return knowledge  # nothing drawn that was known: the same facts (the usual case)
    return tuple(
        [
            Knowledge(k.viewer, None, k.card, k.source, k.round, k.turn, False, k.depth)
            if k.seat is None and k.still_held and k.depth >= deck_size
            else k
            for k in knowledge
        ]
    )


def _learn(
    state: GameState,
    facts: tuple[tuple[int, int, str], ...],
    source: str,
    knowledge: tuple[Knowledge, ...] | None = None,
) -> tuple[Knowledge, ...]:
    """`knowledge` (default: the state's) with each (viewer, seat, card) fact learnt now."""
    learnt = tuple(
        [Knowledge(v, seat, card, source, state.round, state.turn) for v, seat, card in facts
         if v != seat]
    )  # fmt: skip
    return (state.knowledge if knowledge is None else knowledge) + learnt


def _played_card(state: GameState) -> str:
    """The card the turn's player has just played (the source of what is learnt this turn)."""
    return state.discards[state.turn_seat][-1]


# Read on every turn: module constants are quicker than the enums' attributes.
_ROUND, _PLAY = Phase.ROUND, Decision.PLAY


def _game_started(_: None, e: ev.GameStarted) -> GameState:
    count = len(e.players)
    return GameState(
        EDITIONS[e.edition],
        e.players,
        e.seed,
        tokens=(0,) * count,
        hands=((),) * count,
        discards=((),) * count,
        eliminated=(False,) * count,
        protected=(False,) * count,
    )


def _round_started(s: GameState, e: ev.RoundStarted) -> GameState:
    count = len(s.players)
    new = s.fields()
    new["phase"] = _ROUND
    new["round"] = e.round
    new["turn"] = 0
    new["turn_seat"] = e.first
    new["decision"] = _PLAY
    new.update(deciding_seat=None, sycophant=None, end_reason=None)
    new["hands"] = tuple([(card,) for card in e.hands])
    new["discards"] = ((),) * count
    new["eliminated"] = new["protected"] = (False,) * count
    new["deck"] = e.deck
    new["set_aside"] = e.set_aside
    new["face_up"] = e.face_up
    new["jesters"] = new["knowledge"] = new["showdown"] = ()
    new["commitment"] = e.commitment
    new["salt"] = e.salt
    new["dealt"] = dealt_order(e.set_aside, e.face_up, e.hands, e.deck)
    return from_fields(new)


def _turn_started(s: GameState, e: ev.TurnStarted) -> GameState:
    seat, deck = e.seat, s.deck[1:]
    new = s.fields()
    new["turn"] = s.turn + 1
    new["turn_seat"] = seat
    new["decision"] = _PLAY
    new["deciding_seat"] = None
    if s.protected[seat]:
        new["protected"] = _put(s.protected, seat, False)
    new["hands"] = _put(s.hands, seat, (*s.hands[seat], e.card))
    new["deck"] = deck
    if s.knowledge:
        new["knowledge"] = _drawn_from_deck(s.knowledge, len(deck))
    return from_fields(new)


def _card_drawn(s: GameState, e: ev.CardDrawn) -> GameState:
    hands = _put(s.hands, e.seat, (*s.hands[e.seat], e.card))
    if e.from_set_aside:
        return s.evolved(hands=hands, set_aside=None)
    deck = s.deck[1:]
    knowledge = s.knowledge and _drawn_from_deck(s.knowledge, len(deck))
    return s.evolved(hands=hands, deck=deck, knowledge=knowledge)


def _card_played(s: GameState, e: ev.CardPlayed) -> GameState:
    seat = e.seat
    new = s.fields()
    new["hands"] = _put(s.hands, seat, _without(s.hands[seat], e.card))
    new["discards"] = _put(s.discards, seat, (*s.discards[seat], e.card))
    if s.sycophant is not None:
        new.update(sycophant=None)  # a Sycophant's mark binds only the next card played
    if s.knowledge:
        new["knowledge"] = _forget(s.knowledge, seat, e.card)
    return from_fields(new)


def _unchanged(s: GameState, _: Any) -> GameState:
    return s


def _hand_seen(s: GameState, e: ev.HandSeen) -> GameState:
    return s.evolved(knowledge=_learn(s, ((e.viewer, e.seat, e.card),), _played_card(s)))


def _hands_compared(s: GameState, e: ev.HandsCompared) -> GameState:
    facts = ((e.seat, e.target, e.target_card), (e.target, e.seat, e.card))
    return s.evolved(knowledge=_learn(s, facts, _played_card(s)))


def _protection_gained(s: GameState, e: ev.ProtectionGained) -> GameState:
    return s.evolved(protected=_put(s.protected, e.seat, True))


def _hand_discarded(s: GameState, e: ev.HandDiscarded) -> GameState:
    seat = e.seat
    return s.evolved(
        hands=_put(s.hands, seat, _without(s.hands[seat], e.card)),
        discards=_put(s.discards, seat, (*s.discards[seat], e.card)),
        knowledge=_forget(s.knowledge, seat),
    )


def _hands_swapped(s: GameState, e: ev.HandsSwapped) -> GameState:
    a, b = e.seat, e.other
    source = _played_card(s)
    knowledge: list[Knowledge] = []
    for k in s.knowledge:
        if k.seat not in (a, b) or not k.still_held:
            knowledge.append(k)
            continue
        knowledge.append(Knowledge(k.viewer, k.seat, k.card, k.source, k.round, k.turn, False))
        if k.viewer not in (a, b):  # a bystander knows where the card went
            moved_to = b if k.seat == a else a
            knowledge.append(Knowledge(k.viewer, moved_to, k.card, source, s.round, s.turn))
    hands = _put(_put(s.hands, a, (e.seat_card,)), b, (e.other_card,))
    facts = ((a, b, e.other_card), (b, a, e.seat_card))
    return s.evolved(hands=hands, knowledge=_learn(s, facts, source, tuple(knowledge)))


def _chancellor_drew(s: GameState, e: ev.ChancellorDrew) -> GameState:
    deck = s.deck[len(e.cards) :]
    return s.evolved(
        hands=_put(s.hands, e.seat, (*s.hands[e.seat], *e.cards)),
        deck=deck,
        decision=Decision.CHANCELLOR,
        knowledge=_drawn_from_deck(s.knowledge, len(deck)),
    )


def _chancellor_returned(s: GameState, e: ev.ChancellorReturned) -> GameState:
    under = len(e.bottom)
    source = _played_card(s)  # the Chancellor
    knowledge = [
        Knowledge(k.viewer, None, k.card, k.source, k.round, k.turn, k.still_held, k.depth + under)
        if k.seat is None
        else k
        for k in _forget(s.knowledge, e.seat)
    ]
    for position, card in enumerate(e.bottom):
        depth = under - 1 - position
        knowledge.append(Knowledge(e.seat, None, card, source, s.round, s.turn, True, depth))
    return s.evolved(
        hands=_put(s.hands, e.seat, (e.kept,)),
        deck=s.deck + e.bottom,
        decision=Decision.PLAY,
        knowledge=tuple(knowledge),
    )


def _sycophant_marked(s: GameState, e: ev.SycophantMarked) -> GameState:
    return s.evolved(sycophant=e.target)


def _jester_marked(s: GameState, e: ev.JesterMarked) -> GameState:
    return s.evolved(jesters=(*s.jesters, (e.seat, e.target)))


def _redraw_offered(s: GameState, e: ev.RedrawOffered) -> GameState:
    return s.evolved(decision=Decision.REDRAW, deciding_seat=e.seat)


def _redraw_answered(s: GameState, _: ev.RedrawAnswered) -> GameState:
    return s.evolved(decision=Decision.PLAY, deciding_seat=None)


def _player_eliminated(s: GameState, e: ev.PlayerEliminated) -> GameState:
    seat = e.seat
    new = s.fields()
    if s.deciding_seat == seat:  # out while a Bishop waited for their answer
        new.update(decision=_PLAY, deciding_seat=None)
    new["hands"] = _put(s.hands, seat, ())
    new["discards"] = _put(s.discards, seat, s.discards[seat] + e.hand)
    new["eliminated"] = _put(s.eliminated, seat, True)
    new["protected"] = _put(s.protected, seat, False)
    new["knowledge"] = _forget(s.knowledge, seat)
    return from_fields(new)


def _token_gained(s: GameState, e: ev.TokenGained) -> GameState:
    return s.evolved(tokens=_put(s.tokens, e.seat, s.tokens[e.seat] + 1))


def _round_ended(s: GameState, e: ev.RoundEnded) -> GameState:
    return s.evolved(
        phase=Phase.BETWEEN_ROUNDS,
        decision=None,
        deciding_seat=None,
        protected=(False,) * len(s.players),
        sycophant=None,
        round_winners=e.winners,
        end_reason=e.reason,
        showdown=e.showdown,
    )


def _seat_forfeited(s: GameState, e: ev.SeatForfeited) -> GameState:
    return s.evolved(forfeited=s.forfeited | {e.seat})


def _game_ended(s: GameState, e: ev.GameEnded) -> GameState:
    return s.evolved(phase=Phase.OVER, game_winners=e.winners)


EVOLVERS: dict[type, Callable[[Any, Any], GameState]] = {
    ev.GameStarted: _game_started,
    ev.RoundStarted: _round_started,
    ev.TurnStarted: _turn_started,
    ev.CardDrawn: _card_drawn,
    ev.CardPlayed: _card_played,
    ev.GuessChecked: _unchanged,
    ev.HandSeen: _hand_seen,
    ev.HandsCompared: _hands_compared,
    ev.ProtectionGained: _protection_gained,
    ev.HandDiscarded: _hand_discarded,
    ev.HandsSwapped: _hands_swapped,
    ev.ChancellorDrew: _chancellor_drew,
    ev.ChancellorReturned: _chancellor_returned,
    ev.SycophantMarked: _sycophant_marked,
    ev.JesterMarked: _jester_marked,
    ev.AssassinRevealed: _unchanged,
    ev.RedrawOffered: _redraw_offered,
    ev.RedrawAnswered: _redraw_answered,
    ev.PlayerEliminated: _player_eliminated,
    ev.TokenGained: _token_gained,
    ev.RoundEnded: _round_ended,
    ev.SeatForfeited: _seat_forfeited,
    ev.GameEnded: _game_ended,
}
