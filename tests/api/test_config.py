"""Settings come from LOVELETTER_* variables, overridable by a mapping of the same names."""

from __future__ import annotations

import pytest

from play.settings import Limit, Settings


def test_defaults() -> None:
    settings = Settings.load({})
    assert settings.max_body_bytes == 16 * 1024
    assert settings.cors_origins == ()
    assert settings.namespace == "ll"


def test_environment_and_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOVELETTER_NAMESPACE", "from-env")
    monkeypatch.setenv("LOVELETTER_RATE_LIMIT_SEAT", "9/second")
    settings = Settings.load({"LOVELETTER_CORS_ORIGINS": "*", "LOVELETTER_AUDITOR_TOKEN": "t"})
    assert settings.namespace == "from-env"
    assert settings.rate_limit_seat == Limit(9, 1)
    assert settings.cors_origins == ("*",)
    assert settings.auditor_token == "t"
    assert Settings.load({"LOVELETTER_NAMESPACE": "given"}).namespace == "given"


@pytest.mark.parametrize(
    ("name", "value"),
    [("LOVELETTER_MAX_BODY_BYTES", "-1"), ("LOVELETTER_MAX_BODY_BYTES", "big"),
     ("LOVELETTER_IDEMPOTENCY_TTL_SECONDS", "0"), ("LOVELETTER_RATE_LIMIT_SEAT", "lots")],
)  # fmt: skip
def test_bad_values_are_refused(name: str, value: str) -> None:
    with pytest.raises(ValueError):
        Settings.load({name: value})
