"""What each seat may see (docs/rules.md, "What each seat sees"), against an independent account."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import asdict
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game import PlayCard, redact, step, view
from game import events as ev
from game.clues import Clue, follow
from game.commands import Command, FinishChancellor
from game.editions import EDITIONS
from game.evolve import evolve
from game.selfplay import play_game
from game.state import GameState, Phase
from game.views import event_fields
from tests.unit.games import GAME_SIZES, rest_of_deck, rigged

# docs/rules.md, "What each seat sees", written out again for the test: private fields and who
# may see them.
PRIVATE_FIELDS: dict[type, tuple[tuple[str, ...], tuple[str, ...]]] = {
    ev.TurnStarted: (("card",), ("seat",)),
    ev.CardDrawn: (("card",), ("seat",)),
    ev.HandSeen: (("card",), ("viewer",)),
    ev.HandsCompared: (("card", "target_card"), ("seat", "target")),
    ev.HandsSwapped: (("seat_card", "other_card"), ("seat", "other")),
    ev.ChancellorDrew: (("cards",), ("seat",)),
    ev.ChancellorReturned: (("kept", "bottom"), ("seat",)),
}


# View fields whose values may spell a card's name without showing a card.
NOT_CARDS = ("edition", "source", "decision")


class Witness:
    """Who has seen which card in whose hand this round, from the events alone."""

    def __init__(self, players: int, edition: str) -> None:
        self.players = players
        self.rank = EDITIONS[edition].rank
        self.facts: dict[int, set[tuple[int | None, str]]] = {s: set() for s in range(players)}
        # What public play ruled out of a seat's card: (seat, cards, plays made by then).
        self.clues: list[tuple[int, frozenset[str], int]] = []
        self.plays = [0] * players
        self.played = ""
        # A comparison's winner and its plays then, waiting for the loser's card laid down.
        self.compared: tuple[int, int] | None = None

    def see(self, event: ev.Event) -> None:
        """Record what an event lets each seat learn."""
        self.follow_clues(event)
        if isinstance(event, ev.RoundStarted):
            self.facts = {seat: set() for seat in range(self.players)}
        elif isinstance(event, ev.HandSeen):
            self.facts[event.viewer].add((event.seat, event.card))
        elif isinstance(event, ev.HandsCompared):
            self.facts[event.seat].add((event.target, event.target_card))
            self.facts[event.target].add((event.seat, event.card))
        elif isinstance(event, ev.HandsSwapped):
            a, b = event.seat, event.other
            for seat, facts in self.facts.items():
                if seat not in (a, b):  # bystanders may follow a card through a public swap
                    facts |= {(b if x == a else a, c) for x, c in facts if x in (a, b)}
            self.facts[a].add((b, event.other_card))
            self.facts[b].add((a, event.seat_card))
        elif isinstance(event, ev.ChancellorReturned):
            self.facts[event.seat] |= {(None, card) for card in event.bottom}

    def follow_clues(self, event: ev.Event) -> None:
        """Work out the public clues from what a spectator sees of `event` alone."""
        public = redact(event, None)
        kind = public["type"]
        if kind == "round_started":
            self.clues, self.plays = [], [0] * self.players
        elif kind in ("card_played", "hand_discarded"):
            self.plays[public["seat"]] += 1
            self.played = public["card"] if kind == "card_played" else self.played
        elif kind == "guess_checked" and not public["correct"]:
            guess = public["guess"]
            named = {c for c, r in self.rank.items() if guess in (c, r)}
            self.clues.append((public["target"], frozenset(named), self.plays[public["target"]]))
        elif kind == "hands_compared" and public["loser"] is not None:
            winner = public["target"] if public["loser"] == public["seat"] else public["seat"]
            self.compared = (winner, self.plays[winner])
        elif kind == "player_eliminated" and self.compared is not None:
            (shown,) = public["hand"]
            winner, plays = self.compared
            lower = self.played == "dowager_queen"  # the winner's card is lower than the shown one
            beaten = {c for c, r in self.rank.items()
                      if (r >= self.rank[shown] if lower else r <= self.rank[shown])}  # fmt: skip
            self.clues.append((winner, frozenset(beaten), plays))
            self.compared = None
        elif kind in ("hands_swapped", "chancellor_returned"):
            moved = {public["seat"], public.get("other")}
            self.clues = [clue for clue in self.clues if clue[0] not in moved]


def check_view(
    state: GameState, seat: int | None, witness: Witness, clues: tuple[Clue, ...] = ()
) -> None:
    """The view holds no card the audience has no right to see, and its own hand exactly."""
    seen = view(state, seat, clues=clues)
    live = state.phase is Phase.ROUND
    if seat is None:
        assert seen.hand is None and seen.known == ()
    else:
        assert seen.hand == state.hands[seat]
        for item in seen.known:
            assert (item.seat, item.card) in witness.facts[seat], f"{item} was never shown"
    if live:
        assert seen.deck is None and seen.set_aside is None
        assert seen.showdown == ()
    # Every card named anywhere in the view must come from a place this audience may see.
    allowed: Counter[str] = Counter(seen.face_up)
    for public in seen.seats:
        allowed.update(public.discards)
    allowed.update(seen.hand or ())
    allowed.update(item.card for item in seen.known)
    allowed.update(card for _, card in seen.showdown)
    if not live:
        allowed.update(seen.deck or ())
        allowed.update([seen.set_aside] if seen.set_aside else [])
    # Public clues name cards a seat does not hold: the same for every audience, and each one
    # worked out from what a spectator saw; a card someone knows you hold is in your hand.
    clues = [(c.seat, frozenset(c.cards), c.plays) for c in seen.ruled_out]
    if witness.compared is not None:  # the loser's card is laid down by the command's next event
        assert clues[-1][::2] == witness.compared
        clues.pop()
    assert clues == witness.clues
    for seen_by in seen.seen_by:
        assert seat is not None and seen_by.card in seen.hand
        assert (seat, seen_by.card) in witness.facts[seen_by.seat]
    shown = {key: item for key, item in asdict(seen).items() if key not in ("ruled_out", "seen_by")}
    named = Counter(_cards_in(shown, set(state.edition.rank)))
    assert not named - allowed, f"cards shown beyond what is visible: {named - allowed}"


def _cards_in(value: Any, cards: set[str]) -> list[str]:
    if isinstance(value, str):
        return [value] if value in cards else []
    if isinstance(value, dict):
        names = (item for key, item in value.items() if key not in NOT_CARDS)
        return [card for item in names for card in _cards_in(item, cards)]
    if isinstance(value, (list, tuple)):
        return [c for item in value for c in _cards_in(item, cards)]
    return []


@pytest.mark.parametrize(("edition", "players"), GAME_SIZES)
@given(seed=st.integers(min_value=0, max_value=2**32))
@settings(max_examples=3, deadline=None)
def test_views_and_redacted_events_never_leak(edition: str, players: int, seed: int) -> None:
    """At every event, every seat's and the spectator's view and redacted events hold no secret."""
    rng = random.Random(seed)
    game = play_game(edition, players, str(seed), lambda _s, legal: rng.choice(legal))
    witness = Witness(players, edition)
    state = None
    clues: tuple[Clue, ...] = ()
    audiences: list[int | None] = [None, *range(players)]
    for event in game.events:
        state = evolve(state, event)
        clues = follow(clues, event, state)
        witness.see(event)
        for audience in audiences:
            check_view(state, audience, witness, clues)
            check_redaction(event, audience)


def check_redaction(event: ev.Event, audience: int | None) -> None:
    """Private fields are hidden from exactly the seats docs/rules.md keeps them from."""
    full = event_fields(event)
    shown = redact(event, audience)
    hidden, parties = PRIVATE_FIELDS.get(type(event), ((), ()))
    entitled = audience is not None and any(full[p] == audience for p in parties)
    if isinstance(event, ev.RoundStarted):
        assert shown["hands"] == tuple(
            card if index == audience else None for index, card in enumerate(event.hands)
        )
        assert shown["set_aside"] is None and set(shown["deck"]) <= {None}
        assert shown["salt"] is None and shown["commitment"] == event.commitment
        assert len(shown["deck"]) == len(event.deck)
        return
    if isinstance(event, ev.GameStarted):
        assert shown["seed"] is None
        return
    for name, value in full.items():
        if name in hidden and not entitled:
            blank = tuple(None for _ in value) if isinstance(value, tuple) else None
            assert shown[name] == blank, f"{name} of {event.type} shown to {audience}"
        else:
            assert shown[name] == value, f"{name} of {event.type} hidden from {audience}"


def test_priest_knowledge_is_private_and_goes_stale_when_the_card_is_played() -> None:
    """The Priest's player learns the card, with when; it stops being held once played."""
    deck = [
        "guard",
        "priest",
        "baron",
        *rest_of_deck("classic", "priest", "king", "guard", "guard", "priest", "baron", "princess"),
    ]
    state = rigged("classic", ["priest", "king", "guard"], deck, "princess")
    state = step(state, PlayCard(0, "priest", (1,)))[1]
    (known,) = view(state, 0).known
    learnt = (known.seat, known.card, known.source, known.round, known.turn)
    assert learnt == (1, "king", "priest", 1, 1)
    assert known.still_held
    assert view(state, 1).known == () and view(state, 2).known == ()
    # Seat 1 drew a priest and plays the King itself on seat 2: what seat 0 saw is gone.
    state = step(state, PlayCard(1, "king", (2,)))[1]
    facts = {(k.seat, k.card, k.still_held) for k in view(state, 0).known}
    assert facts == {(1, "king", False)}
    assert {(k.seat, k.card) for k in view(state, 1).known} == {(2, "priest")}
    assert {(k.seat, k.card) for k in view(state, 2).known} == {(1, "guard")}


