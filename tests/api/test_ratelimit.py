"""Rate limits per client address and per seat: 429 problem with Retry-After, in Redis."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from play.settings import Limit, parse_limit
from service.errors import PROBLEM_BASE

from . import probe


@pytest.fixture
def limited(make_app: Callable[..., Flask]) -> FlaskClient:
    """An app whose limits are 5 per address and 2 per seat, per minute."""
    config = {"LOVELETTER_RATE_LIMIT_ADDRESS": "5/minute", "LOVELETTER_RATE_LIMIT_SEAT": "2/minute"}
    return make_app(config, extra_blueprints=[probe.make_blueprint()]).test_client()


def call(client: FlaskClient, seat: str | None = None, address: str = "10.0.0.1") -> int:
    """POST the limited probe view; its status."""
    headers = {"X-Seat": seat} if seat else {}
    response = client.post("/probe/limited", headers=headers, environ_base={"REMOTE_ADDR": address})
    return response.status_code


def test_seat_limit_is_per_seat(limited: FlaskClient) -> None:
    assert [call(limited, "ann") for _ in range(3)] == [200, 200, 429]
    assert call(limited, "bob") == 200


def test_address_limit_is_per_address(limited: FlaskClient) -> None:
    assert [call(limited) for _ in range(6)] == [200] * 5 + [429]
    assert call(limited, address="10.0.0.2") == 200


def test_address_limit_counts_every_seat(limited: FlaskClient) -> None:
    statuses = [call(limited, seat) for seat in ("a", "b", "c", "d", "e", "f")]
    assert statuses == [200] * 5 + [429]


def test_429_is_a_problem_with_retry_after(limited: FlaskClient) -> None:
    for _ in range(2):
        call(limited, "ann")
    response = limited.post("/probe/limited", headers={"X-Seat": "ann"},
                            environ_base={"REMOTE_ADDR": "10.0.0.1"})  # fmt: skip
    assert response.status_code == 429
    assert response.mimetype == "application/problem+json"
    body = response.get_json(force=True)
    assert body["type"] == PROBLEM_BASE + "rate-limited"
    assert body["scope"] == "seat"
    assert 1 <= int(response.headers["Retry-After"]) <= 60


def test_window_expires(make_app: Callable[..., Flask]) -> None:
    app = make_app(
        {"LOVELETTER_RATE_LIMIT_ADDRESS": "1/1s"}, extra_blueprints=[probe.make_blueprint()]
    )
    client = app.test_client()
    assert [call(client), call(client)] == [200, 429]
    time.sleep(1.1)
    assert call(client) == 200


def test_limits_can_be_off(make_app: Callable[..., Flask]) -> None:
    config = {"LOVELETTER_RATE_LIMIT_ADDRESS": "off", "LOVELETTER_RATE_LIMIT_SEAT": "off"}
    client = make_app(config, extra_blueprints=[probe.make_blueprint()]).test_client()
    assert {call(client, "ann") for _ in range(20)} == {200}


def test_unlimited_views_are_not_counted(limited: FlaskClient) -> None:
    assert {limited.get("/healthz").status_code for _ in range(10)} == {200}


def test_429_is_documented(make_app: Callable[..., Flask]) -> None:
    app = make_app(extra_blueprints=[probe.make_blueprint()])
    spec = app.test_client().get("/openapi.json").get_json()
    response = spec["paths"]["/probe/limited"]["post"]["responses"]["429"]
    assert response == {"$ref": "#/components/responses/TOO_MANY_REQUESTS"}
    component = spec["components"]["responses"]["TOO_MANY_REQUESTS"]
    assert "Retry-After" in component["headers"]


@pytest.mark.parametrize(
    ("text", "limit"),
    [("10/minute", Limit(10, 60)), ("3/second", Limit(3, 1)), ("7/30s", Limit(7, 30)),
     (" 1 / hour ", Limit(1, 3600)), ("off", None), ("0", None)],
)  # fmt: skip
def test_parse_limit(text: str, limit: Limit | None) -> None:
    assert parse_limit(text) == limit


@pytest.mark.parametrize("text", ["ten/minute", "5/fortnight", "5/0s", "5"])
def test_parse_limit_refuses_nonsense(text: str) -> None:
    with pytest.raises(ValueError):
        parse_limit(text)


def test_trusted_proxy_address_is_the_client(make_app: Callable[..., Flask]) -> None:
    config = {"LOVELETTER_RATE_LIMIT_ADDRESS": "1/minute", "LOVELETTER_TRUSTED_PROXIES": "1"}
    client = make_app(config, extra_blueprints=[probe.make_blueprint()]).test_client()

    def via_proxy(address: str) -> int:
        headers = {"X-Forwarded-For": address}
        return client.post("/probe/limited", headers=headers).status_code

    assert [via_proxy("198.51.100.1"), via_proxy("198.51.100.1")] == [200, 429]
    assert via_proxy("198.51.100.2") == 200
