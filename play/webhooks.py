"""Webhooks for "your turn": URL checks, Standard Webhooks signatures, thin payloads."""

from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress
import secrets
import socket
from urllib.parse import urlsplit

SECRET_PREFIX = "whsec_"


def new_secret() -> str:
    """A fresh signing secret in the Standard Webhooks form `whsec_<base64>`."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(24)).decode()


def sign(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    """The `webhook-signature` header: `v1,<base64 HMAC-SHA256 of id.timestamp.body>`."""
    key = base64.b64decode(secret.removeprefix(SECRET_PREFIX))
    signed = f"{message_id}.{timestamp}.".encode() + body
    digest = hmac.new(key, signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def headers(secret: str, message_id: str, timestamp: int, body: bytes) -> dict[str, str]:
    """The Standard Webhooks headers of one delivery."""
    return {
        "content-type": "application/json",
        "webhook-id": message_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": sign(secret, message_id, timestamp, body),
    }


def url_problem(url: str, *, allow_private: bool) -> str | None:
    """Why a webhook URL is refused (None: it is fine): http(s) only, no private addresses."""
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        host = None
    if host is None or parts.scheme not in ("http", "https"):
        return "A webhook URL must be http:// or https:// with a host."
    if parts.username or parts.password:
        return "A webhook URL must not carry credentials."
    if allow_private:
        return None
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        found = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except (OSError, ValueError, UnicodeError):
        return f"The host {host!r} can't be resolved."
    for *_, address in found:
        ip = ipaddress.ip_address(address[0])
        if not ip.is_global:
            return f"The host {host!r} is a private or local address."
    return None
