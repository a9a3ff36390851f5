"""Every refusal carries its machine-readable code, and a refused command changes nothing."""

from __future__ import annotations

import pytest

from game import IllegalCommand, step
from game.commands import (
    AnswerRedraw,
    Command,
    Deal,
    FinishChancellor,
    PlayCard,
    StartGame,
    StartRound,
)
from game.state import GameState
from tests.unit.games import rest_of_deck, rigged


def classic() -> GameState:
    """Seat 0 to play guard+priest; seat 1 holds the king, seat 2 the handmaid."""
    deck = ["priest", *rest_of_deck("classic", "guard", "king", "handmaid", "princess", "priest")]
    return rigged("classic", ["guard", "king", "handmaid"], deck, "princess")


def countess() -> GameState:
    """Seat 0 holds the countess and draws the king."""
    deck = ["king", *rest_of_deck("classic", "countess", "guard", "priest", "baron", "king")]
    return rigged("classic", ["countess", "guard", "priest"], deck, "baron")


def protected() -> GameState:
    """Seat 1 played a Handmaid: seat 2 to play guard, seat 1 is protected."""
    deck = [
        "handmaid",
        "guard",
        *rest_of_deck("classic", "guard", "priest", "baron", "princess", "handmaid", "guard"),
    ]
    state = rigged("classic", ["priest", "baron", "guard"], deck, "princess", first=1)
    return step(state, PlayCard(1, "handmaid"))[1]


def premium() -> GameState:
    """Premium, seat 0 to play guard+bishop."""
    named = ("guard", "king", "baron", "priest", "handmaid", "bishop", "princess")
    deck = ["bishop", *rest_of_deck("premium", *named)]
    return rigged("premium", ["guard", "king", "baron", "priest", "handmaid"], deck, "princess")


def chancellor() -> GameState:
    """2019, seat 0 is choosing what to keep after a Chancellor."""
    named = ("chancellor", "guard", "priest", "spy", "handmaid", "king", "countess")
    deck = ["handmaid", "king", "countess", *rest_of_deck("2019", *named)]
    state = rigged("2019", ["chancellor", "guard", "priest"], deck, "spy")
    return step(state, PlayCard(0, "chancellor"))[1]


def redraw() -> GameState:
    """Premium: seat 0's Bishop named seat 1's baron; seat 1 must answer."""
    named = ("bishop", "baron", "guard", "guard", "guard", "king", "princess")
    deck = ["king", *rest_of_deck("premium", *named)]
    state = rigged("premium", ["bishop", "baron", "guard", "guard", "guard"], deck, "princess")
    return step(state, PlayCard(0, "bishop", (1,), 3))[1]


def cardinal() -> GameState:
    """Premium: seat 0 to play cardinal+baroness."""
    named = ("cardinal", "king", "baron", "guard", "guard", "baroness", "princess")
    deck = ["baroness", *rest_of_deck("premium", *named)]
    return rigged("premium", ["cardinal", "king", "baron", "guard", "guard"], deck, "princess")


def over() -> GameState:
    """A 2-player classic round just ended: seat 0 played the Princess."""
    deck = [
        "princess",
        *rest_of_deck("classic", "guard", "priest", "princess", "guard", "guard", "guard", "baron"),
    ]
    state = rigged("classic", ["guard", "priest"], deck, "baron", ("guard", "guard", "guard"))
    return step(state, PlayCard(0, "princess"))[1]


