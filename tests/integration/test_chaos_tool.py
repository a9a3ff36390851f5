"""`loveletter chaos` on a few games: faults are injected, and its account adds up; faults that
its counters must show (bench.faults) are each counted exactly."""

from __future__ import annotations

import pytest

from bench.chaos import chaos
from bench.faults import Faults

pytestmark = [pytest.mark.slow, pytest.mark.chaos, pytest.mark.timeout(900)]


def test_a_small_chaos_run_loses_nothing_and_counts_what_it_did() -> None:
    account = chaos(games=8, seed=3, timeout=240)
    assert account.games_started == account.games_finished == 8
    assert account.faults["worker killed"] >= 1
    assert account.commands_acknowledged >= 8  # every game has a human seat that moved
    assert account.answers.get("200", 0) >= account.commands_acknowledged
    assert (account.commands_lost, account.commands_applied_twice) == (0, 0)
    assert (account.games_stuck, account.verify_failures) == (0, 0)
    assert account.ok


def test_each_fault_given_to_a_chaos_run_is_counted_exactly() -> None:
    """The negative controls: one game loses its last acknowledged command, one seat's key is
    applied twice, one game is held on lost jobs past the stuck bound, one deal is altered;
    the other games, under the same worker kills and Redis restarts, add nothing."""
    account = chaos(games=6, seed=5, timeout=240, faults=Faults(lose=1, twice=1, stuck=1, tamper=1))
    injected = {name: n for name, n in account.faults.items() if name.startswith("control: ")}
    assert list(injected.values()) == [1, 1, 1, 1], injected
    counted = (
        account.commands_lost,
        account.commands_applied_twice,
        account.games_stuck,
        account.verify_failures,
    )
    assert counted == (1, 1, 1, 1)
    assert account.games_finished == account.games_started - 1  # the game whose end was lost
    assert not account.ok
