"""The other player's last play as evidence of its card, at two players (`game.bots.evidence`):
replayed from my view alone, it keeps the card really held and sharpens the odds."""

from __future__ import annotations

from dataclasses import dataclass

from game import PlayCard, step
from game.bots.beliefs import Beliefs
from game.bots.evidence import weigh_last_play
from game.bots.heuristic import Judge
from game.clues import Clue
from game.commands import Command
from game.selfplay import play_clued
from game.state import GameState
from game.views import SeatView, view
from tests.unit.games import rest_of_deck, rigged


@dataclass
class Replayed:
    """What the evidence did at one of seat 0's turns: the other's true card, its odds before
    and after, and whether the evidence kept it."""

    true_card: str
    before: float
    after: float
    kept: bool


def replays(edition: str, games: int) -> list[Replayed]:
    """Two heuristic players; at each of seat 0's turns the evidence is weighed from its view."""
    found: list[Replayed] = []
    for number in range(games):

        def choose(state: GameState, legal: list[Command], clues: tuple[Clue, ...]) -> Command:
            seen = view(state, state.current, clues=clues)
            if state.current == 0 and len(state.hands[1]) == 1:
                plain = Beliefs.from_view(seen, habits=True)
                weighed = weigh_last_play(seen, plain)
                if weighed is not plain:
                    card = state.hands[1][0]
                    before, after = plain.hand_odds(1), weighed.hand_odds(1)
                    kept = weighed.lean(1, card) >= plain.lean(1, card) * 0.5
                    found.append(Replayed(card, before.get(card, 0), after.get(card, 0), kept))
            return legal[0] if len(legal) == 1 else Judge(seen).best(legal)

        play_clued(edition, 2, f"evidence:{number}", choose)
    return found


def test_the_replay_keeps_the_card_really_held_and_sharpens_its_odds() -> None:
    """Against the heuristic the replay is exact but for what the other player alone knew (cards
    it put under the deck): the true card is kept in at least 99% of replays, and its odds grow."""
    for edition in ("2019", "classic"):
        found = replays(edition, 40)
        assert len(found) > 300, edition
        kept = sum(replayed.kept for replayed in found) / len(found)
        assert kept >= 0.99, (edition, kept)
        before = sum(replayed.before for replayed in found) / len(found)
        after = sum(replayed.after for replayed in found) / len(found)
        assert after > before + 0.05, (edition, before, after)


FACE_UP = ("guard", "guard", "countess")


def classic_round(hands: list[str], deck: list[str]) -> GameState:
    """A classic two-player round: these hands, this deck on top, the Princess aside, two
    Guards and the Countess face up."""
    rest = rest_of_deck("classic", *hands, *deck, "princess", *FACE_UP)
    return rigged("classic", hands, [*deck, *rest], "princess", FACE_UP)


def my_view_after(state: GameState, *plays: PlayCard) -> SeatView:
    """Seat 0's view once these plays are made (with no clues: none are needed here)."""
    for play in plays:
        state = step(state, play)[1]
    return view(state, 0)


def test_a_handmaid_played_tells_the_card_kept_was_no_guard_nor_priest() -> None:
    """The heuristic would have played a Guard or a Priest before a Handmaid, so once it has
    played a Handmaid, those two lose weight as the card it kept; the other cards keep theirs."""
    state = classic_round(["priest", "baron"], ["king", "handmaid", "guard"])
    seen = my_view_after(state, PlayCard(0, "priest", (1,)), PlayCard(1, "handmaid"))
    # Seat 0 saw the Baron with its Priest: forget that, so the odds are open.
    seen = SeatView(**{**seen.__dict__, "known": ()})
    plain = Beliefs.from_view(seen, habits=True)
    weighed = weigh_last_play(seen, plain)
    lower = {card for card in plain.unseen if weighed.lean(1, card) < plain.lean(1, card)}
    assert lower == {"guard", "priest"}
    assert all(weighed.lean(1, card) == plain.lean(1, card) for card in plain.unseen
               if card not in lower)  # fmt: skip


def test_nothing_is_weighed_at_three_players_or_when_the_card_is_known() -> None:
    """Between my turns at three players more than one play happened; a card seen is known."""
    rest = rest_of_deck("classic", "priest", "baron", "guard", "king", "handmaid", "princess")
    three = rigged("classic", ["priest", "baron", "guard"], ["king", "handmaid", *rest], "princess")
    seen = view(step(step(three, PlayCard(0, "priest", (1,)))[1], PlayCard(1, "handmaid"))[1], 0)
    plain = Beliefs.from_view(seen, habits=True)
    assert weigh_last_play(seen, plain) is plain
    state = classic_round(["priest", "baron"], ["king", "handmaid", "guard"])
    seen = my_view_after(state, PlayCard(0, "priest", (1,)), PlayCard(1, "handmaid"))
    plain = Beliefs.from_view(seen, habits=True)
    assert plain.held == {1: "baron"}
    assert weigh_last_play(seen, plain) is plain
