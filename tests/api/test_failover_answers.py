"""While a Redis Cluster fails over or moves slots, or replicas lag, the API answers 503 with
Retry-After (the client tries again), never 500."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from redis.exceptions import (
    AskError,
    ClusterDownError,
    ClusterError,
    MasterDownError,
    MovedError,
    ReadOnlyError,
    SlotNotCoveredError,
    TryAgainError,
)

from events.replicas import NotReplicated
from service.deps import services
from service.errors import PROBLEM_BASE

FAILOVER_ERRORS = [
    ClusterDownError("CLUSTERDOWN The cluster is down"),
    MasterDownError("MASTERDOWN Link with MASTER is down"),
    ClusterError("TTL exhausted."),
    MovedError("3999 127.0.0.1:6381"),
    AskError("3999 127.0.0.1:6381"),
    TryAgainError("Multiple keys request during rehashing of slot"),
    ReadOnlyError("You can't write against a read only replica."),
    SlotNotCoveredError('Slot "3999" is not covered by the cluster.'),
]


def failing(error: Exception) -> Callable[..., Any]:
    def fail(*args: Any, **kwargs: Any) -> Any:
        raise error

    return fail


@pytest.mark.parametrize("error", FAILOVER_ERRORS, ids=lambda error: type(error).__name__)
def test_a_cluster_between_two_states_is_503(
    make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    app = make_app()
    monkeypatch.setattr(services(app).context.heads, "load", failing(error))
    response = app.test_client().get("/games/some-game")
    assert response.status_code == 503, response.get_data(as_text=True)
    assert response.headers["Retry-After"] == "1"
    assert response.get_json(force=True)["type"] == PROBLEM_BASE + "service-unavailable"


def test_an_append_the_replicas_lack_is_503_not_replicated(
    make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app()
    monkeypatch.setattr(services(app).context.heads, "load", failing(NotReplicated("lag")))
    response = app.test_client().get("/games/some-game")
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "1"
    body = response.get_json(force=True)
    assert body["type"] == PROBLEM_BASE + "not-replicated"
    assert "Idempotency-Key" in body["detail"]
