"""The game's seeded random source: a SHAKE-256 stream of the game's secret seed and a purpose.

Every chance outcome (a deal, a first player, a salt) is drawn here inside `decide` and written
into an event, so replaying never draws again. Unlike a Mersenne Twister, the stream can't be
run forward from outcomes seen in earlier rounds.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
WORD = 4  # bytes per draw: a 32-bit number
_pack_4_words = struct.Struct(">4I").pack


class Chance:
    """Draws for one purpose (e.g. round 3 of a game), reproducible from the seed."""

    def __init__(self, seed: str, *purpose: object, draws: int = 40) -> None:
        key = "|".join([seed, *map(str, purpose)]).encode()
        self._words = struct.unpack(f">{draws}I", hashlib.shake_256(key).digest(WORD * draws))
        self._next = 0

    def word(self) -> int:
        """The next 32-bit number of the stream."""
        value = self._words[self._next]
        self._next += 1
        return value

    def words(self, count: int) -> tuple[int, ...]:
        """The next `count` numbers of the stream (IndexError past its end, as `word`)."""
        start = self._next
        if start + count > len(self._words):
            raise IndexError("the stream has no more draws")
        self._next = start + count
        return self._words[start : start + count]

    def below(self, count: int) -> int:
        """A number from 0 to count - 1 (bias below 2**-24 for the counts of a game)."""
        return self.word() % count

    def choice(self, options: Sequence[T]) -> T:
        """One of `options`."""
        return options[self.below(len(options))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """`items` in a random order (sorted on random keys; ties keep their order)."""
        keys = self.words(len(items))
        order = sorted(range(len(items)), key=keys.__getitem__)  # stable: ties keep their order
        return [items[index] for index in order]

    def salt(self) -> str:
        """128 random bits as hex, to salt a commitment."""
        return _pack_4_words(*self.words(4)).hex()  # each word as 8 hex digits, as "%08x"
