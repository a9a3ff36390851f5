"""Locks for sections that never wait: the OS lock, under threads and under gevent alike."""

from __future__ import annotations

import subprocess
import sys

from events.locks import short_lock


def test_a_held_short_lock_refuses_a_second_holder() -> None:
    lock = short_lock()
    assert lock.acquire(blocking=False)
    assert not lock.acquire(blocking=False)
    lock.release()
    assert lock.acquire(blocking=False)


def test_under_gevent_it_is_the_operating_systems_lock_not_gevents() -> None:
    program = (
        "from gevent import monkey; monkey.patch_all()\n"
        "import threading\n"
        "from events.locks import short_lock\n"
        "print(type(threading.Lock()).__module__, type(short_lock()).__module__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True
    )
    patched, short = out.stdout.split()
    assert patched.startswith("gevent")
    assert short == "_thread"
