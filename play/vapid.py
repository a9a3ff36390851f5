"""The service's VAPID key (RFC 8292): made at first start and kept, so browsers' subscriptions
(made with its public half) stay good across restarts and processes.

With `LOVELETTER_VAPID_KEY_FILE` the key is a PEM file, written once (mode 0600) by whichever
process comes first; without it, the key is derived from a secret kept in Redis beside the
others (events/identities.py), which every process of the namespace shares.
"""

from __future__ import annotations

import base64
import contextlib
import os
import time
from functools import cache
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02

from play.context import Context

VAPID_SECRET = "vapid"
SIGNED_SECONDS = 12 * 3600  # a signature's life (RFC 8292 allows up to 24 h)
REUSED_SECONDS = 3600  # a signature is reused for this long per push service origin


def b64url(data: bytes) -> str:
    """Base64url without padding, as Web Push writes keys."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def key_from_file(path: str) -> ec.EllipticCurvePrivateKey:
    """The key kept in `path`, made and written there first if there is none."""
    if not os.path.exists(path):
        made = ec.generate_private_key(ec.SECP256R1())
        pem = made.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        made_path = f"{path}.{os.getpid()}.new"
        handle = os.open(made_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(handle, "wb") as out:
            out.write(pem)
            out.flush()
            os.fsync(out.fileno())
        try:  # whole or not at all; another process may have linked its own first
            with contextlib.suppress(FileExistsError):
                os.link(made_path, path)
        finally:
            os.unlink(made_path)
    with open(path, "rb") as kept:
        loaded = serialization.load_pem_private_key(kept.read(), password=None)
    if not isinstance(loaded, ec.EllipticCurvePrivateKey):
        raise ValueError(f"{path} holds no P-256 key")
    return loaded


def key_from_secret(secret_hex: str) -> ec.EllipticCurvePrivateKey:
    """A P-256 key derived from a kept 256-bit secret."""
    order = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
    return ec.derive_private_key(int(secret_hex, 16) % (order - 1) + 1, ec.SECP256R1())


class Signer:
    """Signs pushes with the service's key: `Authorization: vapid t=…, k=…` per push service."""

    def __init__(self, key: ec.EllipticCurvePrivateKey, subject: str) -> None:
        self.vapid = Vapid02(private_key=key)
        self.subject = subject
        self._signed: dict[str, tuple[float, str]] = {}

    @property
    def public_key(self) -> str:
        """The application server key browsers subscribe with (uncompressed point, base64url)."""
        point = self.vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(point)

    def authorization(self, endpoint: str) -> str:
        """The Authorization header for a push to `endpoint` (reused for an hour per origin)."""
        parts = urlsplit(endpoint)
        audience = f"{parts.scheme}://{parts.netloc}"
        now = time.time()
        found = self._signed.get(audience)
        if found is None or now - found[0] > REUSED_SECONDS:
            claims = {"aud": audience, "sub": self.subject, "exp": int(now) + SIGNED_SECONDS}
            found = self._signed[audience] = (now, self.vapid.sign(claims)["Authorization"])
        return found[1]


def signer(ctx: Context) -> Signer:
    """This process's signer, with the key the settings name (made if need be)."""
    return _signer(
        ctx.settings.vapid_key_file,
        ctx.settings.vapid_subject,
        ctx.settings.namespace,
        None if ctx.settings.vapid_key_file else ctx.identities.secret(VAPID_SECRET),
    )


@cache
def _signer(path: str | None, subject: str, namespace: str, secret: str | None) -> Signer:
    key = key_from_file(path) if path else key_from_secret(secret or "")
    return Signer(key, subject)
