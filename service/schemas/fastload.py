"""Loaders compiled from marshmallow schemas, for the bodies of the hot path (a command).

The schema stays the one source of validation: `compile_loader(schema)` reads its fields, their
validators and options once, at import, and returns a function that gives what `schema.load`
would give, or None whenever it is not sure. The caller then loads with the schema itself, so
refusals keep marshmallow's messages, and anything the compiler does not know goes through
marshmallow's own code (a field of another kind is deserialized by the field itself).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from service.schemas.base import StrictBoolean, WholeNumber

Loader = Callable[[Any], Any]  # a value as its field loads it, or Refused
BodyLoader = Callable[[Any], "dict[str, Any] | None"]


class Refused(Exception):
    """The fast path does not load this value: the schema will load it or say why not."""


def compile_loader(schema: ma.Schema) -> BodyLoader:
    """A loader of JSON bodies equal to `schema.load`, None where the schema must decide."""
    if any(schema._hooks.values()) or schema.many or schema.partial or schema.unknown == ma.INCLUDE:
        return lambda body: None  # hooks and partial loads: marshmallow alone
    members = [
        (field.data_key or name, field.attribute or name, field_loader(field), field)
        for name, field in schema.load_fields.items()
    ]
    strict = schema.unknown == ma.RAISE

    def load(body: Any) -> dict[str, Any] | None:
        if type(body) is not dict:
            return None
        loaded: dict[str, Any] = {}
        found = 0
        try:
            for key, attribute, loader, field in members:
                if key in body:
                    loaded[attribute] = loader(body[key])
                    found += 1
                elif field.required:
                    return None
                elif field.load_default is not ma.missing:
                    default = field.load_default
                    loaded[attribute] = default() if callable(default) else default
        except Refused:
            return None
        if strict and found != len(body):
            return None  # a member the schema does not know
        return loaded

    return load


def field_loader(field: fields.Field) -> Loader:
    """A field's value as it loads it (None as `allow_none` says), then its validators."""
    kind = KINDS.get(type(field))
    if kind is None or field.pre_load or field.post_load:
        return _through(field)
    base = kind(field)
    checks = [validator_check(validator) for validator in field.validators]
    allow_none = field.allow_none

    def load(value: Any) -> Any:
        if value is None:
            if allow_none:
                return None
            raise Refused
        loaded = base(value)
        for check in checks:
            check(loaded)
        return loaded

    return load


def _through(field: fields.Field) -> Loader:
    """A field of a kind not compiled: deserialized by the field itself."""

    def load(value: Any) -> Any:
        try:
            return field.deserialize(value)
        except ma.ValidationError:
            raise Refused from None

    return load


def _exactly(kind: type) -> Callable[[fields.Field], Loader]:
    """Fields whose values are taken as they are when of exactly `kind` (a string, a boolean)."""

    def compile_field(field: fields.Field) -> Loader:
        def load(value: Any) -> Any:
            if type(value) is not kind:
                raise Refused
            return value

        return load

    return compile_field


def _whole_number(field: fields.Field) -> Loader:
    def load(value: Any) -> Any:
        if type(value) is int:
            return value
        if type(value) is float and value.is_integer():
            return int(value)  # JSON Schema's integer: 3.0 is 3
        raise Refused

    return load


def _list(field: fields.Field) -> Loader:
    assert isinstance(field, fields.List)
    item = field_loader(field.inner)

    def load(value: Any) -> Any:
        if type(value) is not list:
            raise Refused
        return [item(each) for each in value]

    return load


# The field kinds compiled (exact classes: a subclass may load otherwise), by what they load.
KINDS: Mapping[type, Callable[[fields.Field], Loader]] = {
    fields.String: _exactly(str),
    StrictBoolean: _exactly(bool),
    WholeNumber: _whole_number,
    fields.List: _list,
}


def validator_check(validator: Callable[[Any], Any]) -> Callable[[Any], None]:
    """A validator as a check that raises Refused: OneOf, Length and Range compiled, any other
    called as it is."""
    if type(validator) is validate.OneOf and all(type(c) is str for c in validator.choices):
        choices = frozenset(validator.choices)

        def one_of(value: Any) -> None:
            if value not in choices:
                raise Refused

        return one_of
    if type(validator) is validate.Length:
        least, most, equal = validator.min, validator.max, validator.equal

        def length(value: Any) -> None:
            size = len(value)
            if equal is not None:
                if size != equal:
                    raise Refused
            elif (least is not None and size < least) or (most is not None and size > most):
                raise Refused

        return length
    if type(validator) is validate.Range:
        return _range(validator)

    def called(value: Any) -> None:
        try:
            if validator(value) is False:
                raise Refused
        except ma.ValidationError:
            raise Refused from None

    return called


def _range(validator: validate.Range) -> Callable[[Any], None]:
    low, high = validator.min, validator.max
    low_in, high_in = validator.min_inclusive, validator.max_inclusive

    def within(value: Any) -> None:
        if low is not None and (value < low if low_in else value <= low):
            raise Refused
        if high is not None and (value > high if high_in else value >= high):
            raise Refused

    return within
