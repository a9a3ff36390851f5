"""What the heuristic bot reckons playing each card is worth, one function per card.

`HINTS` names each card's function; each reads what the seat reckons (`game.bots.reckoning`), and
the bot (`game.bots.heuristic`) adds the worth of the card it keeps. Values are in tokens
(`game.bots.worth`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from game.bots.reckoning import Reckoning
from game.bots.worth import ELIMINATE, NEVER, NEVER_GIVE_UP, OUT, TOKEN
from game.commands import PlayCard


def nothing(_j: Reckoning, _p: PlayCard, _kept: str | None) -> float:
    """A card whose play changes nothing the bot weighs (Countess, Assassin)."""
    return 0.0


def guard(j: Reckoning, play: PlayCard, _kept: str | None) -> float:
    """The odds of a right guess, against those of a card that strikes back (the Assassin)."""
    if not play.targets:
        return 0.0
    return guesses(j, play.card, play.targets[0])(play.guess)


def guesses(j: Reckoning, card: str, target: int) -> Callable[[str | int | None], float]:
    """What each guess a Guard (`card`) could name at `target` is worth: the work shared by
    every guess at one player done once (a Guard has a dozen guesses at each player)."""
    odds = j.odds(target)
    foiling = j.foiling(target, card)
    foiled = sum(foiling.values()) if foiling else 0.0
    threat = j.threat(target)
    struck = foiled * OUT
    rank = j.rank
    numbers = j.rank_odds(target) if card in j.beliefs.edition.names_numbers else {}
    # A foiling card of the number named is no right guess.
    foiled_at = {number: sum(p for card, p in foiling.items() if rank[card] == number)
                 for number in {rank[card] for card in foiling}}  # fmt: skip

    def worth(guess: str | int | None) -> float:
        if isinstance(guess, int):
            right = numbers.get(guess, 0.0) - foiled_at.get(guess, 0)
            tie = 0.001 * guess
        else:
            right = odds.get(guess or "", 0.0)
            tie = 0.001 * rank.get(guess or "", 0)
        return right * ELIMINATE * threat - struck + tie

    return worth


def priest(j: Reckoning, play: PlayCard, kept: str | None) -> float:
    """Learning a hand, worth more with a Guard kept to use it."""
    if not play.targets:
        return 0.0
    if play.targets[0] in j.beliefs.held:
        return 0.02
    return 0.1 + (0.12 if kept == "guard" else 0.0)


def _compare(j: Reckoning, play: PlayCard, kept: str | None, lower_loses: bool) -> float:
    if not play.targets or kept is None:
        return 0.0
    (target,) = play.targets
    mine = j.rank[kept]
    lower = higher = 0.0
    for rank, p in j.rank_odds(target).items():
        if rank < mine:
            lower += p
        elif rank > mine:
            higher += p
    win, lose = (lower, higher) if lower_loses else (higher, lower)
    return win * ELIMINATE * j.threat(target) - lose * OUT


def baron(j: Reckoning, play: PlayCard, kept: str | None) -> float:
    """The odds that the kept card is higher, against those that it is lower."""
    return _compare(j, play, kept, lower_loses=True)


def dowager_queen(j: Reckoning, play: PlayCard, kept: str | None) -> float:
    """The odds that the kept card is lower, against those that it is higher."""
    return _compare(j, play, kept, lower_loses=False)


def handmaid(j: Reckoning, _p: PlayCard, kept: str | None) -> float:
    """Protection, worth more the better the kept card."""
    return 0.15 + 0.15 * (j.rank[kept] / j.top if kept else 0.0)


def prince(j: Reckoning, play: PlayCard, kept: str | None) -> float:
    """On oneself, a fresh card for the kept one; on another, the odds of a discarded Princess."""
    (target,) = play.targets
    if target == j.you:
        if kept in NEVER_GIVE_UP:
            return NEVER
        discarded = spy(j, play, None) if kept == "spy" else 0.0
        return j.fresh() - j.keep(kept) + discarded
    odds = j.odds(target)
    princess = odds.get("princess", 0.0)
    known = j.beliefs.held.get(target)
    loss = 0.2 * j.rank[known] / j.top if known else 0.0
    return (princess * ELIMINATE + 0.05 + loss) * j.threat(target)


def _swap_with(j: Reckoning, other: int, kept: str | None) -> float:
    """Giving away `kept` for `other`'s card (King, a Cardinal that chooses its player)."""
    if kept in NEVER_GIVE_UP:
        return -0.5
    return j.expected_keep(other) - j.keep(kept) - 0.05


