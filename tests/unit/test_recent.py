"""The bounded map the per-process caches share."""

from __future__ import annotations

from events.recent import Recent


def test_the_oldest_put_goes_first() -> None:
    kept: Recent[str, int] = Recent(2)
    kept.put("a", 1)
    kept.put("b", 2)
    kept.put("a", 3)  # a is now the newest
    kept.put("c", 4)
    assert (kept.get("a"), kept.get("b"), kept.get("c"), len(kept)) == (3, None, 4, 2)


def test_get_leaves_the_age_and_pop_forgets() -> None:
    kept: Recent[str, int] = Recent(2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.get("a") == 1
    kept.put("c", 3)  # a was put first: it goes, though it was read last
    assert kept.get("a") is None
    assert kept.pop("b") == 2 and kept.pop("b") is None and len(kept) == 1
