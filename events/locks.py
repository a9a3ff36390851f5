"""Locks for critical sections that never wait (no I/O, no sleep, no other lock): a few dict
reads and writes that threads must not interleave.

Under gevent's monkey-patching, `threading.Lock` is a lock written in Python: taking and giving
it back costs a few microseconds, several times per request. A section that never waits cannot
be interleaved by greenlets (they only switch where something waits), so the operating system's
own lock, taken and given back in C, guards it as well there as under threads.
"""

from __future__ import annotations

import sys
import threading
from typing import Any


def short_lock() -> Any:
    """A lock for a section that never waits: the OS thread's lock even where gevent patched
    `threading` (a section that waited while holding it would block every greenlet)."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None and monkey.is_module_patched("threading"):
        return monkey.get_original("_thread", "allocate_lock")()
    return threading.Lock()
