"""docs/examples/phone_notifications.py runs: a delivery signed as the service signs it becomes
one FCM and one APNs request (your_turn; chat is off by default), and a forged one nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "phone_notifications.py"


def test_the_phone_example_turns_a_signed_delivery_into_phone_notifications() -> None:
    ran = subprocess.run([sys.executable, str(EXAMPLE), "--self-test"], capture_output=True,
                         text=True, timeout=60, check=True)  # fmt: skip
    sent = [json.loads(line) for line in ran.stdout.splitlines()]
    assert len(sent) == 2
    fcm, apns = sent
    assert fcm["message"]["data"] == {"type": "your_turn", "game": "g1", "url": "/#/games/g1"}
    assert fcm["message"]["android"]["priority"] == "HIGH"
    assert apns["headers"]["apns-priority"] == "10" and apns["body"]["game"] == "g1"
