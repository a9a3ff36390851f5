"""Commands on the wire (recorded in each append's meta so a game can be re-decided and audited)."""

from __future__ import annotations

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
    """A command as JSON-ready data with its `type`."""
    data: dict[str, Any] = _SCHEMAS[type(command)].dump(command)
    return {"type": _NAMES[type(command)], **data}


def decode_command(data: Mapping[str, Any]) -> Any:
    """A command from recorded data; ValidationError when malformed."""
    cls = COMMAND_TYPES.get(str(data.get("type")))
    if cls is None:
        raise ValidationError(f"Unknown command type {data.get('type')!r}.", "type")
    body = {key: value for key, value in data.items() if key != "type"}
    return _SCHEMAS[cls].load(body)
