"""Webhooks for "your turn": URL checks, Standard Webhooks signatures, thin payloads, and the
delivery itself, to an address that was checked."""

from __future__ import annotations

import base64
import contextlib
import email.utils
import functools
import hashlib
import hmac
import http.client
import ipaddress
import itertools
import secrets
import socket
import ssl
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

import certifi
import netaddr

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
    """Whether an address may receive webhooks: globally reachable by the IANA special-purpose
    registries (IPv4 and IPv6, as netaddr carries them, plus the rows newer than its tables),
    not multicast, in IPv6's global unicast space, and so is any IPv4 address it carries."""
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address):
        carried = [ip.ipv4_mapped, ip.sixtofour, *(ip.teredo or ())]
        if ip in NAT64:
            carried.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
        if ip not in GLOBAL_UNICAST and ip not in NAT64:  # ::a.b.c.d, 5f00::/16, ...
            return False
    else:
        carried = []
    registered = netaddr.IPAddress(int(ip), ip.version).is_global()
    beyond = any(ip in network for network in BEYOND_LIBRARY)
    return (
        registered
        and not beyond
        and not ip.is_multicast
        and all(inner is None or _public(str(inner)) for inner in carried)
    )


NAT64 = ipaddress.ip_network("64:ff9b::/96")  # IPv4 addresses reached through a NAT64 gateway
GLOBAL_UNICAST = ipaddress.ip_network("2000::/3")  # the only IPv6 space IANA gives out
# Rows of the registries not globally reachable that netaddr's tables leave out: one
# registered after its 1.3.0, one it drops for being deprecated (still in the registry).
BEYOND_LIBRARY = (
    ipaddress.ip_network("3fff::/20"),  # documentation (RFC 9637, 2024)
    ipaddress.ip_network("192.88.99.0/24"),  # deprecated 6to4 relay anycast (RFC 7526)
)
BODY_KEPT_BYTES = 4096  # how much of a receiver's answer is read (then dropped)


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
    are followed. The whole delivery, every address tried included, ends within `timeout`
    seconds: a receiver that answers slowly, or trickles an endless answer, is cut off then.
    Of the answer only its status counts; at most BODY_KEPT_BYTES of its body are read."""
    return answer(destination, body, headers, timeout=timeout, ca_certs=ca_certs).status


@dataclass(frozen=True)
class Answer:
    """What a receiver answered: its status, and how long it asked us to wait (Retry-After in
    seconds; None when it did not say)."""

    status: int
    retry_after: float | None = None


def answer(
    destination: Destination,
    body: bytes,
    headers: Mapping[str, str],
    *,
    timeout: float,
    ca_certs: str | None = None,
    kept: KeptConnections | None = None,
) -> Answer:
    """`post`, and the receiver's Retry-After too; `kept` lends and keeps open connections (a
    drain job's many pushes to one push service)."""
    deadline = time.monotonic() + timeout
    last: Exception | None = None
    for address in destination.addresses:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        try:
            return _post_once(destination, address, body, headers, left, ca_certs, kept)
        except ssl.SSLCertVerificationError:  # the host is not who it says: not tried further
            raise
        except OSError as error:  # refused, unreachable, timed out, cut at the deadline
            last = error
    raise ConnectionError(f"no address of {destination.host!r} answered in time: {last}")


Address = tuple[str, str, int, str]  # scheme, host (the TLS name), port, the address checked


class KeptConnections:
    """Connections left open after an answer that allows it, by checked address, for the next
    delivery there: no new TCP and TLS handshakes for each of a batch's pushes."""

    def __init__(self) -> None:
        self._open: dict[Address, http.client.HTTPConnection] = {}

    def lend(self, where: Address) -> http.client.HTTPConnection | None:
        """The connection kept for this address (it is the caller's until kept again)."""
        return self._open.pop(where, None)

    def keep(self, where: Address, connection: http.client.HTTPConnection) -> None:
        """Keep a connection for the next delivery to its address."""
        old = self._open.pop(where, None)
        if old is not None:
            old.close()
        self._open[where] = connection

    def close(self) -> None:
        """Close every connection kept."""
        for connection in self._open.values():
            connection.close()
        self._open.clear()


