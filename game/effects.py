"""What each card does once played (docs/rules.md, "The cards"), one small function per card.

Each card's record in `game.cards` names its function here (`EFFECTS` gives each card its
function); the functions act through the `Emitter` of `game.flow` (draw, eliminate, gain a
token). The records are data and import nothing of this module, so the arrows run one way:
cards, editions, state, evolve, flow, effects, decide.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from game import events as ev
from game.cards import CARDS
from game.commands import PlayCard
from game.flow import Emitter

# What a played card does: it emits (and so applies) the events of its effect.
Effect = Callable[[Emitter, PlayCard], None]

# Events are values and these repeat all game long: each one is made once.
_guess_checked = cache(ev.GuessChecked)
_hand_seen = cache(ev.HandSeen)
_protection_gained = cache(ev.ProtectionGained)


def _held(em: Emitter, seat: int) -> str:
    return em.state.hands[seat][0]


def guard(em: Emitter, play: PlayCard) -> None:
    """Name a card (a number in premium): a right guess eliminates; an Assassin strikes back."""
    (target,) = play.targets
    edition = em.state.edition
    held = em.state.hands[target][0]
    if play.card in edition.cards[held].foils:
        em.emit(ev.AssassinRevealed(target, play.seat))
        em.eliminate(play.seat, held)
        if em.round_live:
            em.emit(ev.HandDiscarded(target, held))
            em.draw(target)
        return
    assert play.guess is not None
    correct = (edition.rank[held] if play.card in edition.names_numbers else held) == play.guess
    em.emit(_guess_checked(play.seat, target, play.guess, correct))
    if correct:
        em.eliminate(target, play.card)


def priest(em: Emitter, play: PlayCard) -> None:
    """Look at another player's hand."""
    (target,) = play.targets
    em.emit(_hand_seen(play.seat, target, _held(em, target)))


def _compare(em: Emitter, play: PlayCard, lower_loses: bool) -> None:
    (target,) = play.targets
    mine, theirs = _held(em, play.seat), _held(em, target)
    rank = em.state.edition.rank
    loser = None
    if rank[mine] != rank[theirs]:
        mine_lower = rank[mine] < rank[theirs]
        loser = play.seat if mine_lower == lower_loses else target
    em.emit(ev.HandsCompared(play.seat, target, mine, theirs, loser))
    if loser is not None:
        em.eliminate(loser, play.card)


def baron(em: Emitter, play: PlayCard) -> None:
    """Compare hands; the lower rank is eliminated."""
    _compare(em, play, lower_loses=True)


def dowager_queen(em: Emitter, play: PlayCard) -> None:
    """Compare hands; the higher rank is eliminated."""
    _compare(em, play, lower_loses=False)


def handmaid(em: Emitter, play: PlayCard) -> None:
    """Protected until the start of your next turn."""
    em.emit(_protection_gained(play.seat))


def prince(em: Emitter, play: PlayCard) -> None:
    """The chosen player discards their hand and draws anew."""
    (target,) = play.targets
    em.discard_and_draw(target)


def _swap(em: Emitter, first: int, second: int) -> None:
    em.emit(ev.HandsSwapped(first, second, _held(em, second), _held(em, first)))


def king(em: Emitter, play: PlayCard) -> None:
    """Swap hands with another player."""
    _swap(em, play.seat, play.targets[0])


def princess(em: Emitter, play: PlayCard) -> None:
    """Playing her eliminates you."""
    em.eliminate(play.seat, play.card)


def chancellor(em: Emitter, play: PlayCard) -> None:
    """Draw two cards (one if only one is left); keeping one is the player's next decision."""
    cards = em.state.deck[:2]
    if cards:
        em.emit(ev.ChancellorDrew(play.seat, cards))


def bishop(em: Emitter, play: PlayCard) -> None:
    """Name a number: right, you score at once and the chosen player may discard and redraw."""
    (target,) = play.targets
    assert play.guess is not None
    correct = em.state.edition.rank[_held(em, target)] == play.guess
    em.emit(ev.GuessChecked(play.seat, target, play.guess, correct))
    if correct:
        em.gain_token_now(play.seat, play.card)
        if em.round_live:
            em.emit(ev.RedrawOffered(target))


def sycophant(em: Emitter, play: PlayCard) -> None:
    """The next card that chooses players must choose this one if it can."""
    em.emit(ev.SycophantMarked(play.seat, play.targets[0]))


def baroness(em: Emitter, play: PlayCard) -> None:
    """Look at one or two other players' hands."""
    for target in play.targets:
        em.emit(_hand_seen(play.seat, target, _held(em, target)))


def cardinal(em: Emitter, play: PlayCard) -> None:
    """Two players swap hands; then look at one of their hands."""
    first, second = play.targets
    _swap(em, first, second)
    assert play.look is not None
    em.emit(_hand_seen(play.seat, play.look, _held(em, play.look)))


def jester(em: Emitter, play: PlayCard) -> None:
    """If the chosen player wins this round, you gain a token."""
    em.emit(ev.JesterMarked(play.seat, play.targets[0]))


def no_effect(em: Emitter, play: PlayCard) -> None:
    """Spy, Countess, Constable, Count, Assassin: nothing happens now."""


# Each card's effect, by card, as its record names it (a plain dict: read on every move).
_BY_NAME: dict[str, Effect] = {
    effect.__name__: effect
    for effect in (
        guard,
        priest,
        baron,
        dowager_queen,
        handmaid,
        prince,
        king,
        princess,
        chancellor,
        bishop,
        sycophant,
        baroness,
        cardinal,
        jester,
        no_effect,
    )
}
EFFECTS: dict[str, Effect] = {card.id: _BY_NAME[card.effect] for card in CARDS.values()}
