"""`loveletter serve` without REDIS_URL: everything starts, answers, and stops on a signal."""

from __future__ import annotations

import signal

import pytest

from tests.e2e.conftest import Serve, get


@pytest.mark.slow
@pytest.mark.parametrize("stop_signal", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_serve_starts_everything_and_stops_cleanly(
    serve: Serve, stop_signal: signal.Signals
) -> None:
    served = serve("--workers", "1", "--threads", "2")
    base = served.base
    status, spec = get(base + "/openapi.json")
    assert status == 200 and '"openapi"' in spec
    status, exposition = get(base + "/metrics")
    assert status == 200 and 'endpoint="/healthz"' in exposition
    assert f"{base}/docs" in served.output()
    commands = " ".join(served.children.values())
    for program in ("gunicorn", "rq.cli worker", "redis-server"):
        assert program in commands, served.children
    served.stop(stop_signal)
