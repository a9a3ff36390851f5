"""CORS headers only for the configured browser origins."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask
from flask.testing import FlaskClient

ORIGIN = "https://play.example"


def test_no_cors_by_default(client: FlaskClient) -> None:
    response = client.get("/healthz", headers={"Origin": ORIGIN})
    assert "Access-Control-Allow-Origin" not in response.headers


def test_configured_origin_is_allowed(make_app: Callable[..., Flask]) -> None:
    client = make_app({"LOVELETTER_CORS_ORIGINS": f"{ORIGIN}, https://other.example"}).test_client()
    response = client.get("/healthz", headers={"Origin": ORIGIN})
    assert response.headers["Access-Control-Allow-Origin"] == ORIGIN
    exposed = response.headers["Access-Control-Expose-Headers"]
    assert "Retry-After" in exposed and "X-Request-ID" in exposed  # a browser client sees both
    problem = client.get("/missing", headers={"Origin": ORIGIN})
    assert problem.status_code == 404
    assert problem.headers["Access-Control-Allow-Origin"] == ORIGIN


def test_preflight(make_app: Callable[..., Flask]) -> None:
    client = make_app({"LOVELETTER_CORS_ORIGINS": ORIGIN}).test_client()
    response = client.options(
        "/healthz",
        headers={
            "Origin": ORIGIN,
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "Authorization, Idempotency-Key",
        },
    )
    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == ORIGIN
    allowed = response.headers["Access-Control-Allow-Headers"].lower()
    assert "authorization" in allowed and "idempotency-key" in allowed


def test_other_origins_get_no_cors(make_app: Callable[..., Flask]) -> None:
    client = make_app({"LOVELETTER_CORS_ORIGINS": ORIGIN}).test_client()
    response = client.get("/healthz", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in response.headers
