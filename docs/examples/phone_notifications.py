"""An operator's backend that turns Love Letter's player webhook into phone notifications
(Firebase Cloud Messaging for Android, APNs for iOS), under the same notification preferences
the web client's pushes obey. Standard library only; see docs/notifications.md.

    python docs/examples/phone_notifications.py --self-test
        signs a sample delivery as the service does, runs it through the handler and prints
        the FCM and APNs requests it would send
    python docs/examples/phone_notifications.py --secret whsec_... --port 8080
        listens for the service's deliveries (PUT /players/me/webhook {"url": ...} names it)

Sending is left to the operator's own FCM and APNs credentials: `send` prints each request.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import json
import time
from datetime import UTC, datetime
from datetime import time as clock
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any
from zoneinfo import ZoneInfo

TOLERANCE_SECONDS = 300  # a delivery older (or newer) than this is refused: no replays
NOTICE_OF_ENTRY = {"your_turn": "your_turn", "game_started": "game_started",
                   "game_over": "game_over", "matched": "match_found", "chat": "chat"}  # fmt: skip
DEFAULT_PREFERENCES: dict[str, Any] = {
    "notices": {"your_turn": True, "game_started": True, "game_over": True,
                "match_found": True, "chat": False},
    "quiet_hours": None,
    "lang": "en",
}  # fmt: skip
TEXTS = {
    "en": {"your_turn": ("Your turn", "It's your move in a game of Love Letter."),
           "game_started": ("Your game has started", "The cards are dealt."),
           "game_over": ("Game over", "The game is over: see how it ended."),
           "match_found": ("Game found", "Quick play found you a table."),
           "chat": ("New message", "Someone wrote at your table.")},
    "ja": {"your_turn": ("あなたの番です", "ラブレターのゲームで、あなたの手番です。"),
           "game_started": ("ゲームが始まりました", "カードが配られました。"),
           "game_over": ("ゲーム終了", "ゲームが終わりました。結果を見てみましょう。"),
           "match_found": ("対戦が見つかりました", "クイックプレイの卓が用意できました。"),
           "chat": ("新しいメッセージ", "卓にメッセージが届きました。")},
}  # fmt: skip


class Refused(Exception):
    """A delivery that is not the service's (or too old): answer 400 and do nothing."""


def verify(secret: str, headers: dict[str, str], body: bytes, now: float | None = None) -> None:
    """Standard Webhooks: `webhook-signature` is `v1,<base64 HMAC-SHA256>` of
    `<webhook-id>.<webhook-timestamp>.<body>` under the secret's key; the timestamp is recent."""
    now = time.time() if now is None else now
    message_id, stamp = headers.get("webhook-id", ""), headers.get("webhook-timestamp", "0")
    if not stamp.isdigit() or abs(now - int(stamp)) > TOLERANCE_SECONDS:
        raise Refused("stale or missing timestamp")
    key = base64.b64decode(secret.removeprefix("whsec_"))
    expected = base64.b64encode(
        hmac.new(key, f"{message_id}.{stamp}.".encode() + body, hashlib.sha256).digest()
    ).decode()
    offered = [part.split(",", 1)[1] for part in headers.get("webhook-signature", "").split()
               if part.startswith("v1,")]  # fmt: skip
    if not any(hmac.compare_digest(expected, signature) for signature in offered):
        raise Refused("bad signature")


def quiet(hours: dict[str, str] | None, now: datetime) -> bool:
    """Whether `now` falls in the quiet hours, read in the player's time zone."""
    if not hours:
        return False
    local = now.astimezone(ZoneInfo(hours["time_zone"])).time().replace(tzinfo=None)
    start, end = clock.fromisoformat(hours["start"]), clock.fromisoformat(hours["end"])
    if start == end:
        return False
    return start <= local < end if start < end else (local >= start or local < end)


def preferences_for(player: str) -> dict[str, Any]:
    """The player's notification preferences. A real backend asks the service with the
    player's JWT (it is the trusted issuer): `GET /players/me/notification-preferences`, kept a
    minute or so; here every player has the defaults."""
    return DEFAULT_PREFERENCES


