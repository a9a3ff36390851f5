"""What the other player's last play tells of the card it kept, at a two-player table.

There the other player's play is the last thing that happened before my turn, and everything
it saw then is public to me but its hand. So the play can be replayed: for each card it might
have kept, would the heuristic, holding that card and the one it played, have made the same
play, at the same player, naming the same card? The cards for which it would not lose weight
in the beliefs. It is exact for a player who plays as the heuristic does, and a mild lean for
any other (a card is only made EVIDENCE times as likely, never ruled out).
"""

from __future__ import annotations

from dataclasses import replace

from game.bots.beliefs import Beliefs
from game.bots.heuristic import Judge
from game.commands import PlayCard
from game.editions import EDITIONS
from game.legal import legal_commands
from game.state import Decision, GameState, Knowledge, Phase
from game.views import SeatView
from game.views import view as seat_view

# How much likelier than before a card stays when the heuristic would not have played as seen.
EVIDENCE = 0.02
# Cards played at me, and cards that take no player, whose play ends the turn with the card kept
# (not a Chancellor, which puts cards back unseen). Played at me, a King or a Baron shows me the
# card kept (nothing left to weigh); while my Handmaid protects me, any of them does nothing.
_AT_ME = frozenset({"guard", "priest", "prince", "king", "baron"})
_AT_NOBODY = frozenset({"handmaid", "countess", "spy"})
_SHOWN = frozenset({"king", "baron"})


def weigh_last_play(view: SeatView, beliefs: Beliefs) -> Beliefs:
    """`beliefs`, the other player's card weighed by its last play (unchanged if not 2 players
    or if that play can't be replayed)."""
    found = _last_play(view, beliefs)
    if found is None:
        return beliefs
    other, seen = found
    weights = {card: beliefs.lean(other, card) for card in beliefs.unseen}
    fits = {card: _would_play(view, (card, seen.card), seen) for card in weights}
    if not any(fits.values()):  # no card fits: the replay misread the table, weigh nothing
        return beliefs
    kept = dict(beliefs.kept)
    kept[other] = {
        card: weight * (1.0 if fits[card] else EVIDENCE) for card, weight in weights.items()
    }
    return replace(beliefs, kept=kept)


def _last_play(view: SeatView, beliefs: Beliefs) -> tuple[int, PlayCard] | None:
    """The other player's seat and its last play as I saw it, if a replay can read it."""
    me = view.you
    if me is None or len(view.seats) != 2 or view.decision != Decision.PLAY.value:
        return None
    if view.turn_seat != me or not view.hand or len(view.hand) != 2:
        return None
    other = 1 - me
    them = view.seats[other]
    if other in beliefs.held or them.eliminated or them.hand_size != 1 or not them.discards:
        return None
    played = them.discards[-1]
    if them.discards[-2:-1] == ("prince",) and _princed_itself(view, other, played):
        return None  # the top may be the card its own Prince made it discard this turn
    protected = _protected(view, me)
    if played in _AT_NOBODY or (played in _AT_ME and protected):
        return other, PlayCard(other, played)
    if played not in _AT_ME or played in _SHOWN:
        return None
    if played == "guard":
        guess = _guess(view, me)
        return None if guess is None else (other, PlayCard(other, played, (me,), guess))
    return other, PlayCard(other, played, (me,))


def _princed_itself(view: SeatView, other: int, discarded: str) -> bool:
    """Whether the heuristic, holding a Prince and the card on top of its pile, would have played
    the Prince at itself this turn (else that Prince was played at me on its turn before)."""
    itself = PlayCard(other, "prince", (other,))
    return _would_play(view, ("prince", discarded), itself, cut=2, drawn=2)


def _protected(view: SeatView, me: int) -> bool:
    """Whether my Handmaid protected me during the other player's turn (my last play)."""
    pile = view.seats[me].discards
    if view.seats[1 - me].discards[-1] == "prince":
        pile = pile[:-1]  # its Prince made me discard the card on top
    return bool(pile) and pile[-1] == "handmaid"


def _guess(view: SeatView, me: int) -> str | None:
    """The card the other player's Guard named at me: the clue its miss left, the last about me
    (every edition played by two names a card, not a number)."""
    mine = [clue for clue in view.ruled_out if clue.seat == me]
    if not mine or mine[-1].plays != len(view.seats[me].discards):
        return None
    named = mine[-1].cards
    return named[0] if len(named) == 1 else None


def _would_play(
    view: SeatView, hand: tuple[str, str], seen: PlayCard, cut: int = 1, drawn: int = 1
) -> bool:
    """Whether the heuristic, holding `hand`, would have played as seen (with either card as the
    one drawn: the order of a hand breaks its ties), the table rewound to before that play:
    `cut` cards off its pile, `drawn` cards back on the deck."""
    if seen.card == "prince" and seen.targets and seen.targets[0] != seen.seat:
        drawn += 1  # its Prince made me discard and draw
    for order in (hand, hand[::-1]):
        before = _before(view, seen, order, cut, drawn)
        legal = legal_commands(before)
        if not legal:
            return False
        chosen = legal[0] if len(legal) == 1 else Judge(seat_view(before, seen.seat)).best(legal)
        if chosen == seen:
            return True
    return False


def _before(
    view: SeatView, seen: PlayCard, hand: tuple[str, str], cut: int, drawn: int
) -> GameState:
    """The table as the other player saw it before `seen`, holding `hand`; my hand and the
    deck's cards stand in for what it could not see."""
    other = seen.seat
    me = 1 - other
    discards = [seat.discards for seat in view.seats]
    discards[other] = discards[other][:-cut]
    if drawn > cut:  # its Prince made me discard that card
        discards[me] = discards[me][:-1]
    mine = (view.hand or ("guard",))[0]
    knowledge = tuple(
        Knowledge(other, me, known.card, "seen", view.round, view.turn - 1)
        for known in view.seen_by
        if known.seat == other and seen.card != "priest"
    )
    filler = next(iter(view.face_up), mine)
    return GameState(
        edition=EDITIONS[view.edition],
        players=view.players,
        seed="before",
        tokens=tuple(seat.tokens for seat in view.seats),
        phase=Phase.ROUND,
        round=view.round,
        turn=max(view.turn - 1, 1),
        turn_seat=other,
        decision=Decision.PLAY,
        deciding_seat=None,
        hands=tuple(hand if seat == other else (mine,) for seat in range(2)),
        discards=tuple(discards),
        eliminated=(False, False),
        protected=tuple(seat == me and _protected(view, me) for seat in range(2)),
        deck=(filler,) * (view.deck_size + drawn),
        set_aside=filler,
        face_up=view.face_up,
        sycophant=None,
        jesters=(),
        knowledge=knowledge,
        commitment=view.commitment,
        round_winners=(),
        end_reason=None,
        showdown=(),
    )
