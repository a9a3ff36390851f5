"""The flow of a round around the cards: turns, draws, eliminations, tokens, round and game end."""

from __future__ import annotations

from game import events as ev
from game.evolve import evolve
from game.showdown import showdown_winners
from game.state import GameState, Phase


class Emitter:
    """Collects a command's events, folding each one in so later rules see its outcome."""

    def __init__(self, state: GameState | None) -> None:
        self.state = state  # type: ignore[assignment]
        self.events: list[ev.Event] = []

    state: GameState

    def emit(self, event: ev.Event) -> None:
        """Record an event and apply it."""
        self.events.append(event)
        self.state = evolve(self.state, event)

    @property
    def round_live(self) -> bool:
        """Whether the round is still being played (no round or game end happened)."""
        return self.state.phase is Phase.ROUND


def begin_turn(em: Emitter, seat: int) -> None:
    """Start a seat's turn: their protection ends and they draw (the deck is never empty here)."""
    em.emit(ev.TurnStarted(seat, em.state.deck[0]))


def draw(em: Emitter, seat: int) -> None:
    """Draw the deck's top card, or the face-down set-aside card when the deck is empty."""
    state = em.state
    if state.deck:
        em.emit(ev.CardDrawn(seat, state.deck[0]))
    elif state.set_aside is not None:
        em.emit(ev.CardDrawn(seat, state.set_aside, from_set_aside=True))


def discard_and_draw(em: Emitter, seat: int) -> None:
    """Discard the hand without effect and draw again; a discarded Princess eliminates instead."""
    (card,) = em.state.hands[seat]
    em.emit(ev.HandDiscarded(seat, card))
    if card == "princess":
        eliminate(em, seat, "princess")
    else:
        draw(em, seat)


def eliminate(em: Emitter, seat: int, cause: str) -> None:
    """Put a seat out of the round; a Constable already in their discard pile scores at once."""
    state = em.state
    had_constable = "constable" in state.discards[seat]
    em.emit(ev.PlayerEliminated(seat, state.hands[seat], cause))
    if had_constable:
        gain_token_now(em, seat, "constable")


def gain_token_now(em: Emitter, seat: int, reason: str) -> None:
    """A token gained mid-round (Bishop, Constable); reaching the target ends the game at once."""
    em.emit(ev.TokenGained(seat, reason))
    if em.state.tokens[seat] >= em.state.target:
        _end_round(em, (), "token-target")


def finish_turn(em: Emitter) -> None:
    """After a turn resolves: end the round if it is decided, else start the next seat's turn."""
    state = em.state
    if state.phase is not Phase.ROUND:
        return
    remaining = state.seats_in_round()
    if len(remaining) <= 1:
        _end_round(em, tuple(remaining), "last-standing")
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
    if reason != "token-target":
        for seat in winners:
            em.emit(ev.TokenGained(seat, "round"))
        spies = [seat for seat in remaining if "spy" in state.discards[seat]]
        if len(spies) == 1:
            em.emit(ev.TokenGained(spies[0], "spy"))
        for jester, chosen in state.jesters:
            if chosen in winners:
                em.emit(ev.TokenGained(jester, "jester"))
    target = em.state.target
    game_winners = tuple(seat for seat, tokens in enumerate(em.state.tokens) if tokens >= target)
    if game_winners:
        em.emit(ev.GameEnded(game_winners))
