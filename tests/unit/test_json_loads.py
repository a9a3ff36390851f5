"""Request bodies read by orjson alone when they can be: the same values as the standard
library's reading, and the same refusals (a key named twice, an integer beyond 64 bits kept)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.jsonprovider import _distinct_keys, loads

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=st.sampled_from('ab:"{}\\ é'), max_size=4),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(alphabet="ab:", max_size=2), inner, max_size=3),
    max_leaves=8,
)  # fmt: skip


def standard(text: str | bytes) -> Any:
    """The value as the standard library reads it, refusing a key named twice."""
    return json.loads(text, object_pairs_hook=_distinct_keys)


@given(values)
def test_bodies_read_as_the_standard_library_reads_them(value: Any) -> None:
    text = json.dumps(value)
    assert loads(text) == standard(text)
    assert loads(text.encode()) == standard(text)


@given(st.lists(st.sampled_from(["a", "b", "a:b"]), min_size=2, max_size=4), st.integers())
def test_a_key_named_twice_is_refused(names: list[str], number: int) -> None:
    text = "{" + ",".join(f'"{name}":{number}' for name in names) + "}"
    if len(set(names)) < len(names):
        with pytest.raises(json.JSONDecodeError):
            loads(text)
    else:
        assert loads(text) == standard(text)


def test_integers_beyond_64_bits_stay_integers() -> None:
    assert loads(b'{"seed": 123456789012345678901234567890}') == {
        "seed": 123456789012345678901234567890
    }
