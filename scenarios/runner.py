"""Run one rules scenario (the JSON format of docs/scenarios.md) against the engine; no I/O."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from game.cards import CARDS, Choice
from game.commands import (
    AnswerRedraw,
    Command,
    Deal,
    FinishChancellor,
    PlayCard,
    StartGame,
    StartRound,
)
from game.decide import step
from game.editions import EDITIONS, Edition
from game.errors import IllegalCommand
from game.state import GameState, Phase

REST_OF_DECK = "..."


class ScenarioFailure(Exception):
    """A scenario that does not hold, or cannot be read; `step` is None for the setup."""

    def __init__(self, step: int | None, message: str) -> None:
        super().__init__(message)
        self.step = step
        self.message = message


@dataclass(frozen=True)
class ScenarioResult:
    """The outcome of one scenario."""

    name: str
    passed: bool
    step: int | None = None
    message: str = ""


def prepared_deal(data: Any, layout: Mapping[str, Any]) -> Deal:
    """The deal a layout of scenario `data` lays out (ScenarioFailure if it is not the deck)."""
    return _Runner(data).deal(layout)


def step_command(data: Any, item: dict[str, Any]) -> Command:
    """The command a step of scenario `data` sends (its players named as the scenario names
    them)."""
    return _Runner(data).command_of(item)


def run_scenario(data: Any) -> ScenarioResult:
    """Play a scenario's steps and check its expectations; never raises for a bad file."""
    name = data.get("name", "(unnamed)") if isinstance(data, dict) else "(not an object)"
    try:
        _Runner(data).run()
    except ScenarioFailure as failure:
        return ScenarioResult(str(name), False, failure.step, failure.message)
    return ScenarioResult(str(name), True)