def _post_once(
    destination: Destination,
    address: str,
    body: bytes,
    headers: Mapping[str, str],
    seconds: float,
    ca_certs: str | None,
    kept: KeptConnections | None = None,
) -> Answer:
    """One POST to one address, cut off (its socket shut down) after `seconds`; on a kept
    connection if there is one (a new one if the receiver had closed it)."""
    where = (destination.scheme, destination.host, destination.port, address)
    reused = kept.lend(where) if kept is not None else None
    if reused is not None:
        started = time.monotonic()
        try:
            return _exchange(reused, destination, where, body, headers, seconds, kept)
        except (ConnectionError, http.client.HTTPException):
            pass  # closed at its end while it was idle: once more on a new connection
        seconds -= time.monotonic() - started  # within the same deadline
        if seconds <= 0:
            raise TimeoutError(f"{address} did not answer in time")
    raw = socket.create_connection((address, destination.port), timeout=seconds)
    try:
        # Headers and body go in two writes: without this, a kept connection's second request
        # waits for the receiver's delayed ACK (Nagle's algorithm), 40 ms on Linux.
        raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock = raw
        if destination.scheme == "https":
            sock = tls_context(ca_certs).wrap_socket(raw, server_hostname=destination.host)
    except BaseException:
        raw.close()
        raise
    connection = http.client.HTTPConnection(destination.host, destination.port)
    connection.sock = sock
    return _exchange(connection, destination, where, body, headers, seconds, kept)


def _exchange(
    connection: http.client.HTTPConnection,
    destination: Destination,
    where: Address,
    body: bytes,
    headers: Mapping[str, str],
    seconds: float,
    kept: KeptConnections | None,
) -> Answer:
    """The request and its answer on an open connection to `where`, cut off after `seconds`;
    the connection is closed, or kept when the answer was read whole and allows it."""
    address = where[3]
    sock = connection.sock
    sock.settimeout(seconds)
    watched = WATCHDOG.watch(sock, seconds)
    keep = False
    try:
        try:
            connection.request(
                "POST",
                destination.target,
                body=body,
                headers={**headers, "host": destination.authority},
            )
            response = connection.getresponse()
        except http.client.RemoteDisconnected as error:
            raise ConnectionResetError(f"{address} closed the connection: {error}") from None
        except http.client.HTTPException as error:  # a malformed or cut answer
            raise ConnectionError(f"{address} answered no HTTP: {error}") from None
        with contextlib.suppress(OSError, http.client.HTTPException):
            response.read(BODY_KEPT_BYTES)  # read some of it, then drop the rest
        keep = kept is not None and response.isclosed() and not response.will_close
        return Answer(response.status, retry_after(response.getheader("retry-after")))
    finally:
        WATCHDOG.forget(watched)
        if keep and kept is not None:
            kept.keep(where, connection)
        else:
            connection.close()


@functools.cache
def tls_context(ca_certs: str | None) -> ssl.SSLContext:
    """The TLS context of deliveries trusting `ca_certs` (None: certifi's), made once: loading
    the certificates takes about 20 ms, longer than the rest of a delivery."""
    return ssl.create_default_context(cafile=ca_certs or certifi.where())


def retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header: a number of seconds or an HTTP date (None: neither)."""
    if not value:
        return None
    if value.strip().isdigit():
        return float(value.strip())
    with contextlib.suppress(TypeError, ValueError, IndexError):
        return max(0.0, email.utils.parsedate_to_datetime(value).timestamp() - time.time())
    return None


class Watchdog:
    """One thread that cuts off the deliveries past their deadline (a thread of its own for
    each delivery cost more CPU than the delivery's encryption)."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._watched: dict[int, tuple[float, socket.socket]] = {}
        self._numbers = itertools.count()
        self._thread: threading.Thread | None = None

    def watch(self, sock: socket.socket, seconds: float) -> int:
        """Cut `sock` off in `seconds` unless forgotten first; what to forget it by."""
        number = next(self._numbers)
        with self._changed:
            self._watched[number] = (time.monotonic() + seconds, sock)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="webhook-watchdog",
                                                daemon=True)  # fmt: skip
                self._thread.start()
            self._changed.notify()
        return number

    def forget(self, number: int) -> None:
        """The delivery ended in time."""
        with self._changed:
            self._watched.pop(number, None)

    def _run(self) -> None:
        with self._changed:
            while True:
                now = time.monotonic()
                for number, (deadline, sock) in list(self._watched.items()):
                    if deadline <= now:
                        del self._watched[number]
                        _cut(sock)
                soonest = min((deadline for deadline, _ in self._watched.values()), default=None)
                self._changed.wait(None if soonest is None else max(0.0, soonest - now))


WATCHDOG = Watchdog()


def _cut(sock: socket.socket) -> None:
    """End a delivery past its deadline: whatever it waits on fails at once."""
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