def phone_messages(
    delivery: dict[str, Any], device: dict[str, str], now: datetime
) -> list[dict[str, Any]]:
    """What one `inbox.entries` delivery sends to one phone, under the player's preferences."""
    prefs = preferences_for(delivery["data"]["player"])
    words = TEXTS.get(prefs.get("lang", "en"), TEXTS["en"])
    sent = []
    for entry in delivery["data"]["entries"]:
        notice = NOTICE_OF_ENTRY.get(entry.get("type", ""))
        if notice is None or not prefs["notices"].get(notice) or quiet(prefs["quiet_hours"], now):
            continue
        title, body = words[notice]
        game = str(entry["game"])
        url = f"/#/games/{game}"  # the web client's table, at its current turn
        high = notice in ("your_turn", "match_found")
        if device["kind"] == "fcm":  # FCM HTTP v1: POST .../projects/<id>/messages:send
            sent.append({"message": {
                "token": device["token"],
                "notification": {"title": title, "body": body},
                "data": {"type": notice, "game": game, "url": url},
                "android": {"priority": "HIGH" if high else "NORMAL",
                            "collapse_key": f"{notice}-{game}", "ttl": "3600s"},
            }})  # fmt: skip
        else:  # APNs: POST /3/device/<token>, with these headers and body
            sent.append({
                "headers": {"apns-push-type": "alert", "apns-priority": "10" if high else "5",
                            "apns-collapse-id": f"{notice}-{game}",
                            "apns-expiration": str(int(now.timestamp()) + 3600)},
                "body": {"aps": {"alert": {"title": title, "body": body},
                                 "thread-id": game}, "type": notice, "game": game, "url": url},
            })  # fmt: skip
    return sent


def devices_of(player: str) -> list[dict[str, str]]:
    """The player's phones, as the operator's app registered them (here: one of each)."""
    return [{"kind": "fcm", "token": "fcm-registration-token"},
            {"kind": "apns", "token": "apns-device-token"}]  # fmt: skip


def send(request: dict[str, Any]) -> None:
    """Send one request to FCM or APNs (with the operator's credentials); here: print it."""
    print(json.dumps(request, ensure_ascii=False, sort_keys=True))


def handle(secret: str, headers: dict[str, str], body: bytes) -> int:
    """One delivery from the service: verified, then sent to every phone; the status to answer
    (2xx: done; the service retries anything else with backoff)."""
    try:
        verify(secret, {k.lower(): v for k, v in headers.items()}, body)
        delivery = json.loads(body)
    except (Refused, ValueError):
        return 400
    if delivery.get("type") != "inbox.entries":
        return 204
    now = datetime.now(UTC)
    for device in devices_of(delivery["data"]["player"]):
        for request in phone_messages(delivery, device, now):
            send(request)
    return 204


def serve(secret: str, port: int) -> None:
    """Listen for the service's deliveries."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length") or 0))
            self.send_response(handle(secret, dict(self.headers.items()), body))
            self.end_headers()

    HTTPServer(("127.0.0.1", port), Handler).serve_forever()


def self_test() -> int:
    """Sign a sample delivery as the service does, and run it (and a forged one) through."""
    secret = "whsec_" + base64.b64encode(b"an example secret, 24 b!").decode()
    body = json.dumps({"type": "inbox.entries", "timestamp": datetime.now(UTC).isoformat(),
                       "data": {"player": "p1", "entries": [
                           {"type": "your_turn", "game": "g1", "version": 7, "seat": 0},
                           {"type": "chat", "game": "g1", "version": 7, "seat": 0}]}},
                      separators=(",", ":")).encode()  # fmt: skip
    message_id, stamp = "msg_p1_g1_7", str(int(time.time()))
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signature = base64.b64encode(
        hmac.new(key, f"{message_id}.{stamp}.".encode() + body, hashlib.sha256).digest()
    ).decode()
    headers = {"webhook-id": message_id, "webhook-timestamp": stamp,
               "webhook-signature": f"v1,{signature}"}  # fmt: skip
    assert handle(secret, headers, body) == 204  # your_turn sent; chat is off by default
    forged = {**headers, "webhook-signature": "v1," + base64.b64encode(b"x" * 32).decode()}
    assert handle(secret, forged, body) == 400
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--self-test", action="store_true")
    parser.add_argument("--secret", help="the webhook's secret (whsec_...)")
    parser.add_argument("--port", type=int, default=8080)
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    if not args.secret:
        parser.error("--secret is required (or --self-test)")
    serve(args.secret, args.port)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
