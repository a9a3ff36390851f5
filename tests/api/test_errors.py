"""Every error is problem+json with a stable type; bad input gets a 4xx, never a 500."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from service.errors import PROBLEM_BASE, PROBLEM_CONTENT_TYPE

from . import probe


@pytest.fixture
def probe_client(make_app: Callable[..., Flask]) -> FlaskClient:
    """A client of an app with the probe blueprint."""
    return make_app(extra_blueprints=[probe.make_blueprint()]).test_client()


def problem(response: TestResponse, status: int, slug: str) -> dict[str, Any]:
    """Assert response is a problem of that status and slug; its body."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == PROBLEM_CONTENT_TYPE
    body: dict[str, Any] = response.get_json(force=True)
    assert body["type"] == PROBLEM_BASE + slug
    assert body["status"] == status
    assert body["title"] and body["detail"]
    return body


def test_unknown_route_is_404(client: FlaskClient) -> None:
    problem(client.get("/no/such/thing"), 404, "not-found")


def test_wrong_method_is_405_with_allow(client: FlaskClient) -> None:
    response = client.delete("/healthz")
    problem(response, 405, "method-not-allowed")
    assert "GET" in response.headers["Allow"]


def test_oversized_body_is_413(make_app: Callable[..., Flask]) -> None:
    app = make_app({"LOVELETTER_MAX_BODY_BYTES": "64"}, extra_blueprints=[probe.make_blueprint()])
    response = app.test_client().post("/probe/items", json={"name": "x" * 100})
    body = problem(response, 413, "payload-too-large")
    assert "64" in body["detail"]


def test_default_body_limit_is_16_kib(probe_client: FlaskClient) -> None:
    problem(probe_client.post("/probe/items", json={"name": "x" * 17000}), 413, "payload-too-large")


def test_non_json_body_is_415(probe_client: FlaskClient) -> None:
    response = probe_client.post("/probe/items", data="name=x", content_type="text/plain")
    problem(response, 415, "unsupported-media-type")


DEEP = b'{"name": ' + b"[" * 5000 + b"]" * 5000 + b"}"  # deeper than any parser's stack
LONE_SURROGATE = b'{"name": "\\ud800"}'  # valid JSON syntax, but no Unicode string
MALFORMED = [b"{", b'{"name": }', b"\xff\xfe", b"nope", DEEP, LONE_SURROGATE]


@pytest.mark.parametrize("raw", MALFORMED)
def test_malformed_json_is_400(probe_client: FlaskClient, raw: bytes) -> None:
    response = probe_client.post("/probe/items", data=raw, content_type="application/json")
    problem(response, 400, "malformed-json")


@pytest.mark.parametrize("raw", [b"{]", DEEP, LONE_SURROGATE])
def test_malformed_json_read_by_a_plain_view_is_400(probe_client: FlaskClient, raw: bytes) -> None:
    response = probe_client.post("/probe/raw", data=raw, content_type="application/json")
    problem(response, 400, "malformed-json")


@pytest.mark.parametrize(("path", "status"), [("/probe/items", 201), ("/probe/raw", 200)])
def test_integers_of_any_size_stay_integers(
    probe_client: FlaskClient, path: str, status: int
) -> None:
    """JSON has integers of any size; none is read as a float (and refused as not an integer)."""
    big = -8942094698093163315200
    body = f'{{"name": "a", "count": {big}}}'
    response = probe_client.post(path, data=body, content_type="application/json")
    assert response.status_code == status, response.get_data(as_text=True)
    assert f'"count":{big}' in response.get_data(as_text=True).replace(" ", "")


@pytest.mark.parametrize("raw", [DEEP, LONE_SURROGATE])
def test_creating_a_game_from_malformed_json_is_400(client: FlaskClient, raw: bytes) -> None:
    body = raw.replace(b'"name"', b'"edition": "2019", "seats": ["human", "random"], "name"')
    response = client.post("/games", data=body, content_type="application/json")
    problem(response, 400, "malformed-json")


def test_unknown_field_is_422_naming_it(probe_client: FlaskClient) -> None:
    response = probe_client.post("/probe/items", json={"name": "a", "colour": "red"})
    body = problem(response, 422, "validation-error")
    assert body["errors"] == {"json": {"colour": ["Unknown field."]}}
    assert "colour" in body["detail"]


@pytest.mark.parametrize(
    ("payload", "field"),
    [({"name": 5}, "name"), ({"name": "a", "count": "3"}, "count"), ({}, "name"),
     ({"name": ""}, "name")],
)  # fmt: skip
def test_wrong_or_missing_field_is_422(
    probe_client: FlaskClient, payload: dict[str, Any], field: str
) -> None:
    body = problem(probe_client.post("/probe/items", json=payload), 422, "validation-error")
    assert field in body["errors"]["json"]


@pytest.mark.parametrize("payload", [[1, 2], "text", 3, None])
def test_body_that_is_not_an_object_is_422(probe_client: FlaskClient, payload: Any) -> None:
    response = probe_client.post("/probe/items", json=payload)
    problem(response, 422, "validation-error")


def test_valid_body_passes(probe_client: FlaskClient) -> None:
    response = probe_client.post("/probe/items", json={"name": "ann", "count": 2})
    assert response.status_code == 201
    assert response.get_json() == {"name": "ann", "count": 2}


def test_api_error_carries_extra_members_and_headers(probe_client: FlaskClient) -> None:
    response = probe_client.get("/probe/teapot")
    body = problem(response, 418, "teapot")
    assert body["spout"] == "left"
    assert response.headers["X-Tea"] == "1"


def test_a_bug_is_a_500_problem_and_logged(
    probe_client: FlaskClient, caplog: pytest.LogCaptureFixture
) -> None:
    body = problem(probe_client.get("/probe/boom"), 500, "internal-error")
    assert "a bug" not in body["detail"]
    assert any("unhandled error" in record.getMessage() for record in caplog.records)


def test_lost_redis_is_503(make_app: Callable[..., Flask], dead_redis_url: str) -> None:
    app = make_app({"REDIS_URL": dead_redis_url}, extra_blueprints=[probe.make_blueprint()])
    response = app.test_client().get("/probe/store")
    problem(response, 503, "service-unavailable")
    assert response.headers["Retry-After"] == "1"
