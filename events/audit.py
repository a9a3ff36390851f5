"""Audit a game's stream: export it as JSON lines, and verify it against the rules.

Verification re-decides every recorded command from the state before it and checks that the
stored events are exactly what the rules produce, and that every deal opens the commitment
published when it was dealt.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from marshmallow import ValidationError

from events.commands import decode_command
from events.store import StoredEvent
from events.vocabulary import VOCABULARY, Vocabulary
from game import events as ev
from game import table as tables
from game.errors import IllegalCommand
from game.fairness import dealt_order, opens


@dataclass(frozen=True)
class Divergence:
    """The first place where the stream is not what the rules produce."""

    version: int
    reason: str
    expected: Any = None
    stored: Any = None


@dataclass
class VerifyReport:
    """What a verification checked, and the first divergence if any."""

    events: int = 0
    commands: int = 0
    deals_opened: int = 0
    divergence: Divergence | None = None
    notes: list[str] = field(default_factory=list)
    status: str | None = None  # the table's at the end: open, playing or over (None: empty)
    deals_open: int = 0  # dealt, but their rounds have not ended: their commitments still closed

    @property
    def ok(self) -> bool:
        """True when the stream is exactly what the rules produce."""
        return self.divergence is None


class Events(Protocol):
    """Where a game's events are read: the store, or the repository (which also reads the
    archive)."""

    def read(self, game_id: str, start: int = 1, end: int | None = None) -> list[StoredEvent]:
        """Events with start <= version <= end (end None: to the last one), in order."""


def export_lines(source: Events, game_id: str) -> Iterator[str]:
    """The game's stream as JSON lines: version, event and, on a command's first event, meta."""
    return (export_line(item) for item in source.read(game_id))


def export_line(item: StoredEvent) -> str:
    """One event as its export line."""
    record: dict[str, Any] = {"version": item.version, "event": item.event, "meta": item.meta}
    if item.at is not None:
        record["at"] = item.at
    return json.dumps(record, separators=(",", ":"), sort_keys=True)


def stored_from_line(line: str) -> StoredEvent:
    """An export line read back as the stored event it was."""
    record = json.loads(line)
    at = record.get("at")
    return StoredEvent(
        int(record["version"]),
        record["event"],
        record.get("meta"),
        at=None if at is None else int(at),
    )


def verify_lines(lines: Iterable[str], vocabulary: Vocabulary = VOCABULARY) -> VerifyReport:
    """Verify an exported stream (JSON lines)."""
    records = []
    for number, line in enumerate(lines, start=1):
        if line.strip():
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as error:
                report = VerifyReport()
                report.divergence = Divergence(number, f"line {number} is not JSON: {error}")
                return report
    return verify(records, vocabulary)


def verify(records: list[Mapping[str, Any]], vocabulary: Vocabulary = VOCABULARY) -> VerifyReport:
    """Replay stored records with the rules and report the first divergence."""
    report = VerifyReport()
    table = None
    position = 0
    deals: dict[int, ev.RoundStarted] = {}
    while position < len(records):
        record = records[position]
        version = position + 1
        if record.get("version") != version:
            return _diverge(report, version, "the stream has a gap or is out of order")
        meta = record.get("meta")
        if not isinstance(meta, Mapping) or "command" not in meta:
            return _diverge(report, version, "no recorded command starts this batch of events")
        try:
            command = decode_command(meta["command"])
            expected = tables.decide(table, command)
        except (ValidationError, IllegalCommand, TypeError, ValueError) as error:
            return _diverge(report, version, f"the recorded command is not legal here: {error}")
        report.commands += 1
        for offset, event in enumerate(expected):
            index = position + offset
            stored = records[index] if index < len(records) else None
            wanted = vocabulary.encode(event)
            if stored is None or (offset and stored.get("meta") is not None):
                return _diverge(report, index + 1, "the command's events stop early", wanted)
            found = _current(vocabulary, stored.get("event"))
            if found != wanted:
                return _diverge(report, index + 1, "stored event differs", wanted, found)
            if not _deal_opens(event, deals, report):
                return _diverge(report, index + 1, "the deal does not open its commitment")
            table = tables.evolve(table, event)
            report.events += 1
        position += len(expected)
    report.status = None if table is None else table.status
    return report


def _current(vocabulary: Vocabulary, data: Any) -> Any:
    """A stored event upcast to the current version (or the raw value if it can't be)."""
    try:
        return vocabulary.encode(vocabulary.decode(data))
    except (ValidationError, KeyError, TypeError, AttributeError):
        return data


def _deal_opens(event: Any, deals: dict[int, ev.RoundStarted], report: VerifyReport) -> bool:
    """Remember each deal; when its round ends, check the revealed deal opens the commitment."""
    if isinstance(event, ev.RoundStarted):
        deals[event.round] = event
        report.deals_open += 1
    elif isinstance(event, ev.RoundEnded):
        dealt = deals[event.round]
        order = dealt_order(dealt.set_aside, dealt.face_up, dealt.hands, dealt.deck)
        if event.dealt != order or not opens(dealt.commitment, event.salt, event.dealt):
            return False
        report.deals_opened += 1
        report.deals_open -= 1
    return True


def _diverge(
    report: VerifyReport, version: int, reason: str, expected: Any = None, stored: Any = None
) -> VerifyReport:
    report.divergence = Divergence(version, reason, expected, stored)
    return report