class _Runner:
    """Holds the game and the player names while the steps run."""

    def __init__(self, data: Any) -> None:
        if not isinstance(data, dict):
            raise ScenarioFailure(None, "a scenario must be a JSON object")
        self.data = data
        edition = EDITIONS.get(data.get("edition", ""))
        if edition is None:
            raise ScenarioFailure(None, f"unknown edition {data.get('edition')!r}")
        self.edition: Edition = edition
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ScenarioFailure(None, "`players` must be a list of names")
        self.players: list[str] = players
        self.state: GameState

    def run(self) -> None:
        """Set the game up, then run every step in order."""
        try:
            self._set_up()
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise ScenarioFailure(None, f"malformed setup: {error!r}") from None
        steps = self.data.get("steps", [])
        if not isinstance(steps, list):
            raise ScenarioFailure(None, "`steps` must be a list")
        for index, item in enumerate(steps):
            try:
                self._run_step(item)
            except ScenarioFailure as failure:
                raise ScenarioFailure(index, failure.message) from None
            except (KeyError, TypeError, ValueError, AttributeError) as error:
                raise ScenarioFailure(index, f"malformed step: {error!r}") from None

    def _set_up(self) -> None:
        layout = self.data.get("round")
        if not isinstance(layout, dict) or layout.get("first") not in self.players:
            raise ScenarioFailure(None, "`round` must give a layout and a `first` player")
        command = StartGame(
            self.edition.id,
            tuple(self.players),
            seed=str(self.data.get("name", "scenario")),
            first_player=self.players.index(layout["first"]),
            deal=self.deal(layout),
        )
        self.state = self._decide(None, command, "setup")
        tokens = self.data.get("tokens", {})
        if not isinstance(tokens, dict) or not set(tokens) <= set(self.players):
            raise ScenarioFailure(None, "`tokens` must map players to numbers")
        self.state = self.state.evolved(
            tokens=tuple(int(tokens.get(player, 0)) for player in self.players)
        )

    def deal(self, layout: Mapping[str, Any]) -> Deal:
        """The layout's deal, checked to be exactly the edition's deck."""
        hands = layout.get("hands", {})
        if not isinstance(hands, dict) or set(hands) != set(self.players):
            raise ScenarioFailure(None, "`hands` must give one card for each player")
        in_hands = tuple(_one_card(hands[player]) for player in self.players)
        face_up = tuple(layout.get("face_up") or ())
        deck = list(layout.get("deck", []))
        if REST_OF_DECK in deck[:-1]:
            raise ScenarioFailure(None, '"..." may only be the last card of `deck`')
        if deck and deck[-1] == REST_OF_DECK:
            named = Counter([layout.get("set_aside"), *face_up, *in_hands, *deck[:-1]])
            rest = []
            for card in self.edition.deck:
                if named[card] > 0:
                    named[card] -= 1
                else:
                    rest.append(card)
            deck = deck[:-1] + rest
        deal = Deal(str(layout.get("set_aside")), face_up, in_hands, tuple(deck))
        order = Counter([deal.set_aside, *deal.face_up, *deal.hands, *deal.deck])
        if order != Counter(self.edition.deck):
            extra = order - Counter(self.edition.deck)
            missing = Counter(self.edition.deck) - order
            raise ScenarioFailure(
                None,
                f"the layout is not the {self.edition.id} deck "
                f"(extra: {sorted(extra.elements())}, missing: {sorted(missing.elements())})",
            )
        return deal

    def _decide(self, state: GameState | None, command: Command, what: str) -> GameState:
        try:
            return step(state, command)[1]
        except IllegalCommand as refusal:
            message = f"{what} was refused: {refusal.code}: {refusal.message}"
            raise ScenarioFailure(None, message) from None

    def _seat(self, name: Any) -> int:
        """A player's seat; an unknown name becomes a seat the engine will refuse."""
        return self.players.index(name) if name in self.players else len(self.players)

    def _run_step(self, item: Any) -> None:
        if not isinstance(item, dict):
            raise ScenarioFailure(None, "a step must be an object")
        if "expect" in item:
            self._expect(item["expect"])
        elif "next_round" in item:
            layout = item["next_round"]
            if not isinstance(layout, dict):
                raise ScenarioFailure(None, "`next_round` must give a layout")
            self.state = self._decide(self.state, StartRound(self.deal(layout)), "next_round")
        else:
            self._command(item)

    def command_of(self, item: dict[str, Any]) -> Command:
        """The command a step sends."""
        seat = self._seat(item.get("by"))
        if "play" in item:
            card = CARDS.get(item["play"])
            several = card is not None and card.chooses in (
                Choice.ONE_OR_TWO_OTHERS,
                Choice.TWO_AND_LOOK,
            )
            if ("targets" if not several else "target") in item:
                wanted = "targets" if several else "target"
                raise IllegalCommand("malformed-step", f"the {item['play']} takes `{wanted}`")
            targets = item["targets"] if several and "targets" in item else []
            if "target" in item:
                targets = [item["target"]]
            look = item.get("look")
            return PlayCard(
                seat,
                item["play"],
                tuple(self._seat(t) for t in targets),
                item.get("guess"),
                None if look is None else self._seat(look),
            )
        if "keep" in item:
            return FinishChancellor(seat, item["keep"], tuple(item.get("bottom", [])))
        if "redraw" in item:
            if not isinstance(item["redraw"], bool):
                raise ScenarioFailure(None, "`redraw` must be true or false")
            return AnswerRedraw(seat, item["redraw"])
        raise ScenarioFailure(None, f"unknown step {sorted(item)}")

    def _command(self, item: dict[str, Any]) -> None:
        before = self.state
        try:
            self.state = step(self.state, self.command_of(item))[1]
        except IllegalCommand as refusal:
            if item.get("rejected") is True:
                return
            raise ScenarioFailure(
                None, f"command was refused ({refusal.code}: {refusal.message})"
            ) from None
        if item.get("rejected") is True:
            self.state = before
            raise ScenarioFailure(None, "command was accepted but the scenario expects it rejected")

    def _expect(self, expected: Any) -> None:
        if not isinstance(expected, dict):
            raise ScenarioFailure(None, "`expect` must be an object")
        for key, wanted in expected.items():
            check = _CHECKS.get(key)
            if check is None:
                raise ScenarioFailure(None, f"unknown expectation key {key!r}")
            check(self, key, wanted)

    # What the referee sees, in the scenario's own terms.

    def name(self, seat: int | None) -> str | None:
        """A seat's player name (None stays None)."""
        return None if seat is None else self.players[seat]

    def names(self, seats: Any) -> list[str]:
        """Player names of some seats, sorted (for set comparisons)."""
        return sorted(self.players[seat] for seat in seats)

    def seat_of(self, name: str) -> int:
        """The seat of a player named in an expectation."""
        if name not in self.players:
            raise ScenarioFailure(None, f"unknown player {name!r} in an expectation")
        return self.players.index(name)


