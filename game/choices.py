"""Choosing players (docs/rules.md, "Choosing players"), cards that must be played, naming."""

from __future__ import annotations

from functools import cache
from itertools import combinations

from game.cards import CARDS, Choice, Naming
from game.commands import PlayCard
from game.editions import Edition
from game.errors import IllegalCommand
from game.state import GameState


def forced_card(edition: Edition, hand: tuple[str, ...]) -> str | None:
    """The card this hand must play, if any (the Countess beside the King or the Prince...)."""
    for card, beside in edition.must_play:
        if card in hand and not beside.isdisjoint(hand):
            return card
    return None


def choosable_others(state: GameState, seat: int) -> tuple[int, ...]:
    """Other seats a card may choose: still in the round and not protected."""
    return choosable(state.eliminated, state.protected, seat)


@cache
def choosable(
    eliminated: tuple[bool, ...], protected: tuple[bool, ...], seat: int
) -> tuple[int, ...]:
    """`choosable_others` from the state's flags (cached: they repeat all game long)."""
    return tuple(
        other
        for other in range(len(eliminated))
        if other != seat and not eliminated[other] and not protected[other]
    )


@cache
def guesses(edition: Edition, card: str) -> tuple[str | int, ...]:
    """What `card` may name in this edition (a Guard, a Bishop); () when it names nothing."""
    naming = CARDS[card].naming_in(edition.id)
    nameable = [other for other in edition.cards.values() if not other.unnameable]
    if naming is Naming.NUMBER:
        return tuple(sorted({edition.rank[other.id] for other in nameable}))
    if naming is Naming.CARD:
        return tuple(other.id for other in nameable)
    return ()


def target_options(state: GameState, seat: int, card: str) -> tuple[tuple[int, ...], ...]:
    """Every legal choice of players for `card`, sorted; ((),) when it takes no choice."""
    return options(card, seat, choosable_others(state, seat), state.sycophant)


@cache
def options(
    card: str, seat: int, others: tuple[int, ...], mark: int | None
) -> tuple[tuple[int, ...], ...]:
    """Legal choices of players for `card` given the choosable others and a Sycophant's mark."""
    kind = CARDS[card].chooses
    if kind is Choice.NONE or (not others and kind is not Choice.ANY):
        return ((),)
    options: list[tuple[int, ...]]
    if kind is Choice.OTHER:
        options = [(other,) for other in others]
    elif kind is Choice.ANY:
        options = [(other,) for other in sorted([seat, *others])]
    elif kind is Choice.ONE_OR_TWO_OTHERS:
        options = [(other,) for other in others] + list(combinations(others, 2))
    else:
        options = list(combinations(sorted([seat, *others]), 2))
    if mark is None or (mark == seat and not kind.self_allowed):
        return tuple(options)
    bound = [option for option in options if mark in option]
    return tuple(bound or options)


def normalised(play: PlayCard) -> PlayCard:
    """The command with several chosen players in seat order (their order carries no meaning)."""
    if len(play.targets) < 2:
        return play
    return PlayCard(play.seat, play.card, tuple(sorted(play.targets)), play.guess, play.look)


def check_choices(state: GameState, play: PlayCard) -> None:
    """Raise IllegalCommand unless the players, name or number and look chosen are legal."""
    kind = CARDS[play.card].chooses
    for target in play.targets:
        _check_target(state, play.seat, target, kind.self_allowed)
    if len(set(play.targets)) != len(play.targets):
        raise IllegalCommand("duplicate-target", "The same player can't be chosen twice.")
    options = target_options(state, play.seat, play.card)
    if options == ((),):
        if play.targets or play.guess is not None or play.look is not None:
            raise IllegalCommand(
                "unexpected-choice",
                f"The {_name(play.card)} is played here without choosing anyone or anything.",
            )
        return
    _check_count(kind, len(play.targets))
    if play.targets not in options:
        raise IllegalCommand(
            "sycophant-target-required",
            "The Sycophant's mark obliges this card to choose "
            f"{state.players[state.sycophant or 0]}.",
        )
    _check_guess(state.edition, play)
    _check_look(kind, play)


def _name(card: str) -> str:
    return card.replace("_", " ").title()


def _check_target(state: GameState, seat: int, target: int, self_allowed: bool) -> None:
    if isinstance(target, bool) or not 0 <= target < len(state.players):
        raise IllegalCommand("unknown-target", f"There is no player {target!r} in this game.")
    if target == seat and not self_allowed:
        raise IllegalCommand("target-self", "This card must choose another player.")
    if state.eliminated[target]:
        raise IllegalCommand("target-eliminated", f"{state.players[target]} is out of the round.")
    if state.protected[target] and target != seat:
        raise IllegalCommand(
            "target-protected", f"{state.players[target]} is protected by the Handmaid."
        )


_TARGET_COUNTS = {
    Choice.OTHER: (1, 1),
    Choice.ANY: (1, 1),
    Choice.ONE_OR_TWO_OTHERS: (1, 2),
    Choice.TWO_AND_LOOK: (2, 2),
}


def _check_count(kind: Choice, count: int) -> None:
    low, high = _TARGET_COUNTS[kind]
    if count == 0:
        raise IllegalCommand("target-required", "This card must choose a player.")
    if not low <= count <= high:
        expected = "one or two players" if high == 2 and low == 1 else f"exactly {low} player(s)"
        raise IllegalCommand("wrong-target-count", f"This card chooses {expected}.")


def _check_guess(edition: Edition, play: PlayCard) -> None:
    naming = CARDS[play.card].naming_in(edition.id)
    if naming is Naming.NOTHING:
        if play.guess is not None:
            raise IllegalCommand("unexpected-choice", f"The {_name(play.card)} names nothing.")
        return
    guess, card, allowed = play.guess, _name(play.card), guesses(edition, play.card)
    if guess is None:
        raise IllegalCommand("guess-required", f"The {card} must name a card or a number.")
    if naming is Naming.NUMBER:
        low, high = min(edition.rank.values()), max(edition.rank.values())
        if not isinstance(guess, int) or isinstance(guess, bool) or not low <= guess <= high:
            raise IllegalCommand(
                "guess-invalid", f"The {card} names a number from {low} to {high}."
            )
        if guess not in allowed:
            raise IllegalCommand("guess-guard", f"The {card} can't name {guess}.")
        return
    if not isinstance(guess, str) or guess not in edition.rank:
        raise IllegalCommand("guess-invalid", f"The {card} names a card of this edition.")
    if guess not in allowed:
        raise IllegalCommand("guess-guard", f"The {card} can't name the {_name(guess)}.")


def _check_look(kind: Choice, play: PlayCard) -> None:
    if kind is not Choice.TWO_AND_LOOK:
        if play.look is not None:
            raise IllegalCommand("unexpected-choice", f"Only the {_LOOKERS} looks at a hand.")
        return
    card = _name(play.card)
    if play.look is None:
        raise IllegalCommand("look-required", f"The {card} must look at one of the two players.")
    if play.look not in play.targets:
        raise IllegalCommand("look-invalid", f"The {card} looks at one of the two chosen players.")


# The cards that look at a hand after choosing players (the Cardinal), for refusals.
_LOOKERS = " or the ".join(c.name for c in CARDS.values() if c.chooses is Choice.TWO_AND_LOOK)
