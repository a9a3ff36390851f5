"""A game's chat in the store: one Redis stream per game beside its event stream (same hash slot),
never among its events, so posting changes no version of the game. Who muted whom is kept in
the game's slot too, one set per reader. Both leave Redis for the archive with the game.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

from events.connection import RedisClient, as_text
from events.players import LAST_ENTRY_ID
from events.store import game_key, iso_time

POST_SCRIPT = files("events").joinpath("chat.lua").read_text(encoding="utf-8")
RESTORE_SCRIPT = files("events").joinpath("chat_restore.lua").read_text(encoding="utf-8")
SPECTATORS = "spectators"  # what a reader mutes to hear no spectator


def chat_channel(namespace: str) -> str:
    """The pub/sub channel on which every chat message of the namespace is announced."""
    return f"{namespace}:chat"


@dataclass(frozen=True)
class ChatMessage:
    """One message: its stream id (`<ms>-<n>`), who posted it (a seat, or a spectator: seat
    None) under which name, and either a preset's code or free text."""

    id: str
    seat: int | None
    player: str | None
    name: str
    preset: str | None = None
    text: str | None = None

    @property
    def at(self) -> str:
        """When it was posted (from its id), ISO 8601 UTC."""
        return iso_time(int(self.id.split("-")[0]))

    def fields(self) -> dict[str, str]:
        """What the stream entry holds."""
        found = {"s": "" if self.seat is None else str(self.seat), "p": self.player or ""}
        found["n"] = self.name
        if self.preset is not None:
            found["c"] = self.preset
        else:
            found["x"] = self.text or ""
        return found

    def line(self) -> str:
        """The message as an export line (JSON)."""
        record: dict[str, Any] = {"id": self.id, "seat": self.seat, "player": self.player,
                                  "name": self.name}  # fmt: skip
        record["preset" if self.preset is not None else "text"] = self.preset or self.text
        return json.dumps(record, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def message_from(entry_id: str, fields: Mapping[Any, Any]) -> ChatMessage:
    """A message from its stream entry."""
    got = {as_text(name): as_text(value) for name, value in fields.items()}
    seat = got.get("s", "")
    return ChatMessage(
        entry_id,
        int(seat) if seat else None,
        got.get("p") or None,
        got.get("n", ""),
        got.get("c"),
        got.get("x") if "c" not in got else None,
    )


def message_from_line(line: str) -> ChatMessage:
    """An export line read back."""
    record = json.loads(line)
    return ChatMessage(
        str(record["id"]),
        record.get("seat"),
        record.get("player"),
        str(record.get("name", "")),
        record.get("preset"),
        record.get("text"),
    )


def chat_order(message_id: str) -> tuple[int, int]:
    """A message id (`<ms>-<n>`) as a sortable pair."""
    ms, _, n = message_id.partition("-")
    return int(ms), int(n or 0)


class MovedOn(Exception):
    """The game moved on since the table a chat poster was judged on."""


class ChatStore:
    """The chats of one namespace's games."""

    def __init__(self, redis_client: RedisClient, *, namespace: str = "ll", length: int = 1000):
        self.redis = redis_client
        self.namespace = namespace
        self.length = length
        self._post = redis_client.register_script(POST_SCRIPT)
        self._restore = redis_client.register_script(RESTORE_SCRIPT)

    def key(self, game_id: str) -> str:
        """The game's chat stream."""
        return game_key(self.namespace, game_id, "chat")

    def mutes_key(self, game_id: str) -> str:
        """The game's mutes: one set whose members are `<holder> <target>` (a holder: a
        reader's identity; a target: a seat's number or `spectators`)."""
        return game_key(self.namespace, game_id, "mutes")

    def post(
        self, game_id: str, message: ChatMessage, version: int | None = None
    ) -> ChatMessage | None:
        """Append the message (its id is given by Redis) and announce it; None when the game's
        stream is not in Redis (archived or unknown). MovedOn when the game is past `version`,
        the one its poster was judged on."""
        stream = game_key(self.namespace, game_id, "stream")
        fields = [value for pair in message.fields().items() for value in pair]
        checked = "" if version is None else version
        args: list[str | int] = [self.length, chat_channel(self.namespace), game_id, checked,
                                 *fields]  # fmt: skip
        found = self._post(keys=[self.key(game_id), stream], args=args)
        if found is None:
            return None
        if found == 0:
            raise MovedOn(game_id)
        return ChatMessage(as_text(found), message.seat, message.player, message.name,
                           message.preset, message.text)  # fmt: skip

    def read(self, game_id: str, after: str = "0-0", count: int = 100) -> list[ChatMessage]:
        """Messages after the id `after`, oldest first."""
        if after == LAST_ENTRY_ID:
            return []
        entries: Any = self.redis.xrange(self.key(game_id), f"({after}", "+", count)
        return [message_from(as_text(entry_id), fields) for entry_id, fields in entries]

    def head(self, game_id: str) -> str:
        """The id of the newest message ("0-0": none)."""
        found: Any = self.redis.xrevrange(self.key(game_id), "+", "-", 1)
        return as_text(found[0][0]) if found else "0-0"

    def mute(self, game_id: str, holder: str, target: str, muted: bool) -> None:
        """Mute (or hear again) a seat (its number) or the spectators, for `holder` alone."""
        key, member = self.mutes_key(game_id), f"{holder} {target}"
        if muted:
            self.redis.sadd(key, member)
        else:
            self.redis.srem(key, member)

    def mutes(self, game_id: str) -> dict[str, frozenset[str]]:
        """What each holder muted at this game."""
        found: dict[str, set[str]] = {}
        for member in self.redis.smembers(self.mutes_key(game_id)):
            holder, _, target = as_text(member).rpartition(" ")
            found.setdefault(holder, set()).add(target)
        return {holder: frozenset(targets) for holder, targets in found.items()}

    def muted(self, game_id: str, holder: str | None) -> frozenset[str]:
        """What `holder` muted at this game (nothing for a reader without an identity)."""
        return frozenset() if holder is None else self.mutes(game_id).get(holder, frozenset())

    def export(self, game_id: str) -> tuple[list[str], str]:
        """The whole chat as export lines (each message, then each reader's mutes:
        `{"holder", "muted"}`), and the id of the last message in them ("0-0": none)."""
        lines = []
        after = "0-0"
        while batch := self.read(game_id, after, 1000):
            lines += [message.line() for message in batch]
            after = batch[-1].id
        for holder, muted in sorted(self.mutes(game_id).items()):
            record = {"holder": holder, "muted": sorted(muted)}
            lines.append(json.dumps(record, separators=(",", ":"), sort_keys=True))
        return lines, after

    def restore(self, game_id: str, lines: Iterable[str]) -> int:
        """Write an archived chat (export lines) back if the game has none in Redis; its
        length."""
        args: list[str] = []
        mutes: list[tuple[str, list[str]]] = []
        for line in lines:
            record = json.loads(line)
            if "holder" in record:
                mutes.append((str(record["holder"]), [str(item) for item in record["muted"]]))
                continue
            message = message_from_line(line)
            args += [message.id, json.dumps(message.fields())]
        length = int(self._restore(keys=[self.key(game_id)], args=args)) if args else 0
        members = [f"{holder} {target}" for holder, muted in mutes for target in muted]
        if members:
            self.redis.sadd(self.mutes_key(game_id), *members)
        return length


def read_lines(lines: Iterable[str]) -> tuple[list[ChatMessage], dict[str, frozenset[str]]]:
    """The messages and each reader's mutes among export lines."""
    messages, mutes = [], {}
    for line in lines:
        record = json.loads(line)
        if "holder" in record:
            mutes[str(record["holder"])] = frozenset(str(item) for item in record["muted"])
        else:
            messages.append(message_from_line(line))
    return messages, mutes