def test_king_swap_moves_a_bystanders_knowledge() -> None:
    """A bystander who saw a hand knows where it went after a public swap."""
    deck = [
        "guard",
        "guard",
        "king",
        *rest_of_deck("classic", "priest", "baron", "guard", "guard", "guard", "king", "princess"),
    ]
    state = rigged("classic", ["priest", "baron", "guard"], deck, "princess")
    state = step(state, PlayCard(0, "priest", (1,)))[1]  # seat 0 sees seat 1's baron
    state = step(state, PlayCard(1, "guard", (2,), "priest"))[1]  # wrong guess
    state = step(state, PlayCard(2, "king", (1,)))[1]  # seats 1 and 2 swap
    facts = {(k.seat, k.card, k.still_held) for k in view(state, 0).known}
    assert facts == {(1, "baron", False), (2, "baron", True)}


def test_chancellor_returns_are_known_only_to_their_player_until_drawn() -> None:
    """Cards put under the deck are known to the Chancellor's player, by depth, until drawn."""
    named = ("chancellor", "guard", "priest", "spy", "handmaid", "king", "countess")
    deck = ["handmaid", "king", "countess", *rest_of_deck("2019", *named)]
    state = rigged("2019", ["chancellor", "guard", "priest"], deck, "spy")
    state = step(state, PlayCard(0, "chancellor"))[1]
    command: Command = FinishChancellor(0, "king", ("countess", "handmaid"))
    state = step(state, command)[1]
    known = {(k.seat, k.card, k.still_held) for k in view(state, 0).known}
    assert known == {(None, "countess", True), (None, "handmaid", True)}
    assert view(state, 1).known == ()
    assert view(state, 0).hand == ("king",)
