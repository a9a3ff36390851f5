"""Public clues in every view: a card a Guard named and missed, what a comparison's winner can't
hold (`game.clues`, followed beside the rules' state), and who knows the card in your hand; and
the search's beliefs reading them."""

from __future__ import annotations

import random

from game import PlayCard, step
from game.bots.beliefs import Beliefs
from game.clues import Clue, follow, follow_all
from game.commands import Command
from game.events import ChancellorDrew, TurnStarted
from game.evolve import evolve
from game.selfplay import play_clued
from game.state import GameState, Phase
from game.views import RuledOut, SeatView, SeenBy, view
from tests.unit.games import rest_of_deck, rigged

THREE = ("priest", "king", "baron", "handmaid", "prince")


class Round:
    """A classic round of len(hands) seats: these hands, this deck on top, the Princess aside;
    its clues followed as a table follows them."""

    def __init__(self, hands: list[str], deck: list[str]) -> None:
        rest = rest_of_deck("classic", *hands, *deck, "princess")
        self.state: GameState = rigged("classic", hands, [*deck, *rest], "princess")
        self.clues: tuple[Clue, ...] = ()

    def play(self, command: Command) -> None:
        events, self.state = step(self.state, command)
        self.clues = follow_all(self.clues, events, self.state)

    def view(self, seat: int | None) -> SeatView:
        return view(self.state, seat, clues=self.clues)

    def every_view(self) -> list[tuple[RuledOut, ...]]:
        seats = (None, *range(len(self.state.players)))
        return [self.view(seat).ruled_out for seat in seats]


def test_a_missed_guess_rules_the_named_card_out_in_every_view() -> None:
    """Everyone saw the Guard name a Prince and miss: seat 1 held no Prince then."""
    game = Round(["guard", "king", "baron"], ["priest", "guard", "handmaid"])
    game.play(PlayCard(0, "guard", (1,), "prince"))
    clue = RuledOut(1, ("prince",), 0)
    assert game.every_view() == [(clue,)] * 4
    game.play(PlayCard(1, "guard", (2,), "king"))  # it plays on: the clue stays dated
    assert game.every_view() == [(clue, RuledOut(2, ("king",), 0))] * 4


def test_a_right_guess_rules_nothing_out() -> None:
    game = Round(["guard", "king", "baron"], ["priest", "guard", "handmaid"])
    game.play(PlayCard(0, "guard", (1,), "king"))
    assert game.every_view() == [()] * 4


def test_a_comparison_rules_out_the_winners_cards_not_above_the_losers() -> None:
    """Seat 1's Priest lies on its pile: seat 0, who won with the Baron, holds above a Priest."""
    game = Round(["baron", "priest", "guard"], ["prince", "guard", "handmaid"])
    game.play(PlayCard(0, "baron", (1,)))  # the Prince kept beats the Priest
    assert game.every_view() == [(RuledOut(0, ("guard", "priest"), 1),)] * 4


def test_a_swap_drops_what_was_ruled_out_of_both_hands() -> None:
    game = Round(["guard", "baron", "guard"], ["king", "guard", "handmaid"])
    game.play(PlayCard(0, "guard", (1,), "prince"))
    game.play(PlayCard(1, "guard", (0,), "priest"))
    assert len(game.every_view()[0]) == 2
    game.play(PlayCard(2, "guard", (1,), "countess"))
    game.play(PlayCard(0, "king", (2,)))  # seat 0 and seat 2 swap
    assert game.every_view() == [(RuledOut(1, ("prince",), 0), RuledOut(1, ("countess",), 1))] * 4


def test_a_seat_sees_who_knows_its_card_and_no_one_else_does() -> None:
    game = Round(["priest", "king", "baron"], ["guard", "guard", "handmaid"])
    game.play(PlayCard(0, "priest", (1,)))
    assert game.view(1).seen_by == (SeenBy(0, "king"),)
    assert game.view(0).seen_by == () == game.view(2).seen_by == game.view(None).seen_by


def test_a_bystander_who_followed_a_swapped_card_is_not_shown_to_its_new_holder() -> None:
    """Seat 2 can't tell whether seat 0 still knows the card it was given (seat 1 drew since)."""
    game = Round(["priest", "baron", "guard"], ["guard", "guard", "king"])
    game.play(PlayCard(0, "priest", (1,)))  # seat 0 sees seat 1's Baron
    game.play(PlayCard(1, "guard", (2,), "priest"))
    game.play(PlayCard(2, "king", (1,)))  # seat 2 now holds the Baron
    assert {(k.seat, k.card) for k in game.view(0).known} >= {(2, "baron")}
    assert game.view(2).seen_by == (SeenBy(1, "baron"),)  # its partner in the swap, not seat 0


def test_the_search_beliefs_give_a_ruled_out_card_no_weight() -> None:
    game = Round(["guard", "king", "baron"], ["priest", "guard", "handmaid"])
    before = Beliefs.from_view(game.view(0), habits=True).hand_odds(1)
    game.play(PlayCard(0, "guard", (1,), "prince"))
    after = Beliefs.from_view(game.view(0), habits=True).hand_odds(1)
    assert before["prince"] > 0.1
    assert after["prince"] < 1e-4
    assert abs(sum(after.values()) - 1.0) < 1e-9


def test_self_play_shows_each_chooser_the_clues_so_far() -> None:
    """`play_clued` hands a chooser the clues folded from every event before its decision (so a
    tournament's bots see what a table's would), and they are not always empty."""
    rng = random.Random(3)
    given: list[tuple[int, tuple[Clue, ...]]] = []

    def choose(state: GameState, legal: list[Command], clues: tuple[Clue, ...]) -> Command:
        given.append((state.turn, clues))
        return rng.choice(legal)

    played = play_clued("classic", 4, "clues", choose)
    folded: list[tuple[int, tuple[Clue, ...]]] = []
    state, clues = None, ()
    for event in played.events:
        state = evolve(state, event)
        clues = follow(clues, event, state)
        if state.phase is Phase.ROUND and isinstance(event, (TurnStarted, ChancellorDrew)):
            folded.append((state.turn, clues))
    assert given == folded
    assert sum(bool(clues) for _, clues in given) > 10
