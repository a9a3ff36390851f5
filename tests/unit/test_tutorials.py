"""The tutorials (docs/tutorial.md): each story is a scenario that holds, its bot's moves are the
ones its policy chooses on that deal whatever its seed, and a tutorial's table plays one round
on its prepared deal, unrated, unlisted and in nobody's record; no other table takes a deal."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events.audit import verify
from events.commands import encode_command
from events.games import summary
from events.index import GameSummary, _matches
from events.vocabulary import VOCABULARY
from game import IllegalCommand
from game.bots import Options, make_policy
from game.commands import Deal, Forfeit
from game.events import GameEnded, RoundStarted
from game.legal import legal_commands
from game.records import finished_games
from game.table import OpenTable, PlayAgain, Table, TakeSeat, step
from game.views import view
from scenarios import run_scenario
from scenarios.tutorial import TUTORIALS, Tutorial

NAMES = sorted(TUTORIALS)
# Seeds a bot's policy may be made with: the worker names it `<game id>/<seat>`.
BOT_SEEDS = ("0", "3f2a9c1e0b7d4a55/1", "tutorial", "ffffffffffffffff/1")


def opening(tutorial: Tutorial, seed: str = "secret") -> OpenTable:
    """The command POST /tutorials sends for this tutorial."""
    return OpenTable(
        tutorial.edition,
        tutorial.bots,
        seed,
        first_player=tutorial.first,
        host=TakeSeat(tutorial.learner, "ann", "h0"),
        tutorial=tutorial.name,
        deal=tutorial.deal,
    )


def test_there_is_a_tutorial_for_each_edition_family() -> None:
    """The 2019 edition and the classic game each have one, with the learner against a bot."""
    assert {tutorial.edition for tutorial in TUTORIALS.values()} == {"2019", "classic"}
    for tutorial in TUTORIALS.values():
        assert tutorial.bots.count(None) == 1 and tutorial.bots[tutorial.learner] is None


@pytest.mark.parametrize("name", NAMES)
def test_the_story_is_a_scenario_that_holds(name: str) -> None:
    """The file runs as a scenario: every move legal, every expectation met, the learner
    winning the round."""
    tutorial = TUTORIALS[name]
    result = run_scenario(tutorial.scenario)
    assert result.passed, f"step {result.step}: {result.message}"
    assert tutorial.scenario["steps"][-1]["expect"]["round_winners"] == ["you"]


@pytest.mark.parametrize("name", NAMES)
def test_the_table_plays_the_story_with_the_bot_choosing_each_scripted_move(name: str) -> None:
    """At each of the bot's moves, its policy, from its seat's view alone and whatever its
    seed, chooses exactly the story's move; the learner's moves are the story's; the round ends
    as the story says and the game with it, the learner its winner."""
    tutorial = TUTORIALS[name]
    events, table = step(None, opening(tutorial))
    assert table.game is not None and table.game.current == tutorial.first
    for move in tutorial.moves:
        state = table.game
        assert state is not None and state.current == move.seat, move
        if move.seat != tutorial.learner:
            legal = legal_commands(state)
            for seed in BOT_SEEDS:
                for options in (Options(), Options(budget_ms=150)):
                    policy = make_policy(tutorial.bot, seed, options)
                    assert policy.choose(view(state, move.seat), legal) == move.command, seed
        made, table = step(table, move.command)
        events += made
    assert table.status == "over"
    assert table.game is not None and table.game.game_winners == (tutorial.learner,)
    assert sum(isinstance(event, RoundStarted) for event in events) == 1
    assert isinstance(events[-1], GameEnded)


def test_the_bots_moves_do_not_hang_on_a_lucky_seed() -> None:
    """The check above can fail: a policy that draws at random does not keep to the story."""
    tutorial = TUTORIALS["2019"]
    _, table = step(None, opening(tutorial))
    table = step(table, tutorial.moves[0].command)[1]
    assert table.game is not None
    legal = legal_commands(table.game)
    chosen = {make_policy("random", seed).choose(view(table.game, 1), legal) for seed in range(20)}
    assert len(chosen) > 1


def play_out(table: Table, rng: random.Random) -> tuple[list[Any], Table]:
    """Any legal moves for every seat, to the end of the game."""
    events: list[Any] = []
    while table.status == "playing":
        assert table.game is not None
        made, table = step(table, rng.choice(legal_commands(table.game)))
        events += made
    return events, table


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 10**6))
def test_a_tutorial_is_one_round_whatever_is_played(name: str, seed: int) -> None:
    """Off the story too (any legal moves), the game ends with its first round: its winners win
    it, no second round is dealt, and the table plays no second game."""
    events, table = play_out(step(None, opening(TUTORIALS[name]))[1], random.Random(seed))
    rounds = [event for event in events if isinstance(event, RoundStarted)]
    assert rounds == []  # the only round was dealt when the table opened
    assert table.game is not None and table.game.round == 1
    assert isinstance(events[-1], GameEnded)
    assert events[-1].winners == table.game.round_winners
    with pytest.raises(IllegalCommand) as refusal:
        step(table, PlayAgain("another"))
    assert refusal.value.code == "tutorial-over"


def test_a_learner_who_gives_up_ends_the_tutorial() -> None:
    """Forfeiting (the page's "give up") ends the game, the bot its winner."""
    tutorial = TUTORIALS["classic"]
    _, table = step(None, opening(tutorial))
    events, table = step(table, Forfeit(tutorial.learner))
    assert table.status == "over" and isinstance(events[-1], GameEnded)
    assert table.game is not None and table.game.game_winners == (1,)


def deal_of(tutorial: Tutorial) -> Deal:
    return tutorial.deal


@pytest.mark.parametrize(
    ("options", "why"),
    [
        ({"deal": deal_of(TUTORIALS["2019"])}, "a deal without a tutorial"),
        ({"tutorial": "2019"}, "a tutorial without its deal"),
        ({"tutorial": "2019", "deal": deal_of(TUTORIALS["2019"]), "ranked": True}, "ranked"),
        ({"tutorial": "2019", "deal": deal_of(TUTORIALS["2019"]), "autostart": False}, "no start"),
    ],
)
def test_a_deal_is_a_tutorials_alone(options: dict[str, Any], why: str) -> None:
    """Only a full tutorial table, which starts at once on it, takes a prepared deal."""
    bots: tuple[str | None, ...] = (None, "medium")
    command = OpenTable("2019", bots, "s", host=TakeSeat(0, "ann", "h"), **options)
    with pytest.raises(IllegalCommand) as refusal:
        step(None, command)
    assert refusal.value.code == "bad-setting", why


def test_a_table_that_is_no_tutorial_deals_from_its_seed() -> None:
    """Two ordinary tables of the same edition and seats are dealt by their seeds."""
    deals = set()
    for seed in ("a", "b"):
        command = OpenTable("2019", (None, "medium"), seed, host=TakeSeat(0, "ann", "h"))
        events, _ = step(None, command)
        (dealt,) = [event for event in events if isinstance(event, RoundStarted)]
        deals.add((dealt.set_aside, dealt.face_up, dealt.hands, dealt.deck))
    assert len(deals) == 2


@pytest.mark.parametrize("name", NAMES)
def test_a_tutorial_game_verifies_from_its_recorded_commands(name: str) -> None:
    """The audit re-decides the opening (its deal recorded with the command, never in an
    event a reader is sent before the round ends) and every move; the deal opens its
    commitment."""
    tutorial = TUTORIALS[name]
    records: list[dict[str, Any]] = []
    table: Table | None = None
    for command in [opening(tutorial), *(move.command for move in tutorial.moves)]:
        made, table = step(table, command)
        meta = {"command": encode_command(command)}
        for offset, event in enumerate(made):
            records.append(
                {
                    "version": len(records) + 1,
                    "event": VOCABULARY.encode(event),
                    "meta": None if offset else meta,
                }
            )
    report = verify(records)
    assert report.ok, report.divergence
    assert (report.deals_opened, report.status) == (1, "over")
    assert records[0]["event"]["tutorial"] == name
    assert "deal" not in records[0]["event"]


def test_a_tutorial_is_no_record_and_is_not_listed() -> None:
    """Ratings and statistics skip its game; the lobby's line for it is unlisted."""
    tutorial = TUTORIALS["2019"]
    events, table = step(None, opening(tutorial))
    for move in tutorial.moves:
        made, table = step(table, move.command)
        events += made
    assert table.status == "over"
    assert finished_games("t", ((event, 0) for event in events)) == []
    line = summary(table, 1.0)
    assert line.listed is False
    assert not _matches(line, None, None, None)
    assert not _matches(line, "over", "2019", False)
    assert _matches(GameSummary("over", "2019", 0, 2, 1.0), "over", "2019", False)
