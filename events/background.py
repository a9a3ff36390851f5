"""One daemon thread per process for an object's background duty (the append hub's listener,
presence's renewals, the metrics tally's writes), started on first use and again in a forked
child, which inherits its parent's memory but none of its threads.

`ensure` is called holding none of the owner's locks: under gevent a thread is a greenlet, and
starting one waits for it to be scheduled, so an OS lock held across the start would block the
worker's other greenlets (a presence bug found once at a merge).
"""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Callable

from events.locks import short_lock


class Background:
    """A duty run by a daemon thread named `name`, once per process; `on_fork` runs in a forked
    child before anything else (e.g. to drop what the parent had pending)."""

    def __init__(
        self, name: str, duty: Callable[[], None], on_fork: Callable[[], None] | None = None
    ) -> None:
        self.name = name
        self._duty = duty
        self._on_fork = on_fork
        self._started = False
        self._lock = short_lock()
        _EVERY.add(self)

    @property
    def started(self) -> bool:
        """Whether the thread was started in this process."""
        return self._started

    def ensure(self) -> None:
        """Start the thread unless this process started it already (cheap when it did)."""
        if self._started:
            return
        with self._lock:
            if self._started:
                return
            self._started = True
        threading.Thread(target=self._duty, name=self.name, daemon=True).start()

    def _forked(self) -> None:
        """In a forked child: no thread runs the duty here yet."""
        self._started = False
        self._lock = short_lock()  # one held by another thread at the fork stays held
        if self._on_fork is not None:
            self._on_fork()


_EVERY: weakref.WeakSet[Background] = weakref.WeakSet()


def _after_fork_in_child() -> None:
    for background in list(_EVERY):
        background._forked()


os.register_at_fork(after_in_child=_after_fork_in_child)