CASES: list[tuple[str, object, Command]] = [
    ("not-your-turn", classic, PlayCard(1, "king", (0,))),
    ("unknown-seat", classic, PlayCard(7, "guard")),
    ("card-not-in-hand", classic, PlayCard(0, "king", (1,))),
    ("unknown-card", classic, PlayCard(0, "chancellor")),
    ("countess-required", countess, PlayCard(0, "king", (1,))),
    ("target-required", classic, PlayCard(0, "priest")),
    ("target-self", classic, PlayCard(0, "priest", (0,))),
    ("unknown-target", classic, PlayCard(0, "priest", (5,))),
    ("target-protected", protected, PlayCard(2, "guard", (1,), "baron")),
    ("wrong-target-count", classic, PlayCard(0, "priest", (1, 2))),
    ("duplicate-target", cardinal, PlayCard(0, "cardinal", (1, 1), look=1)),
    ("guess-required", classic, PlayCard(0, "guard", (1,))),
    ("guess-guard", classic, PlayCard(0, "guard", (1,), "guard")),
    ("guess-invalid", classic, PlayCard(0, "guard", (1,), 6)),
    ("guess-invalid", classic, PlayCard(0, "guard", (1,), "chancellor")),
    ("guess-guard", premium, PlayCard(0, "guard", (1,), 1)),
    ("guess-invalid", premium, PlayCard(0, "guard", (1,), "king")),
    ("guess-invalid", premium, PlayCard(0, "bishop", (1,), 10)),
    ("unexpected-choice", classic, PlayCard(0, "priest", (1,), "king")),
    ("unexpected-choice", countess, PlayCard(0, "countess", (1,))),
    ("look-required", cardinal, PlayCard(0, "cardinal", (1, 2))),
    ("look-invalid", cardinal, PlayCard(0, "cardinal", (1, 2), look=3)),
    ("chancellor-pending", chancellor, PlayCard(0, "handmaid")),
    ("chancellor-cards-mismatch", chancellor, FinishChancellor(0, "king", ("countess",))),
    ("no-decision-pending", classic, FinishChancellor(0, "guard", ("priest",))),
    ("no-decision-pending", classic, AnswerRedraw(0, True)),
    ("not-your-turn", redraw, AnswerRedraw(0, True)),
    ("redraw-pending", redraw, PlayCard(1, "baron", (2,))),
    ("round-over", over, PlayCard(1, "priest", (0,))),
    ("round-in-progress", classic, StartRound()),
    ("game-already-started", classic, StartGame("classic", ("a", "b"), "s")),
]


@pytest.mark.parametrize(("code", "make", "command"), CASES, ids=[c[0] for c in CASES])
def test_refused_with_its_code_and_nothing_changes(
    code: str, make: object, command: Command
) -> None:
    """The command raises IllegalCommand with this code and a sentence."""
    state = make()  # type: ignore[operator]
    with pytest.raises(IllegalCommand) as refusal:
        step(state, command)
    assert refusal.value.code == code
    assert refusal.value.message.endswith(".")


def test_game_level_refusals() -> None:
    """Starting games wrongly, or playing before a game exists, is refused with a code."""
    cases: list[tuple[str, GameState | None, Command]] = [
        ("unknown-edition", None, StartGame("deluxe", ("a", "b"), "s")),
        ("wrong-player-count", None, StartGame("premium", ("a", "b"), "s")),
        ("bad-players", None, StartGame("classic", ("a", "a"), "s")),
        ("unknown-seat", None, StartGame("classic", ("a", "b"), "s", first_player=2)),
        (
            "bad-deal",
            None,
            StartGame("classic", ("a", "b"), "s", 0, Deal("guard", (), ("a", "b"), ())),
        ),
        ("game-not-started", None, PlayCard(0, "guard")),
        ("game-not-started", None, StartRound()),
    ]
    for code, state, command in cases:
        with pytest.raises(IllegalCommand) as refusal:
            step(state, command)
        assert refusal.value.code == code


def test_sycophant_mark_must_be_followed() -> None:
    """After a Sycophant marks seat 2, the next card that can choose seat 2 must."""
    named = ("sycophant", "guard", "baron", "guard", "guard", "priest", "princess")
    deck = ["priest", "guard", *rest_of_deck("premium", *named, "guard")]
    state = rigged("premium", ["sycophant", "guard", "baron", "guard", "guard"], deck, "princess")
    state = step(state, PlayCard(0, "sycophant", (2,)))[1]
    with pytest.raises(IllegalCommand) as refusal:
        step(state, PlayCard(1, "guard", (3,), 3))
    assert refusal.value.code == "sycophant-target-required"
    assert step(state, PlayCard(1, "guard", (2,), 3))[1].eliminated[2]
