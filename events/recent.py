"""A small bounded map of what was used last: the per-process caches' one eviction rule."""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Recent(Generic[K, V]):
    """At most `size` entries; the one put last is the newest, and the oldest are dropped first.

    Not locked: its users hold their own lock around their read-then-put steps.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: K) -> V | None:
        """The entry of `key`, if kept (its age unchanged)."""
        return self._items.get(key)

    def pop(self, key: K) -> V | None:
        """Forget `key`; its entry, if it was kept."""
        return self._items.pop(key, None)

    def put(self, key: K, value: V) -> None:
        """Keep `value` as the newest entry; drop the oldest beyond `size`."""
        self._items.pop(key, None)
        self._items[key] = value
        while len(self._items) > self.size:
            self._items.popitem(last=False)
