"""The flow of a round around the cards: turns, draws, eliminations, tokens, round and game end."""

from __future__ import annotations

from functools import cache

from game import events as ev
from game.evolve import EVOLVERS
from game.showdown import showdown_winners
from game.state import GameState, Phase

ROUND = Phase.ROUND  # read on every turn: a module constant is quicker than the enum's attribute

# Events are values and these repeat all game long (a seat, a card): each one is made once.
_card_drawn = cache(ev.CardDrawn)
_hand_discarded = cache(ev.HandDiscarded)
_player_eliminated = cache(ev.PlayerEliminated)
_token_gained = cache(ev.TokenGained)
_turn_started = cache(ev.TurnStarted)


class Emitter:
    """Collects a command's events, folding each one in so later rules see its outcome."""

    __slots__ = ("events", "state")

    def __init__(self, state: GameState | None) -> None:
        self.state = state  # type: ignore[assignment]
        self.events: list[ev.Event] = []

    state: GameState

    def emit(self, event: ev.Event) -> None:
        """Record an event and apply it."""
        self.events.append(event)
        self.state = EVOLVERS[type(event)](self.state, event)  # what `evolve` does, one call less

    @property
    def round_live(self) -> bool:
        """Whether the round is still being played (no round or game end happened)."""
        return self.state.phase is ROUND

    # What cards make happen (`game.effects`), each with what follows from it.

    def draw(self, seat: int) -> None:
        """Draw the deck's top card, or the face-down set-aside card when the deck is empty."""
        state = self.state
        if state.deck:
            self.emit(_card_drawn(seat, state.deck[0]))
        elif state.set_aside is not None:
            self.emit(_card_drawn(seat, state.set_aside, from_set_aside=True))

    def discard_and_draw(self, seat: int) -> None:
        """Discard the hand without effect and draw again; a discarded Princess eliminates."""
        (card,) = self.state.hands[seat]
        self.emit(_hand_discarded(seat, card))
        if self.state.edition.cards[card].out_when_discarded:
            self.eliminate(seat, card)
        else:
            self.draw(seat)

    def eliminate(self, seat: int, cause: str) -> None:
        """Put a seat out of the round; a Constable in their discard pile scores at once."""
        state = self.state
        discards = state.discards[seat]
        paying = [card for card in state.edition.pays_when_out if card in discards]
        self.emit(_player_eliminated(seat, state.hands[seat], cause))
        if cause != FORFEIT and seat not in state.forfeited:
            for card in paying:  # in the discard pile before the hand was laid down
                self.gain_token_now(seat, card)

    def gain_token_now(self, seat: int, reason: str) -> None:
        """A token gained mid-round (Bishop, Constable); reaching the target ends the game."""
        self.emit(_token_gained(seat, reason))
        if self.state.tokens[seat] >= self.state.target and seat not in self.state.forfeited:
            _end_round(self, (), "token-target")


FORFEIT = "forfeit"  # the cause of a forfeiting seat's elimination
# Round ends that stop a round unfinished: nobody wins it and no Spy or Jester token is paid.
UNFINISHED = ("token-target", FORFEIT)


def begin_turn(em: Emitter, seat: int) -> None:
    """Start a seat's turn: their protection ends and they draw (the deck is never empty here)."""
    em.emit(_turn_started(seat, em.state.deck[0]))


def finish_turn(em: Emitter) -> None:
    """After a turn resolves: end the round if it is decided, else start the next seat's turn."""
    state = em.state
    if state.phase is not ROUND:
        return
    if state.eliminated.count(False) <= 1:
        _end_round(em, tuple(state.seats_in_round()), "last-standing")
    elif not state.deck:
        _end_round(em, showdown_winners(state), "showdown")
    else:
        begin_turn(em, state.next_seat(state.turn_seat))


def _end_round(em: Emitter, winners: tuple[int, ...], reason: str) -> None:
    state = em.state
    remaining = state.seats_in_round()
    showdown = tuple(
        (seat, state.hands[seat][0])
        for seat in remaining
        if reason == "showdown" and state.hands[seat]
    )
    em.emit(
        ev.RoundEnded(
            state.round,
            winners,
            reason,
            showdown,
            state.set_aside,
            state.deck,
            state.dealt,
            state.salt,
        )
    )
    if reason not in UNFINISHED:
        for seat in winners:
            em.emit(_token_gained(seat, "round"))
        _pay_round_end_cards(em, state, remaining, winners)
    state = em.state
    game_winners = tuple(s for s in state.contenders() if state.tokens[s] >= state.target)
    if game_winners:
        em.emit(ev.GameEnded(game_winners))


def _pay_round_end_cards(
    em: Emitter, state: GameState, remaining: list[int], winners: tuple[int, ...]
) -> None:
    """Tokens some cards pay when a round is won: the Spy's lone discarder, the Jester's bet."""
    cards = state.edition.cards.values()
    for card in cards:
        if card.scores_alone:
            discarders = [seat for seat in remaining if card.id in state.discards[seat]]
            if len(discarders) == 1:
                em.emit(ev.TokenGained(discarders[0], card.id))
    for card in cards:
        if card.scores_with_chosen:  # the marks are the Jesters' (`GameState.jesters`)
            for seat, chosen in state.jesters:
                if chosen in winners:
                    em.emit(ev.TokenGained(seat, card.id))


def forfeit(em: Emitter, seat: int) -> None:
    """A seat gives up: out of the round now; the last seat that hasn't given up wins the game."""
    state = em.state
    em.emit(ev.SeatForfeited(seat))
    if state.phase is Phase.ROUND and not state.eliminated[seat]:
        was_acting = seat in (state.turn_seat, state.deciding_seat)
        em.eliminate(seat, FORFEIT)
        if was_acting:
            finish_turn(em)
        elif len(em.state.seats_in_round()) == 1:
            _end_round(em, tuple(em.state.seats_in_round()), "last-standing")
    remaining = em.state.contenders()
    if len(remaining) == 1 and em.state.phase is not Phase.OVER:
        if em.state.phase is Phase.ROUND:
            _end_round(em, (), "forfeit")
        if em.state.phase is not Phase.OVER:
            em.emit(ev.GameEnded(tuple(remaining)))


def sit_out_forfeited(em: Emitter) -> None:
    """At a round's start, seats that gave the game up lay their card down at once."""
    for seat in sorted(em.state.forfeited):
        em.eliminate(seat, FORFEIT)
