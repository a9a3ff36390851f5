"""Commands on the wire (recorded in each append's meta so a game can be re-decided and audited)."""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any

from marshmallow import ValidationError

from events.schemas import schema_for
from game.commands import (
    AnswerRedraw,
    FinishChancellor,
    Forfeit,
    PlayCard,
    StartGame,
    StartRound,
)
from game.table import (
    AbandonSeat,
    BeginGame,
    LeaveSeat,
    OpenTable,
    PlayAgain,
    SetWebhook,
    TakeSeat,
    TimeOut,
)

COMMAND_TYPES: dict[str, type] = {
    "open_table": OpenTable,
    "take_seat": TakeSeat,
    "leave_seat": LeaveSeat,
    "abandon_seat": AbandonSeat,
    "begin_game": BeginGame,
    "start_game": StartGame,
    "start_round": StartRound,
    "play_card": PlayCard,
    "finish_chancellor": FinishChancellor,
    "answer_redraw": AnswerRedraw,
    "forfeit": Forfeit,
    "time_out": TimeOut,
    "play_again": PlayAgain,
    "set_webhook": SetWebhook,
}
_NAMES = {cls: name for name, cls in COMMAND_TYPES.items()}
_SCHEMAS = {cls: schema_for(cls)() for cls in COMMAND_TYPES.values()}


def encode_command(command: Any) -> dict[str, Any]:
    """A command as JSON-ready data with its `type` (what `dump_command` gives; commands of
    numbers, strings and tuples of them are written directly, the others by their schema)."""
    names = _PLAIN_FIELDS.get(type(command))
    if names is None:
        return dump_command(command)
    data: dict[str, Any] = {"type": _NAMES[type(command)]}
    for name in names:
        value = getattr(command, name)
        data[name] = list(value) if isinstance(value, tuple) else value
    return data


def dump_command(command: Any) -> dict[str, Any]:
    """A command as its schema dumps it, with its `type` (the reference `encode_command` keeps)."""
    data: dict[str, Any] = _SCHEMAS[type(command)].dump(command)
    return {"type": _NAMES[type(command)], **data}


def _plain(hint: Any) -> bool:
    """Whether values of this type hint are JSON as they are (tuples of them as lists)."""
    if hint in (int, str, bool, type(None)):
        return True
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return all(_plain(option) for option in typing.get_args(hint))
    if typing.get_origin(hint) is tuple:
        options = typing.get_args(hint)
        return len(options) == 2 and options[1] is Ellipsis and options[0] in (int, str)
    return False


def _plain_fields(cls: type) -> list[str] | None:
    """The init fields of a command class whose fields are all plain; None if any is not."""
    hints = typing.get_type_hints(cls)
    names = [item.name for item in dataclasses.fields(cls) if item.init]
    return names if all(_plain(hints[name]) for name in names) else None


_PLAIN_FIELDS = {
    cls: names for cls in COMMAND_TYPES.values() if (names := _plain_fields(cls)) is not None
}


def decode_command(data: Mapping[str, Any]) -> Any:
    """A command from recorded data; ValidationError when malformed."""
    cls = COMMAND_TYPES.get(str(data.get("type")))
    if cls is None:
        raise ValidationError(f"Unknown command type {data.get('type')!r}.", "type")
    body = {key: value for key, value in data.items() if key != "type"}
    return _SCHEMAS[cls].load(body)
