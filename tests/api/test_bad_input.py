"""Bad input is refused with the problem the document promises, and changes nothing: seats beyond
the table, oversized chunked bodies, names that are not names, objects naming a key twice."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask.testing import FlaskClient

from tests.api.players import new_game
from tests.api.test_errors import problem

BODY_METHODS = ("post", "put", "patch", "delete")


def game_count(client: FlaskClient) -> int:
    """How many games the lobby lists (in this test's namespace)."""
    return len(client.get("/games").json["games"])


def test_a_first_player_beyond_the_seats_is_refused_naming_the_seats(client: FlaskClient) -> None:
    body = {"edition": "2019", "seats": ["human", "random"], "name": "ann", "first_player": 2}
    refused = problem(client.post("/games", json=body), 422, "unknown-seat")
    assert "0 to 1" in refused["detail"]
    assert game_count(client) == 0
    assert client.post("/games", json={**body, "first_player": 1}).status_code == 201


def test_a_seat_beyond_the_table_is_refused_naming_the_seats_there_are(
    client: FlaskClient,
) -> None:
    created = client.post("/games", json={"edition": "2019", "seats": ["human", "human"]}).json
    game, version = created["game"]["id"], created["game"]["version"]
    refused = problem(client.post(f"/games/{game}/seats", json={"name": "bob", "seat": 5}), 422,
                      "unknown-seat")  # fmt: skip
    assert "0 to 1" in refused["detail"]
    assert client.get(f"/games/{game}").headers["ETag"] == f'"{version}"'


def test_the_document_says_which_seats_are_accepted(client: FlaskClient) -> None:
    schemas = client.get("/openapi.json").json["components"]["schemas"]
    seats = ("CreateGame", "first_player"), ("Join", "seat"), ("PlayCommand", "look")
    for schema, name in seats:
        described = schemas[schema]["properties"][name]["description"]
        assert "unknown-seat" in described, (schema, name)


def test_413_and_415_are_documented_wherever_a_body_is_read(client: FlaskClient) -> None:
    paths = client.get("/openapi.json").json["paths"]
    operations = [
        (method, path, operation)
        for path, item in paths.items()
        for method, operation in item.items()
        if method in BODY_METHODS
    ]
    assert len(operations) >= 6
    for method, path, operation in operations:
        assert {"413", "415"} <= set(operation["responses"]), (method, path)


BAD_NAMES = [
    "",
    "a\x00b",
    "\x1b[31mred",
    "ann\r\nbob",
    "tab\there",
    "<b>ann</b>",
    "ann & co",
    'say "hi"',
    "o'neil",
    " ann",
    "ann ",
    "x" * 41,
    "zero\u200bwidth",
    "right\u202eleft",
]
GOOD_NAMES = ["Ann", "José", "Zoë-2", "李小龍", "अनु", "ann_b.2", "Anne Marie"]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_name_that_is_not_a_name_is_refused(client: FlaskClient, name: str) -> None:
    body = {"edition": "2019", "seats": ["human", "human"], "name": name}
    refused = problem(client.post("/games", json=body), 422, "validation-error")
    assert "name" in refused["errors"]["json"]
    created = client.post("/games", json={"edition": "2019", "seats": ["human", "human"]}).json
    game = created["game"]["id"]
    refused = problem(client.post(f"/games/{game}/seats", json={"name": name}), 422,
                      "validation-error")  # fmt: skip
    assert "name" in refused["errors"]["json"]
    assert client.get(f"/games/{game}").json["game"]["open_seats"] == 2


@pytest.mark.parametrize("name", GOOD_NAMES)
def test_names_of_every_script_are_names(client: FlaskClient, name: str) -> None:
    body = {"edition": "2019", "seats": ["human", "human"], "name": name}
    created = client.post("/games", json=body)
    assert created.status_code == 201, created.json
    assert created.json["game"]["seats"][0]["name"] == name


def test_a_command_naming_a_key_twice_is_malformed(client: FlaskClient) -> None:
    """`{"type": "play", "type": "forfeit"}` is not run as either command."""
    game, players = new_game(client, "classic", ["human", "human"])
    actor = players[0].look().json["view"]["current"]
    version = players[0].look().headers["ETag"]
    raw = b'{"type": "play", "type": "forfeit"}'
    headers = {**players[actor].auth(), "If-Match": version, "Idempotency-Key": "twice"}
    response = client.post(f"/games/{game}/commands", data=raw, headers=headers,
                           content_type="application/json")  # fmt: skip
    problem(response, 400, "malformed-json")
    assert players[0].look().headers["ETag"] == version


@pytest.mark.parametrize(
    "raw",
    [
        b'{"edition": "2019", "edition": "classic", "seats": ["human", "human"]}',
        b'{"edition": "2019", "seats": ["human", "human"], "name": "a", "name": "b"}',
        b'{"edition": "2019", "seats": ["human", "human"], "x": {"k": 1, "k": 2}}',
    ],
)
def test_any_object_naming_a_key_twice_is_malformed(client: FlaskClient, raw: bytes) -> None:
    response = client.post("/games", data=raw, content_type="application/json")
    problem(response, 400, "malformed-json")
    assert game_count(client) == 0


def chunked_post(
    connection: http.client.HTTPConnection, path: str, body: bytes
) -> tuple[int, dict[str, Any]]:
    """POST `body` with Transfer-Encoding: chunked (16 KiB chunks); the status and JSON."""

    def chunks() -> Iterator[bytes]:
        for start in range(0, len(body), 16 * 1024):
            yield body[start : start + 16 * 1024]

    connection.request("POST", path, body=chunks(), encode_chunked=True,
                       headers={"Content-Type": "application/json"})  # fmt: skip
    response = connection.getresponse()
    assert response.getheader("Content-Type") in ("application/json", "application/problem+json")
    return response.status, json.loads(response.read())


def test_a_chunked_body_over_the_limit_is_413_on_a_connection_that_stays_open(
    gunicorn_app: str,
) -> None:
    """A body without Content-Length is measured as it is read: past 16 KiB, 413. The client
    reads that answer after sending its whole body (up to a megabyte), and goes on."""
    address = urlsplit(gunicorn_app)
    connection = http.client.HTTPConnection(address.hostname or "", address.port, timeout=10)
    try:
        for size in (16_400, 20_000, 1_000_000):
            body = {"edition": "2019", "seats": ["human", "human"], "name": "x" * size}
            status, answer = chunked_post(connection, "/games", json.dumps(body).encode())
            assert status == 413, answer
            assert answer["type"].endswith("/payload-too-large")
        fine = {"edition": "2019", "seats": ["human", "human"], "name": "ann"}
        status, answer = chunked_post(connection, "/games", json.dumps(fine).encode())
        assert status == 201, answer
        connection.request("GET", "/games")
        assert len(json.loads(connection.getresponse().read())["games"]) == 1  # the fine one
    finally:
        connection.close()


@pytest.mark.parametrize("depth", [900, 990, 1000, 1023, 1030])
def test_nesting_near_any_parser_limit_is_refused_not_a_500(
    client: FlaskClient, depth: int
) -> None:
    """Reading keys one by one must not overflow where a faster parser does not."""
    raw = b'{"edition": "2019", "seats": ["human", "human"], "name": '
    raw += b"[" * depth + b"]" * depth + b"}"
    response = client.post("/games", data=raw, content_type="application/json")
    assert response.status_code in (400, 422), response.get_data(as_text=True)
    assert game_count(client) == 0


# An id of the pattern's 20 digits but beyond what Redis holds (each part below 2**64): found by
# the contract test's fuzzing, once a 500 from the chat's read.
BEYOND_REDIS_IDS = (
    "47310928944137872105-87005",
    "1-18446744073709551616",
    "99999999999999999999-0",
)


@pytest.mark.parametrize("entry", BEYOND_REDIS_IDS)
def test_a_message_or_entry_id_beyond_redis_is_refused_not_a_500(
    client: FlaskClient, entry: str
) -> None:
    created = client.post(
        "/games", json={"edition": "2019", "seats": ["human", "human"], "name": "ann"}
    ).json
    game, token = created["game"]["id"], created["token"]
    seat = {"Authorization": f"Bearer {token}"}
    player = client.post("/players", json={"name": "ann"}).json["token"]
    asked = [
        client.get(f"/games/{game}/chat?after={entry}", headers=seat),
        client.get(f"/games/{game}/stream?chat_after={entry}", headers=seat),
        client.get(
            f"/players/me/stream?after={entry}", headers={"Authorization": f"Bearer {player}"}
        ),
        client.get(
            "/players/me/stream",
            headers={"Authorization": f"Bearer {player}", "Last-Event-ID": entry},
        ),
    ]
    for answer in asked:
        assert 400 <= answer.status_code < 500, answer.get_data(as_text=True)
        assert answer.mimetype == "application/problem+json"
    largest = f"{10**19 - 1}-{10**19 - 1}"  # the largest id the document allows is read: empty
    read = client.get(f"/games/{game}/chat?after={largest}", headers=seat)
    assert read.status_code == 200 and read.json["messages"] == []
