"""The command loaders compiled from the schemas agree with marshmallow on every body: the same
bodies accepted, with the same loaded values, and the same refused."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from service.schemas import commands
from service.schemas.base import Schema, StrictBoolean, WholeNumber
from service.schemas.commands import CARDS, COMMAND_SCHEMAS, load_command
from service.schemas.fastload import compile_loader

READERS = {name: schema() for name, schema in COMMAND_SCHEMAS.items()}
FAST = {name: compile_loader(reader) for name, reader in READERS.items()}
MEMBERS = sorted({key for reader in READERS.values() for key in reader.load_fields} | {"extra"})

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=12),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0.0, 1.0, 2.0, 2.5, 9.0, 10.0]),
    st.sampled_from(CARDS + list(COMMAND_SCHEMAS) + ["", "Guard", "nobody"]),
    st.text(max_size=5),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=6,
)
cards = st.sampled_from(CARDS)
seats = st.integers(min_value=-1, max_value=8) | st.sampled_from([0.0, 1.0, 1.5, True])
# Each member mostly as a command would send it, sometimes anything JSON.
plausible = {
    "card": cards,
    "keep": cards,
    "bottom": st.lists(cards | json_scalars, max_size=3),
    "targets": st.lists(seats, max_size=3),
    "guess": cards | st.integers(min_value=-1, max_value=10) | st.floats(-1, 10),
    "look": seats,
    "redraw": st.booleans(),
}
bodies = st.dictionaries(st.sampled_from(MEMBERS), json_values, max_size=6)


@st.composite
def commands_of(draw: st.DrawFn, name: str) -> dict[str, Any]:
    """A body for the schema `name`: its members, plausible or not, some left out or added."""
    body: dict[str, Any] = {"type": name} if draw(st.integers(0, 9)) else {}
    for member in READERS[name].load_fields:
        if member != "type" and draw(st.integers(0, 4)):
            body[member] = draw(
                plausible[member] | json_values if draw(st.booleans()) else plausible[member]
            )
    if not draw(st.integers(0, 9)):
        body[draw(st.sampled_from(MEMBERS))] = draw(json_values)
    return body


def marshmallow_load(name: str, body: Any) -> dict[str, Any] | None:
    """What the schema loads, or None when it refuses."""
    try:
        loaded: dict[str, Any] = READERS[name].load(body)
    except ma.ValidationError:
        return None
    return loaded


@settings(max_examples=600, deadline=None)
@given(name=st.sampled_from(sorted(COMMAND_SCHEMAS)), body=bodies)
@example(name="play", body={"type": "play", "card": "guard", "targets": [1.0], "guess": 3.0})
@example(name="play", body={"type": "play", "card": "guard", "targets": [True]})
@example(name="play", body={"type": "play", "card": "guard", "targets": [0, 1, 2]})
@example(name="play", body={"type": "play", "card": "guard", "look": None})
@example(name="chancellor", body={"type": "chancellor", "keep": "spy", "bottom": []})
@example(name="redraw", body={"type": "redraw", "redraw": 1})
def test_fast_loader_agrees_with_marshmallow(name: str, body: dict[str, Any]) -> None:
    if "type" in body:
        body = {**body, "type": name}  # a body that names its own schema goes further
    assert FAST[name](body) == marshmallow_load(name, body)


@settings(max_examples=600, deadline=None)
@given(data=st.data(), name=st.sampled_from(sorted(COMMAND_SCHEMAS)))
def test_fast_loader_agrees_on_plausible_commands(data: st.DataObject, name: str) -> None:
    body = data.draw(commands_of(name))
    assert FAST[name](body) == marshmallow_load(name, body)


@given(body=json_values)
def test_fast_loader_agrees_on_any_json_value(body: Any) -> None:
    for name in COMMAND_SCHEMAS:
        assert FAST[name](body) == marshmallow_load(name, body)


def test_refusals_keep_marshmallows_messages() -> None:
    with pytest.raises(ma.ValidationError) as refused:
        load_command({"type": "play", "card": "guard", "targets": [9]})
    with pytest.raises(ma.ValidationError) as by_schema:
        READERS["play"].load({"type": "play", "card": "guard", "targets": [9]})
    assert refused.value.messages == by_schema.value.messages


def test_commands_load_through_the_compiled_loaders() -> None:
    body = {"type": "play", "card": "guard", "targets": [1], "guess": "priest"}
    assert commands._FAST_READERS["play"](body) == body
    assert load_command(body) == body


class Other(ma.fields.Integer):
    """A field kind the compiler does not know."""


class Sample(Schema):
    whole = WholeNumber(validate=ma.validate.Range(min=1, max=3, max_inclusive=False))
    flag = StrictBoolean(load_default=False)
    kind = ma.fields.String(validate=ma.validate.Length(equal=2), data_key="k")
    other = Other(allow_none=True, validate=lambda value: value != 4)


SAMPLE = Sample()
SAMPLE_FAST = compile_loader(SAMPLE)


@given(st.dictionaries(st.sampled_from(["whole", "flag", "k", "kind", "other"]), json_values))
def test_fields_options_and_validators_agree(body: dict[str, Any]) -> None:
    try:
        expected: dict[str, Any] | None = SAMPLE.load(body)
    except ma.ValidationError:
        expected = None
    assert SAMPLE_FAST(body) == expected


def test_schemas_with_hooks_are_left_to_marshmallow() -> None:
    class Hooked(Schema):
        name = ma.fields.String()

        @ma.post_load
        def shout(self, data: dict[str, Any], **_: Any) -> dict[str, Any]:
            return {"name": data["name"].upper()}

    assert compile_loader(Hooked())({"name": "ann"}) is None
