"""Bot policies: legal, deterministic, blind to hidden cards, and sensible where the issue says."""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game import PlayCard, legal_commands, step, view
from game.bots import POLICIES, Options, Policy, make_policy
from game.bots.beliefs import Beliefs
from game.bots.heuristic import Judge
from game.bots.hints import HINTS
from game.bots.levels import FEWEST_WORLDS, MOST_WORLDS, HardPolicy, hard_worlds
from game.bots.search import GameOdds, game_odds, race, sample_world
from game.bots.worth import HOLD_BONUS, NEVER_GIVE_UP
from game.cards import CARDS
from game.commands import AnswerRedraw, Command
from game.editions import EDITIONS, Edition
from game.selfplay import play_game
from game.state import GameState
from game.views import SeatView
from tests.unit.games import GAME_SIZES, decides_alike, rest_of_deck, rigged, twin_states

SEEDS = st.integers(min_value=0, max_value=2**32)
FAST = Options(iterations=1)  # one sampled world per decision keeps search tests quick


def seated(name: str, seed: int, players: int) -> list[Policy]:
    """One policy per seat, each with its own seed."""
    return [make_policy(name, f"{seed}:{seat}", FAST) for seat in range(players)]


def same_public(a: SeatView, b: SeatView) -> bool:
    """Two views that agree on all but the order of known facts."""
    return replace(a, known=()) == replace(b, known=()) and (Counter(a.known) == Counter(b.known))


@pytest.mark.parametrize(("edition", "players"), GAME_SIZES)
@given(seed=SEEDS)
@settings(max_examples=3, deadline=None)
def test_every_policy_returns_a_legal_command(edition: str, players: int, seed: int) -> None:
    """Random, heuristic and search seats (mixed at one table) only ever send listed commands."""
    names = list(POLICIES)
    policies = [
        make_policy(names[(seat + seed) % len(names)], seat, FAST) for seat in range(players)
    ]

    def choose(state: GameState, legal: list[Command]) -> Command:
        seat = state.current
        assert seat is not None
        command = policies[seat].choose(view(state, seat), legal)
        assert command in legal
        return command

    game = play_game(edition, players, str(seed), choose)
    assert game.state.game_winners


@pytest.mark.parametrize(("edition", "players"), GAME_SIZES)
@given(seed=SEEDS)
@settings(max_examples=4, deadline=None)
def test_beliefs_account_for_every_card(edition: str, players: int, seed: int) -> None:
    """Unseen cards fill exactly the hidden places; a sampled world looks the same to the seat."""
    rng = random.Random(seed)

    def choose(state: GameState, legal: list[Command]) -> Command:
        seat = state.current
        assert seat is not None
        seen = view(state, seat)
        beliefs = Beliefs.from_view(seen)
        hidden_hands = sum(
            len(state.hands[other])
            for other in range(players)
            if other != seat and other not in beliefs.held
        )
        assert beliefs.total == hidden_hands + 1 + len(state.deck) - len(beliefs.under_deck)
        for other, card in beliefs.held.items():
            assert state.hands[other] == (card,)
        world = sample_world(seen, beliefs, rng)
        assert same_public(view(world, seat), seen)
        assert legal_commands(world) == legal
        return rng.choice(legal)

    play_game(edition, players, str(seed), choose)


@pytest.mark.parametrize(("edition", "players"), GAME_SIZES)
@given(seed=SEEDS)
@settings(max_examples=3, deadline=None)
def test_the_heuristics_quick_choice_is_the_best_score(
    edition: str, players: int, seed: int
) -> None:
    """`Judge.best`, which scores a Guard's guesses together, picks what scoring each command
    alone picks (the first listed among equals), for plain and for the search's beliefs."""
    rng = random.Random(seed)
    chose = 0

    def choose(state: GameState, legal: list[Command]) -> Command:
        nonlocal chose
        seen = view(state, state.current)
        for beliefs in (Beliefs.from_view(seen), Beliefs.from_view(seen, habits=True)):
            judge = Judge(seen, beliefs)
            assert judge.best(legal) == max(legal, key=Judge(seen, beliefs).score)
            chose += len(legal) > 1
        return rng.choice(legal)

    play_game(edition, players, str(seed), choose)
    assert chose > 10


