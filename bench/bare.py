"""The benchmark's baseline: a bare Flask app whose one endpoint does one XADD.

`loveletter bench api` runs it under the same gunicorn settings as the real app; its keys are
`{LOVELETTER_BENCH_NAMESPACE}:{bare-<game>}:stream` and are deleted after the run.
"""

from __future__ import annotations

import json
import os
import uuid
from typing import Any

from flask import Flask, Response, request

from bench.client import JsonClient
from events.connection import connect

NAMESPACE_ENV = "LOVELETTER_BENCH_NAMESPACE"
PATH = "/bare/<game_id>/events"
EVENT = {"type": "card_played", "seat": 1, "card": "guard", "target": 2, "guess": "priest"}

app = Flask(__name__)
_redis = connect()
_namespace = os.environ.get(NAMESPACE_ENV, "bench")


@app.post(PATH)
def append(game_id: str) -> Response:
    """Append the JSON body to the game's stream with one XADD; 201 with the entry id."""
    body: Any = request.get_json(silent=True)
    if not isinstance(body, dict):
        return Response('{"detail":"a JSON object is required"}', 400, mimetype="application/json")
    entry = _redis.xadd(f"{_namespace}:{{bare-{game_id}}}:stream", {"e": json.dumps(body)})
    text = entry.decode() if isinstance(entry, bytes) else str(entry)
    return Response(json.dumps({"id": text}), 201, mimetype="application/json")


class BareDriver:
    """One simulated client of the bare endpoint: each call POSTs one small event."""

    def __init__(self, base_url: str) -> None:
        self.client = JsonClient(base_url)
        self.path = f"/bare/{uuid.uuid4().hex[:12]}/events"

    def __call__(self) -> None:
        status, _body = self.client.post(self.path, EVENT)
        if status != 201:
            raise RuntimeError(f"bare endpoint answered {status}")

    def reconnect(self) -> None:
        """Send the next request on a new connection."""
        self.client.close()


def make_driver(base_url: str) -> BareDriver:
    """One simulated client of the bare endpoint."""
    return BareDriver(base_url)
