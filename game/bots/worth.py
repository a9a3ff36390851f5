"""What the heuristic reckons things are worth, in tokens, roughly: putting another player out is
worth ELIMINATE, being put out costs OUT."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

ELIMINATE = 1.0  # putting another player out of the round
OUT = 1.0  # being put out of the round
TOKEN = 1.0  # a token gained at once (Bishop)
KEEP = 0.5  # holding the top-ranked card, for the showdown
NEVER = -100.0  # giving up a card the bot never gives up (the Princess)
# Extra worth of keeping a card in hand: a Guard that chooses the Assassin's holder puts its
# own player out.
HOLD_BONUS: Mapping[str, float] = MappingProxyType({"assassin": 0.1})
# Cards the bot never lets go of if it can help it.
NEVER_GIVE_UP = frozenset({"princess"})
