"""A light keep-alive HTTP/1.1 JSON client for benchmark drivers (less client CPU than requests)."""

from __future__ import annotations

import http.client
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

import orjson

JSON_HEADERS = {"Content-Type": "application/json", "Accept": "application/json"}


class JsonClient:
    """One persistent connection to base_url; not thread-safe (one per client thread)."""

    def __init__(self, base_url: str, timeout: float = 30.0) -> None:
        parts = urlsplit(base_url)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.timeout = timeout
        self._connection: http.client.HTTPConnection | None = None

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        headers: Mapping[str, str] | None = None,
    ) -> tuple[int, Any]:
        """Send one request; (status, decoded JSON body or None). Reconnects once if dropped.

        `body` is encoded as JSON, unless it is bytes already (JSON encoded beforehand).
        """
        data = body if body is None or isinstance(body, bytes) else orjson.dumps(body)
        sent = {**JSON_HEADERS, **(headers or {})}
        for attempt in (1, 2):
            connection = self._connect()
            try:
                connection.request(method, path, body=data, headers=sent)
                response = connection.getresponse()
                raw = response.read()
            except (ConnectionError, http.client.HTTPException):
                self.close()
                if attempt == 2:
                    raise
                continue
            if response.getheader("Connection", "").lower() == "close":
                self.close()
            return response.status, (orjson.loads(raw) if raw else None)
        raise AssertionError("unreachable")

    def post(
        self, path: str, body: Any, headers: Mapping[str, str] | None = None
    ) -> tuple[int, Any]:
        """POST a JSON body."""
        return self.request("POST", path, body, headers)

    def get(self, path: str, headers: Mapping[str, str] | None = None) -> tuple[int, Any]:
        """GET."""
        return self.request("GET", path, None, headers)

    def close(self) -> None:
        """Close the connection (the next request opens a new one)."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def _connect(self) -> http.client.HTTPConnection:
        if self._connection is None:
            self._connection = http.client.HTTPConnection(
                self.host, self.port, timeout=self.timeout
            )
        return self._connection


def guest_token(client: JsonClient, name: str) -> str:
    """A new guest player's token (`POST /players`); RuntimeError on any other answer."""
    status, made = client.post("/players", {"name": name})
    if status != 201:
        raise RuntimeError(f"createPlayer answered {status}: {made}")
    return str(made["token"])