def _mismatch(key: str, wanted: Any, actual: Any) -> ScenarioFailure:
    return ScenarioFailure(None, f"{key}: expected {wanted!r}, got {actual!r}")


def _same(key: str, wanted: Any, actual: Any) -> None:
    if wanted != actual:
        raise _mismatch(key, wanted, actual)


def _one_card(value: Any) -> str:
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    if not isinstance(value, str):
        raise ScenarioFailure(None, f"a hand in a layout is one card, not {value!r}")
    return value


def _as_cards(value: Any) -> list[str]:
    return sorted([value] if isinstance(value, str) else list(value))


def _set_of_names(runner: _Runner, key: str, wanted: Any, seats: Any) -> None:
    if not isinstance(wanted, list):
        raise ScenarioFailure(None, f"{key} must be a list of players")
    _same(key, sorted(wanted), runner.names(seats))


def _per_player(
    runner: _Runner,
    key: str,
    wanted: Any,
    actual_of: Callable[[int], Any],
    norm: Callable[[Any], Any],
) -> None:
    if not isinstance(wanted, dict):
        raise ScenarioFailure(None, f"{key} must map players to values")
    for player, value in wanted.items():
        seat = runner.seat_of(player)
        _same(f"{key}.{player}", norm(value), norm(actual_of(seat)))


def _seats_where(flags: tuple[bool, ...]) -> list[int]:
    return [seat for seat, flag in enumerate(flags) if flag]


def _check_current(r: _Runner, key: str, wanted: Any) -> None:
    _same(key, wanted, r.name(r.state.current))


def _check_current_in(r: _Runner, key: str, wanted: Any) -> None:
    if r.name(r.state.current) not in wanted:
        raise _mismatch(key, wanted, r.name(r.state.current))


def _check_decision(r: _Runner, key: str, wanted: Any) -> None:
    decision = r.state.decision if r.state.current is not None else None
    _same(key, wanted, None if decision is None else decision.value)


_CHECKS: dict[str, Callable[[_Runner, str, Any], None]] = {
    "current": _check_current,
    "current_in": _check_current_in,
    "decision": _check_decision,
    "hand": lambda r, k, w: _per_player(r, k, w, lambda s: r.state.hands[s], _as_cards),
    "discards": lambda r, k, w: _per_player(r, k, w, lambda s: r.state.discards[s], list),
    "tokens": lambda r, k, w: _per_player(r, k, w, lambda s: r.state.tokens[s], int),
    "eliminated": lambda r, k, w: _set_of_names(r, k, w, _seats_where(r.state.eliminated)),
    "protected": lambda r, k, w: _set_of_names(r, k, w, _seats_where(r.state.protected)),
    "round_winners": lambda r, k, w: _set_of_names(r, k, w, r.state.round_winners),
    "game_winners": lambda r, k, w: _set_of_names(r, k, w, r.state.game_winners),
    "deck": lambda r, k, w: _same(k, w, list(r.state.deck)),
    "deck_size": lambda r, k, w: _same(k, w, len(r.state.deck)),
    "round": lambda r, k, w: _same(k, w, r.state.round),
    "round_over": lambda r, k, w: _same(k, w, r.state.phase is not Phase.ROUND),
    "game_over": lambda r, k, w: _same(k, w, r.state.phase is Phase.OVER),
}
