"""Seeded games are pinned: the same seed and choices give the very same events, legal commands,
views and final state as when these digests were taken (a speed-up must change none of them)."""

from __future__ import annotations

import hashlib
import random
from dataclasses import fields, is_dataclass
from typing import Any

import pytest

from events.store import to_json
from events.vocabulary import VOCABULARY
from game import Forfeit, StartGame, StartRound, legal_commands, step, view
from game.state import Phase
from tests.unit.games import GAME_SIZES

SEEDS = range(4)
FORFEIT_AT = 40  # the command after which one seat gives the game up (the forfeit path)

# SHA-256 of each size's games (every seed of SEEDS), taken before the engine's speed-ups.
PINNED: dict[tuple[str, int], str] = {
    ("classic", 2): "03fbcefe555fc8b16147a5cedd21d816476af3337f45d1aa66bab1432319565a",
    ("classic", 3): "a15839dd567018f1e894ec01b15c7cd46a6aa2baa514cc95f6aa97a5e1146eba",
    ("classic", 4): "4fd328c59558728656903d9174ef3d8abb2b9d512ec09f05137a8dec5e4401e5",
    ("2019", 2): "6b0c9244885cd6865d7cee8d1cb527480c0ed15c6de9e8c326c47ee78bee4031",
    ("2019", 3): "e6c93739e912d2ab7a98523467aabbb7c5bf740933996ff49c2173b1152e5f71",
    ("2019", 4): "6110add0330929689604297b33248b77ed7822d00d314de0f31fc3d4476f30e2",
    ("2019", 5): "98f824ba4a795aa43377d597eecce2fc8409c57d805442158a0990402477a231",
    ("2019", 6): "1322ed8740cb0232b829735dcc69de870739ed5370ffce66fa2e6b5ae8dd6a34",
    ("2019-classic", 2): "602cf68f540a0b72a40a0954cc950d1b91c13410a781bbdad99d8e2384561218",
    ("2019-classic", 3): "7b133f177d922c706ea262f48ab3225339b8b179ea6fba2234e7995e1bc7a38f",
    ("2019-classic", 4): "02d4cada48a0d2c43c909cfcbea4ae6f976998a3db0038613b83ea86e09b1522",
    ("premium", 5): "8cc4d2c9ab88de2b7d01211737a1ac8823c12dec71092e14e870672c5946d576",
    ("premium", 6): "6bc478c642e0598af5e2c28e37b4ca696df2f8a5a4cbcdf22fad93593d04abb2",
    ("premium", 7): "01a4b2d151d8760cde83f8a54385a45076d8915a849a9fbc275ffe79e7861f40",
    ("premium", 8): "04b905ad4c11b8787200e79db8e36abd0c908c7d7084e9f83152a91bbfa20475",
}


# Fields added after the digests were taken, each derived from the events (public clues, who
# knows your card): left out of the lines, so the pinned games still check all the rest.
ADDED = frozenset({"ruled_out", "seen_by", "party"})


def pinned_repr(value: Any) -> str:
    """`repr(value)` as dataclasses write it, less the ADDED fields at any depth."""
    if is_dataclass(value) and not isinstance(value, type):
        shown = (f"{f.name}={pinned_repr(getattr(value, f.name))}"
                 for f in fields(value) if f.repr and f.name not in ADDED)  # fmt: skip
        return f"{type(value).__qualname__}({', '.join(shown)})"
    if isinstance(value, tuple):
        items = [pinned_repr(item) for item in value]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if isinstance(value, list):
        return "[" + ", ".join(pinned_repr(item) for item in value) + "]"
    return repr(value)


def game_lines(edition: str, players: int, seed: int) -> list[str]:
    """A random game of this seed as lines: each event stored, each legal list, views, state
    (less its edition, whose cards' effects print as addresses)."""
    rng = random.Random(seed)
    names = tuple(f"p{seat + 1}" for seat in range(players))
    events, state = step(None, StartGame(edition, names, f"pinned-{seed}"))
    lines = [to_json(VOCABULARY.encode(event)) for event in events]
    decided = 0
    while state.phase is not Phase.OVER:
        legal = legal_commands(state)
        lines.append(repr(legal))
        if state.phase is Phase.BETWEEN_ROUNDS:
            command = StartRound()
        elif decided == FORFEIT_AT and seed % 2:
            command = Forfeit(rng.randrange(players))
        else:
            command = legal[rng.randrange(len(legal))]
        decided += 1
        events, state = step(state, command)
        lines.extend(to_json(VOCABULARY.encode(event)) for event in events)
        if decided % 7 == 0:
            lines.extend(pinned_repr(view(state, seat)) for seat in (None, *range(players)))
    lines.extend(pinned_repr(view(state, seat)) for seat in (None, *range(players)))
    kept = [getattr(state, f.name) for f in fields(state) if f.name not in ADDED | {"edition"}]
    lines.append(pinned_repr(kept))
    return lines


def digest(edition: str, players: int) -> str:
    """SHA-256 over the lines of every pinned seed's game of this size."""
    sha = hashlib.sha256()
    for seed in SEEDS:
        for line in game_lines(edition, players, seed):
            sha.update(line.encode())
            sha.update(b"\n")
    return sha.hexdigest()


@pytest.mark.parametrize(("edition", "players"), GAME_SIZES)
def test_seeded_games_replay_exactly_as_pinned(edition: str, players: int) -> None:
    """Every event, legal list, view and final state of the pinned games is unchanged."""
    assert digest(edition, players) == PINNED[(edition, players)]