@pytest.mark.parametrize("name", sorted(POLICIES))
@given(seed=SEEDS, edition_players=st.sampled_from(GAME_SIZES), cut=st.integers(0, 60))
@settings(max_examples=8, deadline=None)
def test_choice_ignores_hidden_cards(
    name: str, seed: int, edition_players: tuple[str, int], cut: int
) -> None:
    """Two true states that differ only in hidden cards get the same choice from the same seed."""
    edition, players = edition_players
    truth, twin = twin_states(seed, edition, players, cut)

    def decide(state: GameState, seat: int) -> Command:
        return make_policy(name, seed, FAST).choose(view(state, seat), legal_commands(state))

    assert decides_alike(decide, truth, twin)


def test_choice_ignores_hidden_cards_in_a_rigged_deal() -> None:
    """Same own hand and public table, different opponent card and deck: same command."""
    face_up = ("priest", "baron", "handmaid")
    deck_a = rest_of_deck("2019", *face_up, "guard", "king", "prince", "countess")
    deck_b = list(reversed(deck_a))
    a = rigged("2019", ["guard", "king"], ["prince", *deck_a], "countess", face_up)
    b = rigged("2019", ["guard", "countess"], ["prince", *deck_b], "king", face_up)
    for name in POLICIES:
        choices = {
            make_policy(name, 7, Options(iterations=4)).choose(view(s, 0), legal_commands(s))
            for s in (a, b)
        }
        assert len(choices) == 1, name


@pytest.mark.parametrize("name", sorted(POLICIES))
def test_same_seed_same_game(name: str) -> None:
    """A policy's decisions are a function of its seed and the view: games replay exactly."""

    def run() -> list[Command]:
        policies = seated(name, 3, 3)
        game = play_game(
            "2019",
            3,
            "replay",
            lambda s, legal: policies[s.current or 0].choose(view(s, s.current), legal),
        )
        return game.commands

    assert run() == run()


@pytest.mark.parametrize(("edition", "players"), GAME_SIZES)
@given(seed=SEEDS)
@settings(max_examples=6, deadline=None)
def test_heuristic_keeps_the_princess(edition: str, players: int, seed: int) -> None:
    """The heuristic never plays, Prince-discards or redraws away its Princess by choice."""
    policy = make_policy("heuristic", seed)

    def loses_princess(state: GameState, command: Command) -> bool:
        hand = state.hands[command.seat]
        if isinstance(command, AnswerRedraw):
            return command.redraw and hand == ("princess",)
        if not isinstance(command, PlayCard):
            return False
        if command.card == "princess":
            return True
        rest = list(hand)
        rest.remove(command.card)
        return (
            command.card == "prince"
            and command.targets == (command.seat,)
            and (rest == ["princess"])
        )

    def choose(state: GameState, legal: list[Command]) -> Command:
        command = policy.choose(view(state, state.current), legal)
        if any(not loses_princess(state, option) for option in legal):
            assert not loses_princess(state, command)
        return command

    play_game(edition, players, str(seed), choose)


def test_guard_names_the_card_a_priest_saw() -> None:
    """What a Priest showed is used: the next Guard names that card."""
    face_up = ("priest", "baron", "countess")
    deck = [
        "handmaid",
        "spy",
        "guard",
        *rest_of_deck("2019", *face_up, "priest", "prince", "handmaid", "spy", "guard", "king"),
    ]
    state = rigged("2019", ["priest", "prince"], deck, "king", face_up)
    state = step(state, PlayCard(0, "priest", (1,)))[1]
    state = step(state, PlayCard(1, "spy"))[1]
    command = make_policy("heuristic").choose(view(state, 0), legal_commands(state))
    assert command == PlayCard(0, "guard", (1,), "prince")


def test_baron_only_when_favourable() -> None:
    """With a Princess to compare the Baron is played; with a Guard to compare it is kept."""
    face_up = ("priest", "handmaid", "countess")
    deck = rest_of_deck("2019", *face_up, "baron", "prince", "princess", "king")
    strong = rigged("2019", ["baron", "prince"], ["princess", *deck], "king", face_up)
    play = make_policy("heuristic").choose(view(strong, 0), legal_commands(strong))
    assert isinstance(play, PlayCard) and play.card == "baron"
    deck = rest_of_deck("2019", *face_up, "baron", "prince", "guard", "king")
    weak = rigged("2019", ["baron", "prince"], ["guard", *deck], "king", face_up)
    play = make_policy("heuristic").choose(view(weak, 0), legal_commands(weak))
    assert isinstance(play, PlayCard) and play.card == "guard"


