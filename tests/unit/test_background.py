"""A duty's daemon thread: once per process, again in a forked child, and under gevent."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

from events.background import Background


def test_the_duty_starts_once_however_many_threads_ask() -> None:
    started: list[str] = []
    release = threading.Event()

    def duty() -> None:
        started.append(threading.current_thread().name)
        release.wait(10)

    background = Background("duty", duty)
    askers = [threading.Thread(target=background.ensure) for _ in range(8)]
    for asker in askers:
        asker.start()
    for asker in askers:
        asker.join(10)
    background.ensure()
    release.set()
    assert started == ["duty"]
    assert background.started


def test_a_forked_child_starts_a_thread_of_its_own_after_forgetting_the_parents() -> None:
    ran = threading.Event()
    forgotten: list[int] = []
    background = Background("duty", ran.set, on_fork=lambda: forgotten.append(os.getpid()))
    background.ensure()
    assert ran.wait(10)
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # the child: no thread runs the duty until it asks
        try:
            ran.clear()
            before = background.started
            background.ensure()
            answer = f"{before} {ran.wait(10)} {forgotten == [os.getpid()]}"
            os.write(writer, answer.encode())
        finally:
            os._exit(0)
    os.close(writer)
    answer = os.read(reader, 100).decode()
    os.waitpid(child, 0)
    assert answer == "False True True"
    assert forgotten == []  # the parent's own hook never ran


def test_under_gevent_the_duty_runs_while_greenlets_keep_asking() -> None:
    program = (
        "from gevent import monkey; monkey.patch_all()\n"
        "import threading, gevent\n"
        "from events.background import Background\n"
        "ran = threading.Event()\n"
        "background = Background('duty', ran.set)\n"
        "gevent.joinall([gevent.spawn(background.ensure) for _ in range(50)], timeout=10)\n"
        "print(ran.wait(10))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.split() == ["True"]
