"""Webhooks for "your turn": URL checks, Standard Webhooks signatures, thin payloads, and the
delivery itself, to an address that was checked."""

from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress
import secrets
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import certifi
from urllib3 import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import ConnectTimeoutError, NewConnectionError

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


class Refused(Exception):
    """A webhook URL that is not called; the message says why."""


@dataclass(frozen=True)
class Destination:
    """A webhook URL resolved once: the addresses found for its host, each of them checked, are
    the only ones connected to (a second lookup could answer another: DNS rebinding)."""

    scheme: str
    host: str  # the URL's host: the TLS server name and the certificate's name
    authority: str  # host[:port] as the URL writes it: the Host header
    port: int
    target: str  # path and query
    addresses: tuple[str, ...]


def url_problem(url: str, *, allow_private: bool) -> str | None:
    """Why a webhook URL is refused (None: it is fine): http(s) only, no private addresses."""
    try:
        resolve(url, allow_private=allow_private)
    except Refused as refusal:
        return str(refusal)
    return None


def resolve(url: str, *, allow_private: bool) -> Destination:
    """The URL's destination; Refused unless it is http(s) without credentials and every
    address its host resolves to is public (or private ones are allowed)."""
    try:
        parts = urlsplit(url)
        host, port = parts.hostname, parts.port
    except ValueError:
        host = port = None
    if host is None or parts.scheme not in ("http", "https"):
        raise Refused("A webhook URL must be http:// or https:// with a host.")
    if parts.username or parts.password:
        raise Refused("A webhook URL must not carry credentials.")
    port = port or (443 if parts.scheme == "https" else 80)
    try:
        found = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except (OSError, ValueError, UnicodeError):
        raise Refused(f"The host {host!r} can't be resolved.") from None
    addresses = tuple(dict.fromkeys(str(address[0]) for *_, address in found))
    if not allow_private and not all(_public(address) for address in addresses):
        raise Refused(f"The host {host!r} is a private or local address.")
    target = parts.path or "/"
    if parts.query:
        target += "?" + parts.query
    return Destination(parts.scheme, host, parts.netloc, port, target, addresses)


def _public(address: str) -> bool:
    """Whether an address is globally reachable, and so is any IPv4 address it carries."""
    ip = ipaddress.ip_address(address)
    carried = [ip.ipv4_mapped, ip.sixtofour] if isinstance(ip, ipaddress.IPv6Address) else []
    if ip in NAT64:
        carried.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    return ip.is_global and all(inner is None or inner.is_global for inner in carried)


NAT64 = ipaddress.ip_network("64:ff9b::/96")  # IPv4 addresses reached through a NAT64 gateway


def post(
    destination: Destination,
    body: bytes,
    headers: Mapping[str, str],
    *,
    timeout: float,
    ca_certs: str | None = None,
) -> int:
    """POST to one of the destination's checked addresses (the next if one can't be reached),
    with the URL's host as Host header, TLS server name and certificate name; no redirects
    are followed. The answer's status."""
    last: Exception | None = None
    for address in destination.addresses:
        options: dict[str, Any] = {"timeout": timeout, "retries": False}
        if destination.scheme == "https":
            pool_class: type[HTTPConnectionPool] = HTTPSConnectionPool
            options |= {
                "server_hostname": destination.host,
                "assert_hostname": destination.host,
                "cert_reqs": "CERT_REQUIRED",
                "ca_certs": ca_certs or certifi.where(),
            }
        else:
            pool_class = HTTPConnectionPool
        with pool_class(address, destination.port, **options) as pool:
            try:
                response = pool.urlopen(
                    "POST",
                    destination.target,
                    body=body,
                    headers={**headers, "host": destination.authority},
                    redirect=False,
                    assert_same_host=False,
                )
            except (NewConnectionError, ConnectTimeoutError) as error:
                last = error
                continue
            return response.status
    raise ConnectionError(f"no address of {destination.host!r} answered: {last}")
