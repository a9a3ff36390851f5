"""Public clues in every view: a card a Guard named and missed, what a comparison's winner can't
hold, and who knows the card in your hand; and the search's beliefs reading them."""

from __future__ import annotations

from game import PlayCard, step, view
from game.bots.beliefs import Beliefs
from game.state import GameState, RuledOut
from game.views import SeenBy
from tests.unit.games import rest_of_deck, rigged

THREE = ("priest", "king", "baron", "handmaid", "prince")


def dealt(hands: list[str], deck: list[str]) -> GameState:
    """A classic round of len(hands) seats: these hands, this deck on top, the Princess aside."""
    return rigged("classic", hands, [*deck, *rest_of_deck("classic", *hands, *deck, "princess")],
                  "princess")  # fmt: skip


def every_view(state: GameState) -> list[tuple[RuledOut, ...]]:
    return [view(state, seat).ruled_out for seat in (None, *range(len(state.players)))]


def test_a_missed_guess_rules_the_named_card_out_in_every_view() -> None:
    """Everyone saw the Guard name a Prince and miss: seat 1 held no Prince then."""
    state = dealt(["guard", "king", "baron"], ["priest", "guard", "handmaid"])
    state = step(state, PlayCard(0, "guard", (1,), "prince"))[1]
    clue = RuledOut(1, ("prince",), 0)
    assert every_view(state) == [(clue,)] * 4
    state = step(state, PlayCard(1, "guard", (2,), "king"))[1]  # it plays on: the clue stays dated
    assert every_view(state) == [(clue, RuledOut(2, ("king",), 0))] * 4


def test_a_right_guess_rules_nothing_out() -> None:
    state = dealt(["guard", "king", "baron"], ["priest", "guard", "handmaid"])
    state = step(state, PlayCard(0, "guard", (1,), "king"))[1]
    assert every_view(state) == [()] * 4


def test_a_comparison_rules_out_the_winners_cards_not_above_the_losers() -> None:
    """Seat 1's Priest lies on its pile: seat 0, who won with the Baron, holds above a Priest."""
    state = dealt(["baron", "priest", "guard"], ["prince", "guard", "handmaid"])
    state = step(state, PlayCard(0, "baron", (1,)))[1]  # the Prince kept beats the Priest
    assert every_view(state) == [(RuledOut(0, ("guard", "priest"), 1),)] * 4


def test_a_swap_drops_what_was_ruled_out_of_both_hands() -> None:
    state = dealt(["guard", "baron", "guard"], ["king", "guard", "handmaid"])
    state = step(state, PlayCard(0, "guard", (1,), "prince"))[1]
    state = step(state, PlayCard(1, "guard", (0,), "priest"))[1]
    assert len(every_view(state)[0]) == 2
    state = step(state, PlayCard(2, "guard", (1,), "countess"))[1]
    state = step(state, PlayCard(0, "king", (2,)))[1]  # seat 0 and seat 2 swap
    assert every_view(state) == [(RuledOut(1, ("prince",), 0), RuledOut(1, ("countess",), 1))] * 4


def test_a_seat_sees_who_knows_its_card_and_no_one_else_does() -> None:
    state = dealt(["priest", "king", "baron"], ["guard", "guard", "handmaid"])
    state = step(state, PlayCard(0, "priest", (1,)))[1]
    assert view(state, 1).seen_by == (SeenBy(0, "king"),)
    assert view(state, 0).seen_by == () == view(state, 2).seen_by == view(state, None).seen_by


def test_a_bystander_who_followed_a_swapped_card_is_not_shown_to_its_new_holder() -> None:
    """Seat 2 can't tell whether seat 0 still knows the card it was given (seat 1 drew since)."""
    state = dealt(["priest", "baron", "guard"], ["guard", "guard", "king"])
    state = step(state, PlayCard(0, "priest", (1,)))[1]  # seat 0 sees seat 1's Baron
    state = step(state, PlayCard(1, "guard", (2,), "priest"))[1]
    state = step(state, PlayCard(2, "king", (1,)))[1]  # seat 2 now holds the Baron
    assert {(k.seat, k.card) for k in view(state, 0).known} >= {(2, "baron")}
    assert view(state, 2).seen_by == (SeenBy(1, "baron"),)  # its partner in the swap, not seat 0


def test_the_search_beliefs_give_a_ruled_out_card_no_weight() -> None:
    state = dealt(["guard", "king", "baron"], ["priest", "guard", "handmaid"])
    before = Beliefs.from_view(view(state, 0), habits=True).hand_odds(1)
    state = step(state, PlayCard(0, "guard", (1,), "prince"))[1]
    after = Beliefs.from_view(view(state, 0), habits=True).hand_odds(1)
    assert before["prince"] > 0.1
    assert after["prince"] < 1e-4
    assert abs(sum(after.values()) - 1.0) < 1e-9
