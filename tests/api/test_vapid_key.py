"""The VAPID key is made at first start and kept: in the key file when one is named (written
once, readable by its owner alone), else from a secret kept in Redis; every API process
answers the same public key, and so does one started later."""

from __future__ import annotations

import stat
from pathlib import Path

import requests

from tests.api.conftest import APIs


def public_key(base: str) -> str:
    found = requests.get(f"{base}/push/vapid-public-key", timeout=10)
    assert found.status_code == 200, found.text
    return str(found.json()["publicKey"])


def test_the_key_file_is_made_once_and_kept(start_apis: APIs, tmp_path: Path) -> None:
    path = tmp_path / "vapid.pem"
    first, second = start_apis(2, LOVELETTER_VAPID_KEY_FILE=str(path))
    key = public_key(first)
    assert public_key(second) == key
    assert path.read_text().startswith("-----BEGIN PRIVATE KEY-----")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    (later,) = start_apis(1, LOVELETTER_VAPID_KEY_FILE=str(path))
    assert public_key(later) == key


def test_without_a_file_every_process_shares_the_key_kept_in_redis(start_apis: APIs) -> None:
    first, second = start_apis(2)
    assert public_key(first) == public_key(second)
    (later,) = start_apis(1)
    assert public_key(later) == public_key(first)
