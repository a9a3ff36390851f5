"""The feed's events as the OpenAPI document describes them: one schema per event type, in the
shape `game.views.redact` gives it (a field some audience sees hidden may be null, or a list
of nulls), plus the `version` that appended it. Built from the events' own type hints."""

from __future__ import annotations

import types
import typing
from dataclasses import fields
from typing import Any

from events.vocabulary import VOCABULARY
from game.views import hidden_fields

JSON_TYPES: dict[Any, str] = {int: "integer", str: "string", bool: "boolean"}


def hint_schema(hint: Any, *, hidden: bool = False) -> dict[str, Any]:
    """The JSON Schema of a value of this type hint; `hidden`: None may stand in for it (for
    a list, for each of its items)."""
    origin, options = typing.get_origin(hint), typing.get_args(hint)
    if origin is tuple and len(options) == 2 and options[1] is Ellipsis:
        return {"type": "array", "items": hint_schema(options[0], hidden=hidden)}
    if origin is tuple:  # a fixed pair such as (seat, card)
        kinds = sorted({JSON_TYPES[option] for option in options})
        return {
            "type": "array",
            "items": {"type": kinds},
            "minItems": len(options),
            "maxItems": len(options),
        }
    kinds = []
    for option in options if origin in (typing.Union, types.UnionType) else (hint,):
        kinds.append("null" if option is type(None) else JSON_TYPES[option])
    if hidden and "null" not in kinds:
        kinds.append("null")
    return {"type": kinds[0] if len(kinds) == 1 else kinds}


def event_schema(type_name: str, cls: type) -> dict[str, Any]:
    """The schema of one event type in the feed."""
    hidden = set(hidden_fields(cls))
    hints = typing.get_type_hints(cls)
    properties: dict[str, Any] = {
        "version": {"type": "integer", "minimum": 1, "description": "The version it made"},
        "at": {
            "type": ["string", "null"],
            "format": "date-time",
            "description": "When it was appended (UTC, milliseconds; null for events stored"
            " before times were recorded)",
        },
        "type": {"type": "string", "enum": [type_name]},
    }
    for item in fields(cls):
        properties[item.name] = hint_schema(hints[item.name], hidden=item.name in hidden)
    return {
        "type": "object",
        "description": (cls.__doc__ or "").strip().splitlines()[0],
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def component_name(cls: type) -> str:
    """An event type's schema name, e.g. CardPlayedEvent."""
    return f"{cls.__name__}Event"


# Event type -> its schema component's name; and the schemas themselves.
EVENT_COMPONENTS = {name: component_name(cls) for name, cls in sorted(VOCABULARY.types.items())}
EVENT_SCHEMAS = {
    component_name(cls): event_schema(name, cls) for name, cls in VOCABULARY.types.items()
}
