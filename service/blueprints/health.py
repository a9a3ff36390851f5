"""`/healthz` (Redis answers PING) and `/metrics` (Prometheus exposition)."""

from __future__ import annotations

from typing import Any

import redis
from flask import Response
from flask.views import MethodView

from play import logs
from service import metrics
from service.apidoc import operation, problems
from service.blueprints.base import Blueprint
from service.deps import services
from service.errors import ApiError
from service.schemas.base import HealthSchema

log = logs.get(__name__)
METRICS_RESPONSE = {
    "description": "Prometheus text exposition",
    "content": {"text/plain": {"schema": {"type": "string"}}},
}
blp = Blueprint("health", __name__, description="Liveness and metrics")


@blp.route("/healthz")
class Health(MethodView):
    """Whether the service can reach Redis."""

    @blp.response(200, HealthSchema, example={"status": "ok"})
    @operation("getHealth")
    @problems(503)
    def get(self) -> dict[str, Any]:
        """200 when Redis answers PING, else a 503 problem."""
        try:
            services().redis.ping()
        except (redis.RedisError, OSError) as error:
            log.warning("health check: redis unreachable", error=str(error))
            raise ApiError(
                503,
                "service-unavailable",
                "Service unavailable",
                "Redis is unreachable; try again shortly.",
                headers={"Retry-After": "1"},
            ) from error
        return {"status": "ok"}


@blp.route("/metrics")
class Metrics(MethodView):
    """Prometheus metrics of every worker process."""

    @operation("getMetrics", responses={"200": METRICS_RESPONSE})
    def get(self) -> Response:
        """Request counts and latencies, commands, conflicts, clients waiting, games by status."""
        found = services()
        index = found.context.games.index
        try:
            games: dict[str, int] | None = (
                None if index is None else metrics.games_by_status(found.redis, index)
            )
        except (redis.RedisError, OSError) as error:
            log.warning("games by status unavailable", error=str(error))
            games = None
        return metrics.exposition(games)
