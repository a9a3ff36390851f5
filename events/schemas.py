"""Marshmallow schemas built from dataclasses' own type hints, so they can't drift from them."""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from typing import Any

from marshmallow import Schema, ValidationError, post_load
from marshmallow import fields as mf

from game.editions import EDITIONS, Edition


class CardOrNumber(mf.Field):
    """A named card (a string) or a named number (an integer), as the Guard and Bishop name."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise ValidationError("Not a card name or a number.")
        return value


class EditionField(mf.Field):
    """An edition, written as its id."""

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return value.id

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if value not in EDITIONS:
            raise ValidationError("Unknown edition.")
        return EDITIONS[value]


class OneOf(mf.Field):
    """One of several dataclasses, tagged on the wire by `kind` (the class name)."""

    def __init__(self, classes: tuple[type, ...], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.classes = {cls.__name__: cls for cls in classes}

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        if value is None:
            return None
        return {"kind": type(value).__name__, **schema_for(type(value))().dump(value)}

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, dict) or value.get("kind") not in self.classes:
            raise ValidationError(
                f"Expected an object whose kind is one of {sorted(self.classes)}."
            )
        body = {key: item for key, item in value.items() if key != "kind"}
        return schema_for(self.classes[value["kind"]])().load(body)


class SetOf(mf.List):
    """A JSON array (sorted) loaded as a frozenset."""

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return super()._serialize(sorted(value), attr, obj, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        return frozenset(super()._deserialize(value, attr, data, **kwargs))


class TupleOf(mf.List):
    """A JSON array loaded as a tuple (events are immutable values)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        return tuple(super()._deserialize(value, attr, data, **kwargs))


def field_for(hint: Any) -> mf.Field:
    """The marshmallow field for one dataclass type hint."""
    options = typing.get_args(hint)
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        rest = [option for option in options if option is not type(None)]
        allow_none = len(rest) < len(options)
        if set(rest) == {str, int}:
            inner: mf.Field = CardOrNumber()
        elif len(rest) > 1:
            inner = OneOf(tuple(rest))
        else:
            inner = field_for(rest[0])
        inner.allow_none = allow_none
        inner.required = not allow_none
        return inner
    if typing.get_origin(hint) is frozenset:
        return SetOf(field_for(options[0]), required=True)
    if typing.get_origin(hint) is tuple:
        if len(options) == 2 and options[1] is Ellipsis:
            return TupleOf(field_for(options[0]), required=True)
        return mf.Tuple(tuple(field_for(option) for option in options), required=True)
    chosen: mf.Field
    if hint is Edition:
        chosen = EditionField()
    elif isinstance(hint, type) and issubclass(hint, enum.Enum):
        chosen = mf.Enum(hint, by_value=True)
    elif isinstance(hint, type) and dataclasses.is_dataclass(hint):
        chosen = mf.Nested(schema_for(hint))
    else:
        simple: dict[Any, mf.Field] = {
            int: mf.Integer(strict=True),
            str: mf.String(),
            bool: mf.Boolean(),
        }
        chosen = simple[hint]
    chosen.required = True
    return chosen


_SCHEMAS: dict[type, type[Schema]] = {}


def schema_for(cls: type) -> type[Schema]:
    """A schema that loads `cls`'s init fields into a `cls` and dumps them back (built once)."""
    if cls not in _SCHEMAS:
        _SCHEMAS[cls] = _build_schema(cls)
    return _SCHEMAS[cls]


def _build_schema(cls: type) -> type[Schema]:
    hints = typing.get_type_hints(cls)
    declared: dict[str, Any] = {}
    for item in dataclasses.fields(cls):
        if item.init:
            declared[item.name] = field_for(hints[item.name])
            if _has_default(item):  # a field added later: records written before lack it
                declared[item.name].required = False

    def make(self: Schema, data: dict[str, Any], **_: Any) -> Any:
        return cls(**data)

    declared["make"] = post_load(make)
    return type(f"{cls.__name__}Schema", (Schema,), declared)


def _has_default(item: dataclasses.Field[Any]) -> bool:
    return (
        item.default is not dataclasses.MISSING or item.default_factory is not dataclasses.MISSING
    )
