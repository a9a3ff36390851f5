"""`loveletter chaos` on a few games: faults are injected, and its account adds up."""

from __future__ import annotations

import pytest

from bench.chaos import chaos

pytestmark = [pytest.mark.slow, pytest.mark.chaos]


def test_a_small_chaos_run_loses_nothing_and_counts_what_it_did() -> None:
    account = chaos(games=8, seed=3, timeout=240)
    assert account.games_started == account.games_finished == 8
    assert account.faults["worker killed"] >= 1
    assert account.commands_acknowledged >= 8  # every game has a human seat that moved
    assert account.answers.get("200", 0) >= account.commands_acknowledged
    assert (account.commands_lost, account.commands_applied_twice) == (0, 0)
    assert (account.games_stuck, account.verify_failures) == (0, 0)
    assert account.ok
