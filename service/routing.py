"""URL matching that leaves no garbage behind: werkzeug's matcher with a memo in front.

werkzeug's `StateMachineMatcher.match` (3.1) defines a recursive closure on every call: the
function refers to itself through its closure's cell, a reference cycle that only the cyclic
garbage collector frees (a function, its cells, a set and tuples: about 8 objects a request).
In a worker holding thousands of waiting clients each young collection then had tens of
thousands of these to free, 100 ms and more at a time (`bench waiters`, docs/capacity.md). The
memo answers a path it matched lately without calling werkzeug again; a game's commands, feed
and stream come back to the same few paths. What werkzeug refuses (404, 405, redirects) is not
kept, so unknown paths cannot crowd out the known ones.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from werkzeug.routing import Map, Rule, RuleFactory
from werkzeug.routing.matcher import StateMachineMatcher

from events.locks import short_lock
from events.recent import Recent

PATHS_KEPT = 4096  # matched paths each process remembers (as many as the game heads it keeps)

Matched = tuple[Rule, dict[str, Any]]


class RememberingMatcher(StateMachineMatcher):
    """werkzeug's matcher, answering the paths it matched last from memory."""

    def __init__(self, merge_slashes: bool, size: int = PATHS_KEPT) -> None:
        super().__init__(merge_slashes)
        self._matched: Recent[tuple[str, str, str, bool], Matched] = Recent(size)
        self._lock = short_lock()

    def add(self, rule: Rule) -> None:
        """Add a rule (the app is being built): forget every match."""
        with self._lock:
            self._matched = Recent(self._matched.size)
        super().add(rule)

    def match(self, domain: str, path: str, method: str, websocket: bool) -> Matched:
        """The rule and the converted values of the path, as werkzeug matches them."""
        key = (domain, path, method, websocket)
        with self._lock:
            found = self._matched.get(key)
        if found is None:
            rule, values = super().match(domain, path, method, websocket)
            found = (rule, dict(values))
            with self._lock:
                self._matched.put(key, found)
        rule, values = found
        return rule, dict(values)  # a copy: Flask's url_value_preprocessors may change it


class RememberingMap(Map):
    """werkzeug's Map with the remembering matcher (Flask's `url_map_class`)."""

    def __init__(
        self, rules: Iterable[RuleFactory] | None = None, *args: Any, **options: Any
    ) -> None:
        super().__init__(None, *args, **options)  # the rules go in once the matcher is ours
        self._matcher = RememberingMatcher(self.merge_slashes)
        for rule in rules or ():
            self.add(rule)
