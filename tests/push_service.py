"""A push service for tests (RFC 8030), on 127.0.0.1: it checks each push's VAPID signature
(RFC 8292) against the service's public key and decrypts its payload (RFC 8291, aes128gcm)
with the keys of the browser it was sent to, as a real push service and browser would."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """A browser's push subscription: its keys (RFC 8291) and its endpoint here."""

    name: str
    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self) -> dict[str, Any]:
        """Its PushSubscription as JSON."""
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        keys = {"p256dh": b64url(point), "auth": b64url(self.auth)}
        return {"endpoint": self.endpoint, "keys": keys, "expirationTime": None}


@dataclass(frozen=True)
class Received:
    """A push received, checked and decrypted."""

    browser: str
    payload: dict[str, Any]
    ttl: int
    urgency: str | None
    topic: str | None
    at: float


class PushService:
    """The receiver: `browser(name)` makes a subscription; `answers[name]` a list of statuses to
    answer first (then 201); `received` what came, `refused` what failed its checks."""

    def __init__(self, public_key: str = "") -> None:
        self.public_key = public_key
        self.browsers: dict[str, Browser] = {}
        self.answers: dict[str, list[tuple[int, str | None]]] = {}
        self.received: list[Received] = []
        self.refused: list[str] = []
        self.lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                status, retry = service.take(self.path, dict(self.headers.items()), body)
                self.send_response(status)
                if retry is not None:
                    self.send_header("Retry-After", retry)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def browser(self, name: str) -> Browser:
        made = self.browsers[name] = Browser(name, f"{self.origin}/push/{name}")
        return made

    def take(self, path: str, headers: dict[str, str], body: bytes) -> tuple[int, str | None]:
        """Check and keep one push; what to answer."""
        lower = {k.lower(): v for k, v in headers.items()}
        name = path.rsplit("/", 1)[-1]
        with self.lock:
            queued = self.answers.get(name)
            if queued:
                return queued.pop(0) if len(queued) > 1 or queued[0][0] != 410 else queued[0]
        browser = self.browsers.get(name)
        if browser is None:
            return 404, None
        try:
            self.check_vapid(lower.get("authorization", ""))
            assert lower.get("content-encoding") == "aes128gcm"
            plain = http_ece.decrypt(body, private_key=browser.key, auth_secret=browser.auth,
                                     version="aes128gcm")  # fmt: skip
            payload = json.loads(plain)
        except Exception as error:
            with self.lock:
                self.refused.append(f"{name}: {error!r}")
            return 400, None
        with self.lock:
            ttl, urgency, topic = int(lower.get("ttl", "-1")), lower.get("urgency"), lower["topic"]
            self.received.append(Received(name, payload, ttl, urgency, topic, time.time()))
        return 201, None

    def check_vapid(self, authorization: str) -> None:
        """RFC 8292: `vapid t=<JWT>, k=<public key>`; the key the service publishes, the JWT
        signed with it (ES256), for this origin, not expired, at most 24 h long."""
        scheme, _, rest = authorization.partition(" ")
        assert scheme == "vapid", authorization
        parts = dict(part.strip().split("=", 1) for part in rest.split(","))
        assert parts["k"] == self.public_key, "not the service's key"
        point = unb64url(parts["k"])
        key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        claims = jwt.decode(parts["t"], key, algorithms=["ES256"], audience=self.origin)
        assert claims["exp"] <= time.time() + 24 * 3600 and claims["sub"]

    def of(self, browser: str) -> list[Received]:
        with self.lock:
            return [push for push in self.received if push.browser == browser]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def running(public_key: str = "") -> Iterator[PushService]:
    """A push service for the length of a fixture."""
    service = PushService(public_key)
    try:
        yield service
    finally:
        service.close()