def test_chancellor_keeps_the_best_card() -> None:
    """After a Chancellor the heuristic keeps the highest card of the three."""
    face_up = ("priest", "baron", "handmaid")
    named = (*face_up, "chancellor", "prince", "guard", "spy", "countess", "king")
    deck = ["guard", "countess", "spy", *rest_of_deck("2019", *named)]
    state = rigged("2019", ["chancellor", "prince"], deck, "king", face_up)
    state = step(state, PlayCard(0, "chancellor"))[1]
    command = make_policy("heuristic").choose(view(state, 0), legal_commands(state))
    assert getattr(command, "keep", None) == "countess"


def test_search_finds_the_sure_guard_and_keeps_to_its_budget() -> None:
    """Search uses what the Priest saw; a tiny time budget still yields a legal command fast."""
    face_up = ("priest", "baron", "countess")
    named = (*face_up, "priest", "prince", "handmaid", "spy", "guard", "king")
    deck = ["handmaid", "spy", "guard", *rest_of_deck("2019", *named)]
    state = rigged("2019", ["priest", "prince"], deck, "king", face_up)
    state = step(state, PlayCard(0, "priest", (1,)))[1]
    state = step(state, PlayCard(1, "spy"))[1]
    legal = legal_commands(state)
    command = make_policy("search", 1, Options(iterations=8)).choose(view(state, 0), legal)
    assert command == PlayCard(0, "guard", (1,), "prince")
    hurried = make_policy("search", 1, Options(budget_ms=1.0))
    started = time.perf_counter()
    assert hurried.choose(view(state, 0), legal) in legal
    assert time.perf_counter() - started < 1.0


def test_hand_odds_are_probabilities() -> None:
    """Each seat's odds sum to one; a card seen by a Priest is certain; leaning keeps support."""
    face_up = ("priest", "baron", "countess")
    named = (*face_up, "priest", "prince", "handmaid", "spy", "guard", "king")
    deck = ["handmaid", "spy", "guard", *rest_of_deck("2019", *named)]
    state = rigged("2019", ["priest", "prince"], deck, "king", face_up)
    before = Beliefs.from_view(view(state, 1))
    assert sum(before.hand_odds(0).values()) == pytest.approx(1.0)
    state = step(state, PlayCard(0, "priest", (1,)))[1]
    state = step(state, PlayCard(1, "spy"))[1]
    seen = Beliefs.from_view(view(state, 0))
    assert seen.hand_odds(1) == {"prince": 1.0}
    flat = Beliefs.from_view(view(state, 0), lean=False)
    leaning = Beliefs.from_view(view(state, 0))
    assert flat.hand_odds(1) == leaning.hand_odds(1) == {"prince": 1.0}
    lean_odds = Beliefs.from_view(view(state, 1)).hand_odds(0)
    flat_odds = Beliefs.from_view(view(state, 1), lean=False).hand_odds(0)
    assert set(lean_odds) == set(flat_odds)
    assert lean_odds["guard"] < flat_odds["guard"]  # below the Priest just played


def test_habits_weigh_a_card_by_the_play_it_would_explain() -> None:
    """After a Priest, a seat likelier holds what the heuristic keeps over a Priest (a King, a
    Baron) and less likely what it plays first (a Guard), in the odds and in sampled worlds."""
    face_up = ("priest", "baron", "countess")
    named = (*face_up, "priest", "prince", "handmaid", "spy", "guard", "king")
    deck = ["handmaid", "spy", "guard", *rest_of_deck("2019", *named)]
    state = rigged("2019", ["priest", "prince"], deck, "king", face_up)
    state = step(state, PlayCard(0, "priest", (1,)))[1]
    seen = view(state, 1)
    flat = Beliefs.from_view(seen, lean=False).hand_odds(0)
    habits = Beliefs.from_view(seen, habits=True)
    odds = habits.hand_odds(0)
    assert set(odds) == set(flat)  # a forced discard keeps every card possible
    assert sum(odds.values()) == pytest.approx(1.0)
    assert odds["king"] > 1.5 * flat["king"] and odds["baron"] > flat["baron"]
    assert odds["guard"] < flat["guard"] / 2
    rng = random.Random(7)
    guards = sum(sample_world(seen, habits, rng).hands[0] == ("guard",) for _ in range(400))
    assert guards / 400 < flat["guard"] / 2


