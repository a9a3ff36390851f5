"""Quick play's pure parts: the names players sit under, and the ranked window."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from events.queue import Window
from play.quickplay import NAME_MAX, _seated_names

NAMES = st.text(st.sampled_from("ab -"), min_size=1, max_size=NAME_MAX)


@given(
    names=st.lists(st.one_of(NAMES, st.just("medium-bot-3"), st.just("a" * NAME_MAX)), max_size=6),
    bots=st.integers(0, 2),
)
def test_players_sit_under_distinct_names_apart_from_the_bots(names: list[str], bots: int) -> None:
    layout = (None,) * len(names) + ("medium",) * bots
    seated = _seated_names(names, layout)
    bot_names = {f"medium-bot-{seat + 1}" for seat in range(len(names), len(layout))}
    assert len(set(seated)) == len(seated) and not set(seated) & bot_names
    assert all(len(name) <= NAME_MAX for name in seated)
    for asked, given_name in zip(names, seated, strict=True):
        assert given_name == asked or given_name.startswith(asked[: NAME_MAX - 3])


def test_the_ranked_window_widens_with_the_wait_up_to_its_most() -> None:
    window = Window()
    assert window.at(0) == 3.0 and window.at(20) == 13.0
    assert window.at(94) == 50.0 and window.at(1000) == 50.0
    assert window.at(-5) == 3.0
