"""The scenario runner implements docs/scenarios.md: layouts, "...", steps, expectations, output."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from scenarios import run_scenario
from service.cli import main

BASE: dict[str, Any] = {
    "name": "a Prince on the Princess",
    "edition": "classic",
    "players": ["ann", "bob", "cy"],
    "tokens": {"bob": 2},
    "round": {
        "first": "ann",
        "set_aside": "guard",
        "face_up": [],
        "hands": {"ann": "prince", "bob": "princess", "cy": "baron"},
        "deck": ["priest", "..."],
    },
    "steps": [
        {"play": "prince", "by": "ann", "target": "bob"},
        {"expect": {"eliminated": ["bob"], "current": "cy", "hand": {"ann": "priest"}}},
    ],
}


def scenario(**changes: Any) -> dict[str, Any]:
    """A copy of BASE with top-level keys replaced."""
    data = copy.deepcopy(BASE)
    data.update(changes)
    return data


def with_steps(*steps: dict[str, Any]) -> dict[str, Any]:
    """BASE with its steps replaced."""
    return scenario(steps=list(steps))


def test_the_base_scenario_passes() -> None:
    """The example of docs/scenarios.md holds."""
    assert run_scenario(scenario()).passed


def test_rest_of_deck_is_the_unnamed_cards_in_table_order() -> None:
    """ "..." expands to the edition's remaining cards, in table order, copies together."""
    # Named: guard (set aside), prince, princess, baron (hands), priest (deck).
    rest = ["guard"] * 4 + ["priest", "baron", "handmaid", "handmaid", "prince", "king", "countess"]
    result = run_scenario(with_steps({"expect": {"deck": ["priest", *rest], "deck_size": 12}}))
    # ann has drawn the priest already: the deck starts after it.
    assert not result.passed and "deck" in result.message
    assert run_scenario(with_steps({"expect": {"deck": rest, "deck_size": 11}})).passed


def test_a_layout_that_is_not_the_deck_fails_with_the_reason() -> None:
    """A missing or extra card is a failed scenario (at setup), naming the cards."""
    data = scenario()
    data["round"]["deck"] = ["priest"]
    result = run_scenario(data)
    assert not result.passed and result.step is None and "missing" in result.message
    data["round"]["deck"] = ["princess", "..."]
    result = run_scenario(data)
    assert not result.passed and "extra" in result.message


def test_an_accepted_command_marked_rejected_fails_and_a_refused_one_without_it_fails() -> None:
    """`rejected` must match what the rules do, and a refusal changes nothing."""
    illegal = {"play": "prince", "by": "bob", "target": "ann"}
    assert run_scenario(with_steps({**illegal, "rejected": True})).passed
    result = run_scenario(with_steps(illegal))
    assert not result.passed and result.step == 0 and "not-your-turn" in result.message
    legal = {"play": "prince", "by": "ann", "target": "bob", "rejected": True}
    result = run_scenario(with_steps(legal))
    assert not result.passed and "accepted" in result.message
    unchanged = {"expect": {"current": "ann", "hand": {"ann": ["prince", "priest"]}}}
    assert run_scenario(with_steps({**illegal, "rejected": True}, unchanged)).passed


def test_every_expectation_key_is_checked() -> None:
    """Each key of `expect` fails when wrong and passes when right."""
    right = {
        "current": "cy",
        "current_in": ["cy", "ann"],
        "decision": "play",
        "hand": {"ann": "priest", "bob": [], "cy": ["guard", "baron"]},
        "eliminated": ["bob"],
        "protected": [],
        "discards": {"ann": ["prince"], "bob": ["princess"], "cy": []},
        "deck_size": 10,
        "tokens": {"ann": 0, "bob": 2},
        "round": 1,
        "round_over": False,
        "round_winners": [],
        "game_over": False,
        "game_winners": [],
    }
    wrong = {
        "current": "ann",
        "current_in": ["bob"],
        "decision": "chancellor",
        "hand": {"cy": ["guard"]},
        "eliminated": [],
        "protected": ["cy"],
        "discards": {"ann": []},
        "deck_size": 11,
        "tokens": {"bob": 0},
        "round": 2,
        "round_over": True,
        "round_winners": ["cy"],
        "game_over": True,
        "game_winners": ["cy"],
    }
    play = {"play": "prince", "by": "ann", "target": "bob"}
    assert run_scenario(with_steps(play, {"expect": right})).passed
    for key, value in wrong.items():
        result = run_scenario(with_steps(play, {"expect": {key: value}}))
        assert not result.passed and result.step == 1 and key in result.message, key


def test_unknown_expectation_keys_and_malformed_steps_fail() -> None:
    """A typo in an expectation can't pass silently; a step of no known kind fails."""
    assert not run_scenario(with_steps({"expect": {"curent": "ann"}})).passed
    assert not run_scenario(with_steps({"dance": True})).passed
    assert not run_scenario(scenario(edition="deluxe")).passed
    assert not run_scenario("not an object").passed


def test_keep_and_bottom_steps_finish_a_chancellor() -> None:
    """A keep/bottom step by the Chancellor's player finishes it; by anyone else it is refused."""
    chancellor = {
        "name": "chancellor",
        "edition": "2019",
        "players": ["ann", "bob"],
        "round": {
            "first": "ann",
            "set_aside": "spy",
            "face_up": ["guard", "guard", "guard"],
            "hands": {"ann": "chancellor", "bob": "princess"},
            "deck": ["handmaid", "king", "countess", "..."],
        },
        "steps": [
            {"play": "chancellor", "by": "ann"},
            {"keep": "countess", "bottom": ["king", "handmaid"], "by": "bob", "rejected": True},
            {"keep": "countess", "bottom": ["king", "handmaid"], "by": "ann"},
            {"expect": {"current": "bob", "deck_size": 13, "hand": {"ann": "countess"}}},
        ],
    }
    assert run_scenario(chancellor).passed


def run_cli(capsys: pytest.CaptureFixture[str], *paths: Path) -> tuple[int, list[str]]:
    """Run `loveletter scenarios` and return its status and output lines."""
    status = main(["scenarios", *map(str, paths)])
    return status, capsys.readouterr().out.splitlines()


def test_cli_output_and_exit_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Failures name file, scenario, step and mismatch; the last line counts; status 1 if any."""
    (tmp_path / "good.json").write_text(json.dumps(scenario()))
    status, lines = run_cli(capsys, tmp_path)
    assert status == 0 and lines[-1] == "1 passed, 0 failed"

    bad = with_steps({"play": "prince", "by": "ann", "target": "bob"}, {"expect": {"round": 7}})
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    (tmp_path / "broken.json").write_text("{not json")
    status, lines = run_cli(capsys, tmp_path)
    assert status == 1 and lines[-1] == "1 passed, 2 failed"
    report = "\n".join(lines)
    assert "bad.json" in report and BASE["name"] in report and "step 1" in report
    assert "round: expected 7, got 1" in report and "broken.json" in report
