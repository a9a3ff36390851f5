"""`loveletter serve` without REDIS_URL: everything starts, answers, and stops on a signal."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys

import pytest

from service.serve import port_taken
from tests.e2e.conftest import MAIN, Serve, get


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
    assert f"Love Letter       {base}/ " in served.output()  # the web client's address
    status, page = get(base + "/")
    assert status == 200 and "/web/js/app.js" in page
    commands = " ".join(served.children.values())
    for program in ("gunicorn", "rq.cli worker", "redis-server"):
        assert program in commands, served.children
    served.stop(stop_signal)


def test_serve_refuses_a_port_in_use() -> None:
    """A second server on a taken port says so and stops, rather than sharing the port."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert port_taken("127.0.0.1", port)
        done = subprocess.run(
            [sys.executable, "-c", MAIN, "serve", "--port", str(port), "--host", "127.0.0.1"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 1
    assert f"port {port} is in use" in done.stderr
    assert not port_taken("127.0.0.1", port)  # free again once the listener is closed
