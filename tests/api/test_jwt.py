"""Players named by the operator's backend: bearer JWTs checked with PyJWT (signature, exp, aud,
iss), with an HS256 secret or a public key set served over HTTP or read from a file."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from flask.testing import FlaskClient

from tests.api.conftest import AppFactory

SECRET = "an-hs256-secret-of-the-operator-32b"
ISSUER, AUDIENCE = "https://accounts.example", "loveletter"


def claims(**changes: Any) -> dict[str, Any]:
    now = int(time.time())
    base = {"iss": ISSUER, "aud": AUDIENCE, "sub": "user-42", "exp": now + 300, "iat": now,
            "name": "Kenji"}  # fmt: skip
    base.update(changes)
    return {name: value for name, value in base.items() if value is not None}


def hs256(**changes: Any) -> str:
    return jwt.encode(claims(**changes), SECRET, algorithm="HS256")


@pytest.fixture
def client(make_app: AppFactory) -> FlaskClient:
    config = {"LOVELETTER_JWT_SECRET": SECRET, "LOVELETTER_JWT_ISSUER": ISSUER,
              "LOVELETTER_JWT_AUDIENCE": AUDIENCE}  # fmt: skip
    return make_app(config).test_client()


def me(client: FlaskClient, token: str) -> Any:
    return client.get("/players/me", headers={"Authorization": f"Bearer {token}"})


def test_a_valid_token_names_its_player_made_at_first_sight(client: FlaskClient) -> None:
    first = me(client, hs256())
    assert first.status_code == 200, first.json
    assert first.json["kind"] == "external" and first.json["name"] == "Kenji"
    again = me(client, hs256(name="Someone else"))  # the same `sub`: the same player
    assert again.json["id"] == first.json["id"] and again.json["name"] == "Kenji"
    other = me(client, hs256(sub="user-43", name="<script>"))  # a name the rules refuse
    assert other.json["id"] != first.json["id"] and other.json["name"].startswith("player-")
    body = {"edition": "classic", "seats": ["human", "random"]}
    created = client.post("/games", json=body, headers={"Authorization": f"Bearer {hs256()}"})
    assert created.status_code == 201
    games = client.get("/players/me/games", headers={"Authorization": f"Bearer {hs256()}"})
    assert games.json["games"][0]["id"] == created.json["game"]["id"]


@pytest.mark.parametrize(
    "token",
    [
        pytest.param(hs256(exp=int(time.time()) - 120), id="expired"),
        pytest.param(hs256(aud="another-service"), id="wrong-aud"),
        pytest.param(hs256(iss="https://evil.example"), id="wrong-iss"),
        pytest.param(jwt.encode(claims(), "not-the-secret-at-all-32-bytes-x", "HS256"), id="key"),
        pytest.param(jwt.encode(claims(), None, algorithm="none"), id="alg-none"),  # type: ignore[arg-type]
        pytest.param(hs256(exp=None), id="no-exp"),
        pytest.param(hs256(sub=None), id="no-sub"),
        pytest.param(hs256()[:-4] + "AAAA", id="tampered"),
    ],
)
def test_a_bad_token_is_refused_with_a_problem(client: FlaskClient, token: str) -> None:
    refused = me(client, token)
    assert refused.status_code == 401
    assert refused.headers["Content-Type"] == "application/problem+json"
    assert refused.json["type"].endswith("invalid-token")


def test_the_none_algorithm_is_refused_even_where_no_issuer_is_trusted(
    make_app: AppFactory,
) -> None:
    plain = make_app().test_client()
    assert me(plain, jwt.encode(claims(), None, algorithm="none")).status_code == 401  # type: ignore[arg-type]


@pytest.fixture
def rsa_keys() -> tuple[Any, dict[str, Any]]:
    """A private key and the public key set that names it (kid "k1")."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    public = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key()))
    return key, {"keys": [{**public, "kid": "k1", "alg": "RS256", "use": "sig"}]}


@pytest.fixture
def jwks_url(rsa_keys: tuple[Any, dict[str, Any]]) -> Iterator[str]:
    """The key set served over HTTP on loopback, as an identity provider serves it."""
    body = json.dumps(rsa_keys[1]).encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/.well-known/jwks.json"
    server.shutdown()


def rs256(key: Any, kid: str = "k1", **changes: Any) -> str:
    return jwt.encode(claims(**changes), key, algorithm="RS256", headers={"kid": kid})


@pytest.mark.parametrize("source", ["url", "file"])
def test_a_public_key_set_checks_the_issuers_signatures(
    make_app: AppFactory,
    rsa_keys: tuple[Any, dict[str, Any]],
    jwks_url: str,
    tmp_path: Path,
    source: str,
) -> None:
    key, key_set = rsa_keys
    config = {"LOVELETTER_JWT_ISSUER": ISSUER, "LOVELETTER_JWT_AUDIENCE": AUDIENCE}
    if source == "url":
        config["LOVELETTER_JWT_JWKS_URL"] = jwks_url
    else:
        path = tmp_path / "jwks.json"
        path.write_text(json.dumps(key_set))
        config["LOVELETTER_JWT_JWKS_FILE"] = str(path)
    client = make_app(config).test_client()
    assert me(client, rs256(key)).status_code == 200
    stranger = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    assert me(client, rs256(stranger)).status_code == 401  # signed by another key
    assert me(client, rs256(key, kid="k9")).status_code == 401  # a key the set lacks
    hmac_with_public = jwt.encode(claims(), SECRET, algorithm="HS256", headers={"kid": "k1"})
    assert me(client, hmac_with_public).status_code == 401  # no HMAC where keys are public
