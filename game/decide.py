"""`decide(state, command) -> events`: every rule check lives here, and all randomness."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, NoReturn

from game import events as ev
from game.cards import CARDS, Choice
from game.chance import Chance
from game.choices import check_choices, forced_card, normalised
from game.commands import (
    AnswerRedraw,
    Command,
    Deal,
    FinishChancellor,
    Forfeit,
    PlayCard,
    StartGame,
    StartRound,
)
from game.editions import EDITIONS, Edition
from game.effects import EFFECTS
from game.errors import IllegalCommand
from game.fairness import commitment, dealt_order
from game.flow import Emitter, begin_turn, finish_turn, forfeit, sit_out_forfeited
from game.legal import play_event
from game.state import Decision, GameState, Phase


def decide(state: GameState | None, command: Command) -> list[ev.Event]:
    """The events a command produces; raises IllegalCommand when the rules refuse it."""
    return step(state, command)[0]


def step(state: GameState | None, command: Command) -> tuple[list[ev.Event], GameState]:
    """Decide a command and also return the state after its events (saves folding them again)."""
    emitter = Emitter(state)
    _HANDLERS[type(command)](emitter, command)
    return emitter.events, emitter.state


def _start_game(em: Emitter, command: StartGame) -> None:
    if em.state is not None:
        raise IllegalCommand("game-already-started", "This game has already started.")
    edition = EDITIONS.get(command.edition)
    if edition is None:
        raise IllegalCommand("unknown-edition", f"There is no edition {command.edition!r}.")
    count = len(command.players)
    if not edition.min_players <= count <= edition.max_players:
        raise IllegalCommand(
            "wrong-player-count",
            f"{edition.id} is played by {edition.min_players} to {edition.max_players} players.",
        )
    if len(set(command.players)) != count or not all(command.players):
        raise IllegalCommand("bad-players", "Players need distinct, non-empty names.")
    first = command.first_player
    if first is None:
        first = Chance(command.seed, "first-player").below(count)
    elif not 0 <= first < count:
        raise IllegalCommand(
            "unknown-seat", f"There is no seat {first}: seats are 0 to {count - 1}."
        )
    em.emit(ev.GameStarted(edition.id, tuple(command.players), command.seed))
    _deal(em, first, command.deal)


def _game_on(state: GameState | None) -> GameState:
    """The state of a game that has started and is not over."""
    if state is None:
        raise IllegalCommand("game-not-started", "This game has not started.")
    if state.phase is Phase.OVER:
        raise IllegalCommand("game-over", "This game is over.")
    return state


def _check_seat(state: GameState, seat: int) -> None:
    if isinstance(seat, bool) or not 0 <= seat < len(state.players):
        last = len(state.players) - 1
        raise IllegalCommand("unknown-seat", f"There is no seat {seat!r}: seats are 0 to {last}.")


def _start_round(em: Emitter, command: StartRound) -> None:
    state = _game_on(em.state)
    if state.phase is Phase.ROUND:
        raise IllegalCommand("round-in-progress", "The current round is still being played.")
    winners = state.round_winners or tuple(range(len(state.players)))
    chance = Chance(state.seed, "round", state.round + 1, draws=len(state.edition.deck) + 5)
    first = winners[0] if len(winners) == 1 else chance.choice(winners)
    _deal(em, first, command.deal, chance)


def _deal(em: Emitter, first: int, deal: Deal | None, chance: Chance | None = None) -> None:
    """Deal the next round (shuffled by the game's seeded source unless rigged); `first` starts."""
    state = em.state
    number = state.round + 1
    chance = chance or Chance(state.seed, "round", number, draws=len(state.edition.deck) + 5)
    if deal is None:
        deal = _shuffled_deal(state.edition, len(state.players), chance)
    else:
        _check_deal(state.edition, len(state.players), deal)
    salt = chance.salt()
    order = dealt_order(deal.set_aside, deal.face_up, deal.hands, deal.deck)
    em.emit(
        ev.RoundStarted(
            number,
            first,
            deal.set_aside,
            deal.face_up,
            deal.hands,
            deal.deck,
            salt,
            commitment(salt, order),
        )
    )
    sit_out_forfeited(em)
    begin_turn(em, first)


def _shuffled_deal(edition: Edition, players: int, chance: Chance) -> Deal:
    cards = chance.shuffled(edition.deck)
    face_up = edition.face_up_count(players)
    hands_from = 1 + face_up
    return Deal(
        set_aside=cards[0],
        face_up=tuple(cards[1:hands_from]),
        hands=tuple(cards[hands_from : hands_from + players]),
        deck=tuple(cards[hands_from + players :]),
    )


def _check_deal(edition: Edition, players: int, deal: Deal) -> None:
    order = dealt_order(deal.set_aside, deal.face_up, deal.hands, deal.deck)
    if Counter(order) != Counter(edition.deck):
        raise IllegalCommand("bad-deal", "A deal must hold exactly the edition's cards.")
    if len(deal.hands) != players or len(deal.face_up) != edition.face_up_count(players):
        raise IllegalCommand("bad-deal", "A deal needs one hand per player and the face-up cards.")


def _check_turn(state: GameState | None, seat: int, wanted: Decision) -> GameState:
    """The state, if `seat` is the one that must make decision `wanted` now."""
    # The common case first (a bool seat is refused below, though True == 1), with
    # `state.current` written out: a property is read the slow way on every move.
    if state is not None and state.decision is wanted and state.phase is _ROUND:
        deciding = state.deciding_seat
        if seat == (state.turn_seat if deciding is None else deciding) and type(seat) is int:
            return state
    state = _game_on(state)
    if state.phase is not Phase.ROUND:
        raise IllegalCommand("round-over", "The round is over; the next one is not dealt yet.")
    _check_seat(state, seat)
    if seat != state.current:
        raise IllegalCommand("not-your-turn", f"It is {state.players[state.current or 0]}'s turn.")
    if state.decision is not wanted:
        raise IllegalCommand(*_WRONG_DECISION[state.decision])
    return state


_WRONG_DECISION: dict[Decision | None, tuple[str, str]] = {
    Decision.PLAY: ("no-decision-pending", "Play a card: nothing else is waiting for you."),
    Decision.CHANCELLOR: (
        "chancellor-pending",
        "Finish the Chancellor first: keep one card and put the others under the deck.",
    ),
    Decision.REDRAW: ("redraw-pending", "Answer the Bishop first: redraw or not."),
}


# Read on every move: module constants are quicker than the enums' attributes.
_PLAY, _NO_CHOICE, _ROUND = Decision.PLAY, Choice.NONE, Phase.ROUND


def _play_card(em: Emitter, command: PlayCard) -> None:
    state = _check_turn(em.state, command.seat, _PLAY)
    play = command if len(command.targets) < 2 else normalised(command)
    played = play_event(state, play)
    if played is None:
        _refuse(state, play)
    em.emit(played)
    if play.targets or CARDS[play.card].chooses is _NO_CHOICE:
        EFFECTS[play.card](em, play)
    if em.state.decision is _PLAY:
        finish_turn(em)


def _refuse(state: GameState, play: PlayCard) -> NoReturn:
    """Raise the reason why this play, which no legal play matches, is refused."""
    hand = state.hands[play.seat]
    if play.card not in hand:
        if play.card not in state.edition.rank:
            raise IllegalCommand("unknown-card", f"There is no {play.card!r} in this edition.")
        raise IllegalCommand("card-not-in-hand", f"You don't hold a {play.card}.")
    forced = forced_card(state.edition, hand)
    if forced is not None and play.card != forced:
        raise IllegalCommand(
            f"{forced}-required",
            "With the King or the Prince (or the Princess, "
            "in classic and premium) in hand, you must play the Countess.",
        )
    check_choices(state, play)  # raises with the precise reason
    raise IllegalCommand("illegal-choice", "These choices are not legal for this card now.")


def _finish_chancellor(em: Emitter, command: FinishChancellor) -> None:
    state = _check_turn(em.state, command.seat, Decision.CHANCELLOR)
    hand = state.hands[command.seat]
    if Counter((command.keep, *command.bottom)) != Counter(hand):
        raise IllegalCommand(
            "chancellor-cards-mismatch",
            f"Keep one of {', '.join(hand)} and put all the others under the deck.",
        )
    em.emit(ev.ChancellorReturned(command.seat, command.keep, tuple(command.bottom)))
    finish_turn(em)


def _answer_redraw(em: Emitter, command: AnswerRedraw) -> None:
    _check_turn(em.state, command.seat, Decision.REDRAW)
    em.emit(ev.RedrawAnswered(command.seat, command.redraw))
    if command.redraw:
        em.discard_and_draw(command.seat)
    finish_turn(em)


def _forfeit(em: Emitter, command: Forfeit) -> None:
    state = _game_on(em.state)
    _check_seat(state, command.seat)
    if command.seat in state.forfeited:
        raise IllegalCommand("already-forfeited", "This seat has already given the game up.")
    forfeit(em, command.seat)


_HANDLERS: dict[type, Callable[[Emitter, Any], None]] = {
    StartGame: _start_game,
    StartRound: _start_round,
    PlayCard: _play_card,
    FinishChancellor: _finish_chancellor,
    AnswerRedraw: _answer_redraw,
    Forfeit: _forfeit,
}
