"""Players named by the operator's own backend: bearer JWTs from one trusted issuer.

The issuer signs with an HS256 secret (`LOVELETTER_JWT_SECRET`) or with keys of a public key
set (`LOVELETTER_JWT_JWKS_URL`, fetched and cached by PyJWT, or `LOVELETTER_JWT_JWKS_FILE`).
PyJWT checks the signature, `exp`, `iss` and `aud`; a token without `exp`, `iss`, `aud` or
`sub` is refused, and so is any algorithm but the configured ones (never `none`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import jwt

from play.settings import Settings

HMAC_ALGORITHMS = ["HS256"]
KEY_ALGORITHMS = ["RS256", "PS256", "ES256", "EdDSA"]
REQUIRED_CLAIMS = ["exp", "iss", "aud", "sub"]
LEEWAY_SECONDS = 30  # clocks differ a little between the issuer and us


def looks_like_jwt(token: str) -> bool:
    """Whether a bearer token is a JWT (three dot-separated parts) rather than a token of ours."""
    return token.count(".") == 2


@dataclass(frozen=True)
class Subject:
    """Who a verified token names: its issuer, its subject and the name it suggests."""

    issuer: str
    subject: str
    name: str | None


class TrustedIssuer:
    """Verifies bearer JWTs of the configured issuer."""

    def __init__(self, settings: Settings) -> None:
        if not (settings.jwt_issuer and settings.jwt_audience):
            raise ValueError("LOVELETTER_JWT_ISSUER and LOVELETTER_JWT_AUDIENCE are required")
        self.settings = settings
        self.issuer = settings.jwt_issuer
        self.audience = settings.jwt_audience

    @classmethod
    def configured(cls, settings: Settings) -> TrustedIssuer | None:
        """The issuer the settings name, or None when players come from no backend."""
        if not (settings.jwt_secret or settings.jwt_jwks_url or settings.jwt_jwks_file):
            return None
        return cls(settings)

    @cached_property
    def _jwks_client(self) -> jwt.PyJWKClient:
        assert self.settings.jwt_jwks_url is not None
        return jwt.PyJWKClient(self.settings.jwt_jwks_url, cache_keys=True, lifespan=300)

    @cached_property
    def _key_set(self) -> jwt.PyJWKSet:
        assert self.settings.jwt_jwks_file is not None
        return jwt.PyJWKSet.from_json(Path(self.settings.jwt_jwks_file).read_text())

    def _key(self, token: str) -> tuple[Any, list[str]]:
        """The key that must have signed `token`, and the algorithms it may use."""
        if self.settings.jwt_secret:
            return self.settings.jwt_secret, HMAC_ALGORITHMS
        if self.settings.jwt_jwks_url:
            return self._jwks_client.get_signing_key_from_jwt(token).key, KEY_ALGORITHMS
        kid = jwt.get_unverified_header(token).get("kid")
        keys = [key for key in self._key_set.keys if kid is None or key.key_id == kid]
        if not keys:
            raise jwt.InvalidKeyError("no key of the issuer's set has this token's kid")
        return keys[0].key, KEY_ALGORITHMS

    def verify(self, token: str) -> Subject:
        """The subject of a valid token; a jwt.PyJWTError if it is not one."""
        key, algorithms = self._key(token)
        claims = jwt.decode(
            token,
            key,
            algorithms=algorithms,
            audience=self.audience,
            issuer=self.issuer,
            leeway=LEEWAY_SECONDS,
            options={"require": REQUIRED_CLAIMS},
        )
        subject = claims["sub"]
        if not isinstance(subject, str) or not subject:
            raise jwt.InvalidTokenError("sub must be a non-empty string")
        name = claims.get("name") or claims.get("preferred_username")
        return Subject(self.issuer, subject, name if isinstance(name, str) else None)