def king(j: Reckoning, play: PlayCard, kept: str | None) -> float:
    """The other player's card for the kept one."""
    if not play.targets:
        return 0.0
    return _swap_with(j, play.targets[0], kept)


def princess(_j: Reckoning, _p: PlayCard, _kept: str | None) -> float:
    """Never."""
    return NEVER


def chancellor(j: Reckoning, _p: PlayCard, _kept: str | None) -> float:
    """A choice among more cards, while the deck has any."""
    return 0.12 if j.view.deck_size else 0.0


def spy(j: Reckoning, _p: PlayCard, _kept: str | None) -> float:
    """A first Spy in the discard pile, worth a little more when a rival has one too."""
    seats = j.view.seats
    if "spy" in seats[j.you].discards:
        return 0.0
    rivals = any(s.seat != j.you and not s.eliminated and "spy" in s.discards for s in seats)
    return 0.3 if rivals else 0.25


def bishop(j: Reckoning, play: PlayCard, _kept: str | None) -> float:
    """The odds of a right number: a token at once."""
    if not play.targets or play.guess is None:
        return 0.0
    right = j.rank_odds(play.targets[0]).get(int(play.guess), 0.0)
    return right * TOKEN + 0.001 * int(play.guess)


def sycophant(j: Reckoning, play: PlayCard, _kept: str | None) -> float:
    """Marking a threatening player; not oneself."""
    (target,) = play.targets
    return -0.05 if target == j.you else 0.03 * j.threat(target)


def baroness(j: Reckoning, play: PlayCard, _kept: str | None) -> float:
    """Learning the hands not known yet."""
    return sum(0.0 if t in j.beliefs.held else 0.06 for t in play.targets)


def cardinal(j: Reckoning, play: PlayCard, kept: str | None) -> float:
    """A swap with oneself as a King, else a look at a hand not known yet."""
    if not play.targets:
        return 0.0
    if j.you in play.targets:
        other = play.targets[0] if play.targets[1] == j.you else play.targets[1]
        return _swap_with(j, other, kept) + 0.02
    return 0.06 if play.look not in j.beliefs.held else 0.04


def jester(j: Reckoning, play: PlayCard, _kept: str | None) -> float:
    """Betting on the player likeliest to win the round."""
    if not play.targets:
        return 0.0
    (target,) = play.targets
    strength = sum(j.rank[c] * p for c, p in j.odds(target).items()) / j.top
    return 0.05 + 0.15 * strength


def constable(_j: Reckoning, _p: PlayCard, _kept: str | None) -> float:
    """A token if put out later."""
    return 0.12


def count(_j: Reckoning, _p: PlayCard, _kept: str | None) -> float:
    """One more at the showdown."""
    return 0.1


# What playing a card is worth: (judge, the play, the card kept) -> value.
Hint = Callable[[Reckoning, PlayCard, "str | None"], float]

HINTS: Mapping[str, Hint] = MappingProxyType(
    {
        "jester": jester,
        "assassin": nothing,
        "spy": spy,
        "guard": guard,
        "priest": priest,
        "cardinal": cardinal,
        "baron": baron,
        "baroness": baroness,
        "handmaid": handmaid,
        "sycophant": sycophant,
        "prince": prince,
        "count": count,
        "chancellor": chancellor,
        "king": king,
        "constable": constable,
        "countess": nothing,
        "dowager_queen": dowager_queen,
        "princess": princess,
        "bishop": bishop,
    }
)
