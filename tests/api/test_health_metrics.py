"""/healthz reports whether Redis answers; /metrics exposes Prometheus metrics."""

from __future__ import annotations

import re
from collections.abc import Callable

from flask import Flask
from flask.testing import FlaskClient

from events.index import GameIndex, GameSummary
from service import metrics
from service.deps import services


def test_healthz_ok(client: FlaskClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok"}


def test_healthz_503_when_redis_is_down(
    make_app: Callable[..., Flask], dead_redis_url: str
) -> None:
    response = make_app({"REDIS_URL": dead_redis_url}).test_client().get("/healthz")
    assert response.status_code == 503
    assert response.mimetype == "application/problem+json"
    assert response.get_json(force=True)["type"].endswith("/service-unavailable")
    assert response.headers["Retry-After"] == "1"


def sample(text: str, name: str, **labels: str) -> float | None:
    """The value of one sample in a Prometheus exposition, or None."""
    wanted = ",".join(f'{key}="{value}"' for key, value in sorted(labels.items()))
    for line in text.splitlines():
        match = re.fullmatch(rf"{re.escape(name)}(?:\{{(.*)\}})? (\S+)", line)
        if match and ",".join(sorted((match.group(1) or "").split(","))) == wanted:
            return float(match.group(2))
    return None


def test_metrics_count_requests_by_route(client: FlaskClient) -> None:
    client.get("/healthz")
    client.get("/no/such/page")
    text = client.get("/metrics").get_data(as_text=True)
    ok = sample(text, "loveletter_http_requests_total", endpoint="/healthz", method="GET",
                status="200")  # fmt: skip
    assert ok is not None and ok >= 1
    missing = sample(text, "loveletter_http_requests_total", endpoint="<unmatched>",
                     method="GET", status="404")  # fmt: skip
    assert missing is not None and missing >= 1
    assert "loveletter_http_request_duration_seconds_bucket" in text


def test_metrics_count_commands_and_conflicts(client: FlaskClient) -> None:
    before = client.get("/metrics").get_data(as_text=True)
    metrics.record_command("ok")
    metrics.record_command("ok")
    metrics.record_conflict()
    after = client.get("/metrics").get_data(as_text=True)
    ok_before = sample(before, "loveletter_commands_total", result="ok") or 0.0
    assert sample(after, "loveletter_commands_total", result="ok") == ok_before + 2
    conflicts_before = sample(before, "loveletter_conflicts_total") or 0.0
    assert sample(after, "loveletter_conflicts_total") == conflicts_before + 1


def test_metrics_show_games_by_status(app: Flask) -> None:
    found = services(app)
    index = GameIndex(found.redis, namespace=found.settings.namespace)
    for number, status in enumerate(["open", "open", "playing"]):
        index.put(f"g{number}", GameSummary(status, "classic", 1, 2, float(number)))
    response = app.test_client().get("/metrics")
    assert response.status_code == 200
    assert response.mimetype == "text/plain"
    text = response.get_data(as_text=True)
    assert sample(text, "loveletter_games", status="open") == 2
    assert sample(text, "loveletter_games", status="playing") == 1


def test_metrics_answer_without_redis(make_app: Callable[..., Flask], dead_redis_url: str) -> None:
    response = make_app({"REDIS_URL": dead_redis_url}).test_client().get("/metrics")
    assert response.status_code == 200
    assert "loveletter_games" not in response.get_data(as_text=True)