def test_every_card_has_a_hint() -> None:
    """The heuristic knows what playing each card of every edition is worth."""
    assert set(HINTS) == set(CARDS)
    assert all(callable(hint) for hint in HINTS.values())
    assert set(HOLD_BONUS) <= set(CARDS) and set(CARDS) >= NEVER_GIVE_UP


@pytest.mark.parametrize(("edition", "players"), GAME_SIZES)
@given(seed=SEEDS, lean=st.booleans(), habits=st.booleans())
@settings(max_examples=4, deadline=None)
def test_beliefs_rule_out_only_the_impossible(
    edition: str, players: int, seed: int, lean: bool, habits: bool
) -> None:
    """A seat's odds of another's card: a probability over cards the view leaves unaccounted
    for (none whose every copy it sees), never ruling out the card truly held."""
    rng = random.Random(seed)
    copies = Counter(EDITIONS[edition].deck)

    def choose(state: GameState, legal: list[Command]) -> Command:
        seat = state.current
        assert seat is not None
        seen = view(state, seat)
        beliefs = Beliefs.from_view(seen, lean=lean, habits=habits)
        visible = Counter(seen.face_up) + Counter(seen.hand or ())
        for public in seen.seats:
            visible.update(public.discards)
        for other in range(players):
            if other == seat or len(state.hands[other]) != 1:
                continue
            odds = beliefs.hand_odds(other)
            assert sum(odds.values()) == pytest.approx(1.0)
            assert all(p > 0 and visible[card] < copies[card] for card, p in odds.items())
            assert odds.get(state.hands[other][0], 0.0) > 0
        return rng.choice(legal)

    play_game(edition, players, str(seed), choose)


def test_the_race_drops_only_a_beaten_candidate() -> None:
    """Over the same worlds, a candidate well behind the leader is dropped, a close one kept, one
    that did exactly as well as the heuristic's favourite dropped (the favourite wins ties)."""
    lead, close, beaten = (PlayCard(0, card) for card in ("handmaid", "countess", "spy"))
    results = {
        lead: [1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0],
        close: [1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0],
        beaten: [-1.0, -1.0, 0.0, -1.0, -1.0, 0.0, -1.0, -1.0, -1.0, 0.0, -1.0, -1.0],
    }
    assert race([lead, close, beaten], results, lead) == [lead, close]
    assert race([close, lead], {close: results[lead], lead: results[lead]}, close) == [close]


@pytest.mark.parametrize("edition", EDITIONS.values(), ids=list(EDITIONS))
def test_hard_has_worlds_for_every_table_and_takes_a_number_given(edition: Edition) -> None:
    """Every table has its number of worlds, fewer as seats grow; --iterations overrides it."""
    sizes = range(edition.min_players, edition.max_players + 1)
    worlds = [hard_worlds(edition.id, players) for players in sizes]
    assert all(FEWEST_WORLDS <= n <= MOST_WORLDS for n in worlds)
    assert worlds == sorted(worlds, reverse=True)
    assert HardPolicy(1, Options(iterations=3)).iterations == 3
    assert HardPolicy(1).iterations is None


def test_game_odds_follow_a_race_of_rounds_won_at_random() -> None:
    """Worked by hand: needing 1 against 2, 3 of 4 orders of the next two rounds win; needing
    1 against 2 and 2, 1/3 + 2/3 x 4/9 = 17/27."""
    assert game_odds((1, 2)) == pytest.approx((0.75, 0.25))
    assert game_odds((2, 1)) == pytest.approx((0.25, 0.75))
    assert game_odds((1, 2, 2)) == pytest.approx((17 / 27, 5 / 27, 5 / 27))
    assert sum(game_odds((4, 3, 4, 2, 4, 4, 1, 4))) == pytest.approx(1.0)


def test_a_rival_one_token_from_winning_weighs_more_than_one_far_behind() -> None:
    worth = GameOdds((0, 3, 0, 0), target=4, me=0)
    assert worth((0, 4, 0, 0)) < worth((0, 3, 1, 0)) < 0.0 < worth((1, 3, 0, 0))
    assert worth((1, 3, 0, 0)) - worth((0, 4, 0, 0)) == pytest.approx(2.0)
