"""What a player's browsers are pushed of their inbox entries (pure): which notices the player
wants, quiet hours in their time zone, and the payload, in their language.

A payload says what kind of notice it is and which game, in words of `push_texts.json`, and
nothing else: never a card, a hand or a move, since a push travels through the browser maker's
push service and shows on a locked screen. A click opens the game's table at its current turn.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from datetime import datetime, time
from functools import cache
from importlib.resources import files
from typing import Any
from zoneinfo import ZoneInfo

NOTICES = ("your_turn", "game_started", "game_over", "match_found", "chat")
LANGUAGES = ("en", "ja", "ko", "vi")
WANTED_AT_FIRST = {"your_turn": True, "game_started": True, "game_over": True,
                   "match_found": True, "chat": False}  # fmt: skip
NOTICE_OF_ENTRY = {"your_turn": "your_turn", "game_started": "game_started",
                   "game_over": "game_over", "matched": "match_found", "chat": "chat"}  # fmt: skip
HIGH = ("your_turn", "match_found")  # a player must act soon: the push service wakes the device
LOW = ("chat",)
MOST_PAYLOAD_BYTES = 4096  # what every push service carries (RFC 8291 records of 4 KB)


def default_preferences() -> dict[str, Any]:
    """A player's preferences before they set any: every notice but chat, no quiet hours."""
    return {"notices": dict(WANTED_AT_FIRST), "quiet_hours": None, "lang": "en"}


def preferences_of(stored: dict[str, Any] | None) -> dict[str, Any]:
    """Stored preferences over the defaults (a notice added later is on as its default says)."""
    found = default_preferences()
    if stored:
        found["notices"].update(stored.get("notices") or {})
        found["quiet_hours"] = stored.get("quiet_hours")
        found["lang"] = stored.get("lang") or "en"
    return found


@dataclass(frozen=True)
class Push:
    """One push to each of a player's browsers: its payload and the Web Push headers' values."""

    notice: str
    game: str
    payload: dict[str, str]
    topic: str  # a newer push of the same topic replaces one the browser has not received
    urgency: str

    def body(self) -> bytes:
        """The payload as sent (UTF-8 JSON, at most MOST_PAYLOAD_BYTES)."""
        return json.dumps(self.payload, ensure_ascii=False, separators=(",", ":")).encode()


@cache
def texts() -> dict[str, dict[str, str]]:
    """Language -> key -> words (play/push_texts.json)."""
    raw = files("play").joinpath("push_texts.json").read_text(encoding="utf-8")
    found: dict[str, dict[str, str]] = json.loads(raw)
    return found


def quiet(quiet_hours: dict[str, str] | None, now: datetime) -> bool:
    """Whether `now` (aware) falls in the player's quiet hours, read in their time zone; the
    hours may run past midnight (22:00 to 08:00)."""
    if not quiet_hours:
        return False
    local = now.astimezone(ZoneInfo(quiet_hours["time_zone"])).time().replace(tzinfo=None)
    start, end = time.fromisoformat(quiet_hours["start"]), time.fromisoformat(quiet_hours["end"])
    if start == end:
        return False
    if start < end:
        return start <= local < end
    return local >= start or local < end


def push_of(entry: dict[str, Any], preferences: dict[str, Any], now: datetime) -> Push | None:
    """The push an inbox entry makes for a player with these preferences (None: none now)."""
    notice = NOTICE_OF_ENTRY.get(str(entry.get("type")))
    if notice is None or not preferences["notices"].get(notice):
        return None
    if quiet(preferences.get("quiet_hours"), now):
        return None
    lang = preferences.get("lang") if preferences.get("lang") in LANGUAGES else "en"
    words = texts()[str(lang)]
    game = str(entry["game"])
    body_key = f"{notice}.body_won" if notice == "game_over" and entry.get("won") else None
    payload = {
        "type": notice,
        "game": game,
        "title": words[f"{notice}.title"],
        "body": words[body_key or f"{notice}.body"],
        "url": f"/#/games/{game}",
        "lang": str(lang),
    }
    urgency = "high" if notice in HIGH else "low" if notice in LOW else "normal"
    return Push(notice, game, payload, topic_of(notice, game), urgency)


def topic_of(notice: str, game: str) -> str:
    """A push's Topic: at most 32 base64url characters (RFC 8030), one per notice and game."""
    digest = hashlib.sha256(f"{notice}\0{game}".encode()).digest()
    return base64.urlsafe_b64encode(digest).decode()[:32]
