"""The event vocabulary on the wire: one marshmallow schema per event type, `type` and `v`.

Schemas are built from the event dataclasses (`events.schemas`). An event stored under an older
`v` is upcast, one version at a time, before it is loaded.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from marshmallow import ValidationError

from events.schemas import schema_for
from events.store import StoredEvent
from game.events import EVENT_TYPES
from game.table import (
    ABANDON_AFTER,
    TAKEOVER_BOT,
    SeatLeft,
    SeatTaken,
    SeatTakenOver,
    TableOpened,
    TurnTimedOut,
    WebhookSet,
)

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass
class Vocabulary:
    """Event types by name, their current versions, schemas and upcasters."""

    types: Mapping[str, type]
    versions: dict[str, int] = field(default_factory=dict)
    upcasters: dict[tuple[str, int], Upcaster] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._schemas = {name: schema_for(cls)() for name, cls in self.types.items()}
        self._fields = {name: [f.name for f in fields(cls)] for name, cls in self.types.items()}

    def version(self, type_name: str) -> int:
        """The version events of this type are written with now."""
        return self.versions.get(type_name, 1)

    def encode(self, event: Any) -> dict[str, Any]:
        """An event as JSON-ready data: `type`, `v` and its fields (what its schema dumps,
        written directly: events hold only numbers, strings, booleans and tuples of them)."""
        data: dict[str, Any] = {"type": event.type, "v": self.version(event.type)}
        for name in self._fields[event.type]:
            data[name] = _listed(getattr(event, name))
        return data

    def dump(self, event: Any) -> dict[str, Any]:
        """What the event's schema dumps (the reference `encode` must agree with)."""
        data: dict[str, Any] = self._schemas[event.type].dump(event)
        return {"type": event.type, "v": self.version(event.type), **data}

    def decode(self, data: Mapping[str, Any]) -> Any:
        """An event from stored data of any known version; ValidationError when malformed."""
        type_name = data.get("type")
        if type_name not in self.types:
            raise ValidationError(f"Unknown event type {type_name!r}.", "type")
        body = self.upcast(dict(data))
        body.pop("type"), body.pop("v")
        return self._schemas[str(type_name)].load(body)

    def decode_own(self, data: Mapping[str, Any]) -> Any:
        """An event as `encode` writes it at the current version (what this service appends and
        publishes), built without its schema's checks: about 6 µs an event against 66 on this
        machine, for every event a reader folds or is sent. Anything else is `decode`d: an
        older version is upcast, and malformed data refused. The audit decodes with `decode`."""
        type_name = data.get("type")
        names = self._fields.get(type_name)  # type: ignore[arg-type]
        if (
            names is None
            or data.get("v") != self.version(str(type_name))
            or len(data) != len(names) + 2
        ):
            return self.decode(data)
        try:
            values = [_tupled(data[name]) for name in names]
        except KeyError:
            return self.decode(data)
        return self.types[str(type_name)](*values)

    def decoded(self, item: StoredEvent) -> Any:
        """A stored event's event, decoded (once: a reader that decoded it already kept it)."""
        return item.decoded if item.decoded is not None else self.decode_own(item.event)

    def upcast(self, data: dict[str, Any]) -> dict[str, Any]:
        """Stored data brought to the current version of its type, one step at a time."""
        type_name, version = data["type"], data.get("v", 1)
        if not isinstance(version, int) or not 1 <= version <= self.version(type_name):
            raise ValidationError(f"Unknown version {version!r} of {type_name}.", "v")
        while version < self.version(type_name):
            data = self.upcasters[(type_name, version)](data)
            version += 1
            data["v"] = version
        return data


def _tupled(value: Any) -> Any:
    """JSON's lists as tuples, all the way down (as events hold them)."""
    if isinstance(value, list):
        return tuple([_tupled(item) for item in value])
    return value


def _listed(value: Any) -> Any:
    """Tuples as lists, all the way down (as JSON has them)."""
    if isinstance(value, tuple):
        return [_listed(item) for item in value]
    return value


def _table_opened_v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """v2 says whether the creator chose the seed; v1 tables were not marked (read: not)."""
    return {**data, "seeded": False}


def _table_opened_v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    """v3 has the abandoning settings; v2 tables had none (read: the defaults)."""
    return {**data, "abandon_after": ABANDON_AFTER, "takeover_bot": TAKEOVER_BOT}


def _table_opened_v3_to_v4(data: dict[str, Any]) -> dict[str, Any]:
    """v4 says whether the table is ranked and whether spectators may chat; v3 tables were
    neither (read: unranked, only the seats chat)."""
    return {**data, "ranked": False, "spectator_chat": False}


def _table_opened_v4_to_v5(data: dict[str, Any]) -> dict[str, Any]:
    """v5 names the tutorial a table plays; v4 tables were none."""
    return {**data, "tutorial": None}


def _seat_taken_v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """v2 names the player who took the seat; v1 seats were taken by a seat token alone."""
    return {**data, "player": None}


TABLE_EVENTS = (TableOpened, SeatTaken, SeatLeft, TurnTimedOut, WebhookSet, SeatTakenOver)
VOCABULARY = Vocabulary(
    {**EVENT_TYPES, **{cls.type: cls for cls in TABLE_EVENTS}},
    versions={"table_opened": 5, "seat_taken": 2},
    upcasters={
        ("table_opened", 1): _table_opened_v1_to_v2,
        ("table_opened", 2): _table_opened_v2_to_v3,
        ("table_opened", 3): _table_opened_v3_to_v4,
        ("table_opened", 4): _table_opened_v4_to_v5,
        ("seat_taken", 1): _seat_taken_v1_to_v2,
    },
)
