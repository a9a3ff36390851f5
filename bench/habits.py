"""Fit `game/bots/habits.py`: which card of each two-card hand the heuristic plays.

`python -m bench.habits` plays heuristic self-play games of every edition and counts, at each
turn with two different cards in hand, the card played and the card kept; it writes the share
of hands {a, b} in which a is played (add-one smoothed) as a Python table, so the bots read it
without any file access.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from game.bots.heuristic import HeuristicPolicy
from game.commands import Command, PlayCard
from game.editions import EDITIONS
from game.selfplay import play_game
from game.state import GameState
from game.views import view

# (edition, players, games): every table size the bots are measured at, and a small one.
TABLES = (
    ("2019", 2, 1500),
    ("2019", 6, 300),
    ("2019-classic", 2, 600),
    ("classic", 2, 600),
    ("classic", 4, 400),
    ("premium", 5, 300),
    ("premium", 6, 300),
)
# (edition, players, games): tables whose own counts the bots read in place of the edition's
# (the search read the 6-player `2019` table better so: docs/bots.md).
ALONE = (("2019", 6, 1500),)
TARGET = Path(__file__).resolve().parents[1] / "game" / "bots" / "habits.py"
HEADER = '''"""How the heuristic plays: the share of two-card hands {a, b} from which it plays a.

Written by `python -m bench.habits` from heuristic self-play (add-one smoothed counts of the
card played and the card kept); `Beliefs` reads it to weigh what a seat kept by what it played.
"""

# edition -> (card played, card kept) -> share of hands of those two cards where it is played
PLAYS: dict[str, dict[tuple[str, str], float]] = {
'''


ALONE_HEADER = """
# (edition, players) -> the same, counted at that table size alone (read in place of the
# edition's table there)
PLAYS_AT: dict[tuple[str, int], dict[tuple[str, str], float]] = {
"""


def count_plays(edition: str, players: int, games: int) -> Counter[tuple[str, str]]:
    """(played, kept) counts over `games` heuristic self-play games."""
    counts: Counter[tuple[str, str]] = Counter()
    policy = HeuristicPolicy(0)

    def choose(state: GameState, legal: list[Command]) -> Command:
        seat = state.current
        assert seat is not None
        command = policy.choose(view(state, seat), legal)
        hand = state.hands[seat]
        if isinstance(command, PlayCard) and len(hand) == 2 and hand[0] != hand[1]:
            counts[(command.card, hand[1] if hand[0] == command.card else hand[0])] += 1
        return command

    for number in range(games):
        play_game(edition, players, f"habits:{players}:{number}", choose)
    return counts


def shares(counts: Counter[tuple[str, str]]) -> dict[tuple[str, str], float]:
    """The smoothed share of each (played, kept) over both orders of the pair."""
    pairs = {pair for played, kept in counts for pair in ((played, kept), (kept, played))}
    return {
        (played, kept): round(
            (counts[(played, kept)] + 1) / (counts[(played, kept)] + counts[(kept, played)] + 2), 3
        )
        for played, kept in sorted(pairs)
    }


def render(
    tables: dict[str, dict[tuple[str, str], float]],
    alone: dict[tuple[str, int], dict[tuple[str, str], float]],
) -> str:
    """The module's source text."""
    lines = [HEADER]
    for edition, table in tables.items():
        lines.extend(_table_lines(f'"{edition}"', table))
    lines.append("}\n")
    lines.append(ALONE_HEADER)
    for (edition, players), table in alone.items():
        lines.extend(_table_lines(f'("{edition}", {players})', table))
    lines.append("}\n")
    return "".join(lines)


def _table_lines(key: str, table: dict[tuple[str, str], float]) -> list[str]:
    """One table's entry in the module: its key, then a line per pair of cards."""
    rows = [f'        ("{a}", "{b}"): {share},\n' for (a, b), share in table.items()]
    return [f"    {key}: {{\n", *rows, "    },\n"]


def main(argv: list[str] | None = None) -> None:
    """Play the games, write the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="games per table, times this")
    args = parser.parse_args(argv)
    counts: dict[str, Counter[tuple[str, str]]] = {edition: Counter() for edition in EDITIONS}
    for edition, players, games in TABLES:
        counts[edition].update(count_plays(edition, players, max(1, int(games * args.scale))))
        hands = sum(counts[edition].values())
        print(f"{edition}, {players} players: {hands} hands", file=sys.stderr)
    alone = {
        (edition, players): shares(count_plays(edition, players, max(1, int(games * args.scale))))
        for edition, players, games in ALONE
    }
    tables = {edition: shares(c) for edition, c in counts.items()}
    TARGET.write_text(render(tables, alone), "utf-8")


if __name__ == "__main__":
    main()
