"""Where every game's randomness comes from: a fresh server secret, drawn for each game and each
rematch and shown to nobody before that game is over (its deals are committed to and opened
round by round, so anyone can check them afterwards).

A creator may choose the seed only where the operator allows it (LOVELETTER_SEEDED_GAMES): that
creator then knows every deal, so the table says to everyone that it is seeded, and its
rematches are dealt from `<seed>#<n>`, as reproducible as its first game.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from game.table import PlayAgain, Table
from service.errors import ApiError

SEED_BYTES = 32  # 256 bits


def new_seed() -> str:
    """A fresh secret seed for one game."""
    return secrets.token_hex(SEED_BYTES)


def opening_seed(body: Mapping[str, Any], allowed: bool) -> tuple[str, bool]:
    """The first game's seed and whether the creator chose it; 422 when they may not."""
    chosen = body.get("seed")
    if chosen is None:
        return new_seed(), False
    if not allowed:
        raise ApiError(
            422,
            "seed-not-allowed",
            "Seed not allowed",
            "This service draws every game's seed itself: a chosen seed would let its chooser "
            "know every deal.",
        )
    return chosen, True


def rematch(table: Table) -> PlayAgain:
    """The command that deals the next game at a table: a fresh secret, or the seeded table's
    own sequence."""
    return PlayAgain(None if table.seeded else new_seed())
