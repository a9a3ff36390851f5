"""What each card does once played (RULES.md sections 4 to 6), one small function per card."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from game import events as ev
from game.commands import PlayCard
from game.flow import Emitter, discard_and_draw, draw, eliminate, gain_token_now

# Events are values and these repeat all game long: each one is made once.
_guess_checked = cache(ev.GuessChecked)


def _held(em: Emitter, seat: int) -> str:
    return em.state.hands[seat][0]


def _rank(em: Emitter, card: str) -> int:
    return em.state.edition.rank[card]


def guard(em: Emitter, play: PlayCard) -> None:
    """Name a card (a number in premium): a right guess eliminates; the Assassin strikes back."""
    (target,) = play.targets
    held = _held(em, target)
    if held == "assassin":
        em.emit(ev.AssassinRevealed(target, play.seat))
        eliminate(em, play.seat, "assassin")
        if em.round_live:
            em.emit(ev.HandDiscarded(target, "assassin"))
            draw(em, target)
        return
    assert play.guess is not None
    by_number = em.state.edition.guess_by_number
    correct = (_rank(em, held) if by_number else held) == play.guess
    em.emit(_guess_checked(play.seat, target, play.guess, correct))
    if correct:
        eliminate(em, target, "guard")


def priest(em: Emitter, play: PlayCard) -> None:
    """Look at another player's hand."""
    (target,) = play.targets
    em.emit(ev.HandSeen(play.seat, target, _held(em, target)))


def _compare(em: Emitter, play: PlayCard, lower_loses: bool) -> None:
    (target,) = play.targets
    mine, theirs = _held(em, play.seat), _held(em, target)
    loser = None
    if _rank(em, mine) != _rank(em, theirs):
        mine_lower = _rank(em, mine) < _rank(em, theirs)
        loser = play.seat if mine_lower == lower_loses else target
    em.emit(ev.HandsCompared(play.seat, target, mine, theirs, loser))
    if loser is not None:
        eliminate(em, loser, play.card)


def baron(em: Emitter, play: PlayCard) -> None:
    """Compare hands; the lower rank is eliminated."""
    _compare(em, play, lower_loses=True)


def dowager_queen(em: Emitter, play: PlayCard) -> None:
    """Compare hands; the higher rank is eliminated."""
    _compare(em, play, lower_loses=False)


def handmaid(em: Emitter, play: PlayCard) -> None:
    """Protected until the start of your next turn."""
    em.emit(ev.ProtectionGained(play.seat))


def prince(em: Emitter, play: PlayCard) -> None:
    """The chosen player discards their hand and draws anew."""
    (target,) = play.targets
    discard_and_draw(em, target)


def _swap(em: Emitter, first: int, second: int) -> None:
    em.emit(ev.HandsSwapped(first, second, _held(em, second), _held(em, first)))


def king(em: Emitter, play: PlayCard) -> None:
    """Swap hands with another player."""
    _swap(em, play.seat, play.targets[0])


def princess(em: Emitter, play: PlayCard) -> None:
    """Playing her eliminates you."""
    eliminate(em, play.seat, "princess")


def chancellor(em: Emitter, play: PlayCard) -> None:
    """Draw two cards (one if only one is left); keeping one is the player's next decision."""
    cards = em.state.deck[:2]
    if cards:
        em.emit(ev.ChancellorDrew(play.seat, cards))


def bishop(em: Emitter, play: PlayCard) -> None:
    """Name a number: right, you score at once and the chosen player may discard and redraw."""
    (target,) = play.targets
    assert play.guess is not None
    correct = _rank(em, _held(em, target)) == play.guess
    em.emit(ev.GuessChecked(play.seat, target, play.guess, correct))
    if correct:
        gain_token_now(em, play.seat, "bishop")
        if em.round_live:
            em.emit(ev.RedrawOffered(target))


def sycophant(em: Emitter, play: PlayCard) -> None:
    """The next card that chooses players must choose this one if it can."""
    em.emit(ev.SycophantMarked(play.seat, play.targets[0]))


def baroness(em: Emitter, play: PlayCard) -> None:
    """Look at one or two other players' hands."""
    for target in play.targets:
        em.emit(ev.HandSeen(play.seat, target, _held(em, target)))


def cardinal(em: Emitter, play: PlayCard) -> None:
    """Two players swap hands; then look at one of their hands."""
    first, second = play.targets
    _swap(em, first, second)
    assert play.look is not None
    em.emit(ev.HandSeen(play.seat, play.look, _held(em, play.look)))


def jester(em: Emitter, play: PlayCard) -> None:
    """If the chosen player wins this round, you gain a token."""
    em.emit(ev.JesterMarked(play.seat, play.targets[0]))


def no_effect(em: Emitter, play: PlayCard) -> None:
    """Spy, Countess, Constable, Count, Assassin: nothing happens now."""


EFFECTS: dict[str, Callable[[Emitter, PlayCard], None]] = {
    "spy": no_effect,
    "guard": guard,
    "priest": priest,
    "baron": baron,
    "handmaid": handmaid,
    "prince": prince,
    "chancellor": chancellor,
    "king": king,
    "countess": no_effect,
    "princess": princess,
    "bishop": bishop,
    "dowager_queen": dowager_queen,
    "constable": no_effect,
    "count": no_effect,
    "sycophant": sycophant,
    "baroness": baroness,
    "cardinal": cardinal,
    "jester": jester,
    "assassin": no_effect,
}
