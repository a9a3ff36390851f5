"""The OpenAPI document: served, documented with problem+json errors, and not drifting."""

from __future__ import annotations

from typing import Any

import jsonschema_rs
import orjson
import pytest
import yaml
from flask.testing import FlaskClient

from events.vocabulary import VOCABULARY
from game.editions import EDITIONS
from game.selfplay import play_game, random_chooser
from game.views import redact
from service import openapi
from service.cli import main
from service.schemas.commands import wire_command


def test_openapi_json_and_docs_are_served(client: FlaskClient) -> None:
    spec = client.get("/openapi.json")
    assert spec.status_code == 200
    assert spec.get_json()["openapi"].startswith("3.")
    docs = client.get("/docs")
    assert docs.status_code == 200
    assert "swagger" in docs.get_data(as_text=True).lower()


def test_errors_are_documented_as_problems(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").get_json()
    default = spec["components"]["responses"]["DEFAULT_ERROR"]
    assert list(default["content"]) == ["application/problem+json"]
    assert "Problem" in spec["components"]["schemas"]
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":  # path parameters shared by the operations
                continue
            assert "default" in operation["responses"], (method, path)


def test_checked_in_spec_matches_the_code() -> None:
    """Run `loveletter openapi` after changing a schema or a route."""
    assert openapi.SPEC_PATH.exists(), "api-spec/openapi.yaml is missing: run `loveletter openapi`"
    assert openapi.SPEC_PATH.read_text(encoding="utf-8") == openapi.render(openapi.spec_dict()), (
        "api-spec/openapi.yaml differs from the code: run `loveletter openapi`"
    )


def test_rendering_is_deterministic() -> None:
    assert openapi.render(openapi.spec_dict()) == openapi.render(openapi.spec_dict())
    assert yaml.safe_load(openapi.render(openapi.spec_dict()))["info"]["title"] == "Love Letter"


def test_check_command_reports_drift(tmp_path: object) -> None:
    from pathlib import Path

    target = Path(str(tmp_path)) / "openapi.yaml"
    assert main(["openapi", "--check", "--output", str(target)]) == 1
    assert main(["openapi", "--output", str(target)]) == 0
    assert main(["openapi", "--check", "--output", str(target)]) == 0
    target.write_text(target.read_text() + "# edited\n")
    assert main(["openapi", "--check", "--output", str(target)]) == 1


OPERATIONS = {
    ("get", "/healthz"): ("getHealth", "none"),
    ("get", "/metrics"): ("getMetrics", "none"),
    ("get", "/editions"): ("listEditions", "none"),
    ("get", "/leaderboards/{edition}"): ("getLeaderboard", "none"),
    ("get", "/players/{player_id}"): ("getPlayer", "none"),
    ("get", "/games"): ("listGames", "none"),
    ("post", "/games"): ("createGame", "player-optional"),
    ("get", "/games/{game_id}"): ("getGame", "optional"),
    ("get", "/games/{game_id}/versions/{version}"): ("getGameAtVersion", "optional"),
    ("get", "/games/{game_id}/events"): ("getEvents", "optional"),
    ("get", "/games/{game_id}/stream"): ("streamEvents", "optional"),
    ("post", "/games/{game_id}/stream-tickets"): ("createStreamTicket", "required"),
    ("post", "/games/{game_id}/seats"): ("joinGame", "player-optional"),
    ("post", "/games/{game_id}/seats/{seat}/abandon"): ("abandonSeat", "required"),
    ("delete", "/games/{game_id}/seats/{seat}"): ("leaveSeat", "required"),
    ("post", "/games/{game_id}/start"): ("startGame", "required"),
    ("post", "/games/{game_id}/rematch"): ("rematch", "required"),
    ("post", "/games/{game_id}/commands"): ("sendCommand", "required"),
    ("put", "/games/{game_id}/seats/{seat}/webhook"): ("setWebhook", "required"),
    ("delete", "/games/{game_id}/seats/{seat}/webhook"): ("deleteWebhook", "required"),
    ("post", "/players"): ("createPlayer", "none"),
    ("get", "/players/me"): ("getMe", "player"),
    ("post", "/players/me/transfer-codes"): ("createTransferCode", "player"),
    ("post", "/players/tokens"): ("redeemTransferCode", "none"),
    ("get", "/players/me/games"): ("listMyGames", "player"),
    ("get", "/players/me/devices"): ("listDevices", "player"),
    ("delete", "/players/me/devices/{device_id}"): ("revokeDevice", "player"),
    ("post", "/players/me/devices/revoke-others"): ("revokeOtherDevices", "player"),
    ("post", "/players/me/sign-out"): ("signOut", "player"),
    ("post", "/players/me/link"): ("linkGuest", "jwt"),
    ("put", "/players/me/webhook"): ("setPlayerWebhook", "player"),
    ("delete", "/players/me/webhook"): ("deletePlayerWebhook", "player"),
    ("get", "/push/vapid-public-key"): ("getVapidPublicKey", "none"),
    ("post", "/players/me/push-subscriptions"): ("subscribePush", "player"),
    ("get", "/players/me/push-subscriptions"): ("listPushSubscriptions", "player"),
    ("delete", "/players/me/push-subscriptions/{subscription_id}"): ("unsubscribePush", "player"),
    ("get", "/players/me/notification-preferences"): ("getNotificationPreferences", "player"),
    ("put", "/players/me/notification-preferences"): ("setNotificationPreferences", "player"),
    ("post", "/players/me/stream-tickets"): ("createInboxTicket", "player"),
    ("get", "/players/me/stream"): ("streamInbox", "player"),
    ("post", "/queue"): ("enterQueue", "player"),
    ("get", "/queue/{entry_id}"): ("getQueueEntry", "player"),
    ("delete", "/queue/{entry_id}"): ("cancelQueueEntry", "player"),
    ("get", "/games/{game_id}/chat"): ("getChat", "anyone"),
    ("post", "/games/{game_id}/chat"): ("postChat", "seat-or-player"),
    ("get", "/games/{game_id}/chat/mutes"): ("getChatMutes", "seat-or-player"),
    ("put", "/games/{game_id}/chat/mutes/{target}"): ("muteChat", "seat-or-player"),
    ("delete", "/games/{game_id}/chat/mutes/{target}"): ("unmuteChat", "seat-or-player"),
    ("get", "/tutorials"): ("listTutorials", "none"),
    ("get", "/tutorials/{name}"): ("getTutorial", "none"),
    ("post", "/tutorials"): ("startTutorial", "none"),
}
SEAT, PLAYER, JWT = {"seatToken": []}, {"playerToken": []}, {"playerJwt": []}
SECURITY = {
    "none": [],
    "optional": [{}, SEAT, PLAYER, JWT],  # a player's bearer without a seat reads as a spectator
    "required": [SEAT, PLAYER, JWT],  # a seat's token, or the player's holding the seat
    "player": [PLAYER, JWT],
    "player-optional": [{}, PLAYER, JWT],
    "seat-or-player": [SEAT, PLAYER, JWT],  # a seat's, or a player's without a seat (a spectator)
    "anyone": [{}, SEAT, PLAYER, JWT],
    "jwt": [JWT],
}


def spec() -> dict[str, Any]:
    """The generated document."""
    return openapi.spec_dict()


def operations(document: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    """Every operation by (method, path)."""
    return {
        (method, path): operation
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if method != "parameters"
    }


def resolve(document: dict[str, Any], item: dict[str, Any]) -> dict[str, Any]:
    """A `$ref`'d component, or the item itself."""
    while "$ref" in item:
        kind, name = item["$ref"].split("/")[-2:]
        item = document["components"][kind][name]
    return item


def check(document: dict[str, Any], schema: dict[str, Any], value: Any) -> None:
    """`value` is valid for `schema` (JSON Schema 2020-12, as OpenAPI 3.1 has it)."""
    validator = jsonschema_rs.Draft202012Validator({**schema, "components": document["components"]})
    errors = [error.message for error in validator.iter_errors(value)]
    assert not errors, (errors[:3], value)


def test_every_operation_is_named_for_its_action_and_says_if_it_takes_a_token() -> None:
    document = spec()
    found = operations(document)
    assert set(found) == set(OPERATIONS)
    for key, (operation_id, token) in OPERATIONS.items():
        assert found[key]["operationId"] == operation_id, key
        assert found[key]["security"] == SECURITY[token], key
    scheme = document["components"]["securitySchemes"]["seatToken"]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")


def test_request_bodies_and_main_answers_have_examples_that_fit_their_schemas() -> None:
    document = spec()
    bodies = answers = 0
    for key, operation in operations(document).items():
        if "requestBody" in operation:
            content = operation["requestBody"]["content"]["application/json"]
            examples = [e["value"] for e in content.get("examples", {}).values()]
            examples += [content["example"]] if "example" in content else []
            assert examples, key
            for example in examples:
                check(document, content["schema"], example)
            bodies += 1
        for status, response in operation["responses"].items():
            content = resolve(document, response).get("content", {}).get("application/json")
            if status.startswith("2") and content:
                assert "example" in content, (key, status)
                check(document, content["schema"], content["example"])
                answers += 1
    assert (bodies, answers) == (13, 40)


def test_commands_and_events_are_tagged_unions() -> None:
    document = spec()
    schemas = document["components"]["schemas"]
    legal = schemas["View"]["properties"]["legal"]["items"]
    assert legal["discriminator"]["propertyName"] == "type"
    assert set(legal["discriminator"]["mapping"]) == {"play", "chancellor", "redraw", "forfeit"}
    body = operations(document)[("post", "/games/{game_id}/commands")]["requestBody"]
    assert body["content"]["application/json"]["schema"] == legal
    events = schemas["Feed"]["properties"]["events"]["items"]
    assert set(events["discriminator"]["mapping"]) == set(VOCABULARY.types)
    for ref in events["discriminator"]["mapping"].values():
        event = resolve(document, {"$ref": ref})
        assert event["required"] == list(event["properties"]), ref


def test_every_answer_says_its_request_id_and_versions_are_etags() -> None:
    document = spec()
    for key, operation in operations(document).items():
        names = [resolve(document, p)["name"] for p in operation["parameters"]]
        assert "X-Request-ID" in names, key
        for status, response in operation["responses"].items():
            assert "X-Request-ID" in resolve(document, response)["headers"], (key, status)
    found = operations(document)
    for key in [("get", "/games/{game_id}"), ("get", "/games/{game_id}/events")]:
        assert "ETag" in found[key]["responses"]["200"]["headers"]
        assert "ETag" in found[key]["responses"]["304"]["headers"]
        assert "If-None-Match" in [resolve(document, p)["name"] for p in found[key]["parameters"]]
    command = found[("post", "/games/{game_id}/commands")]
    names = {resolve(document, p)["name"] for p in command["parameters"]}
    assert {"If-Match", "Idempotency-Key"} <= names
    assert "request_id" in document["components"]["schemas"]["Problem"]["properties"]


def test_the_turn_webhook_is_documented_with_its_signature_headers() -> None:
    document = spec()
    assert document["openapi"].startswith("3.1")
    call = document["webhooks"]["turnReady"]["post"]
    headers = {p["name"] for p in call["parameters"] if p["in"] == "header"}
    assert headers == {"webhook-id", "webhook-timestamp", "webhook-signature"}
    content = call["requestBody"]["content"]["application/json"]
    check(document, content["schema"], content["example"])
    assert resolve(document, content["schema"])["properties"]["data"]


@pytest.mark.timeout(900)  # premium: 290 s once on a 2-core machine at load average 20
@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_played_events_and_legal_commands_fit_the_document(edition: str) -> None:
    """Whole games of every edition: each event as each audience sees it fits its documented
    schema, and every legal command fits the command schema."""
    document = spec()
    schemas = document["components"]["schemas"]
    event_schema = schemas["Feed"]["properties"]["events"]["items"]
    command_schema = schemas["View"]["properties"]["legal"]["items"]
    players = EDITIONS[edition].max_players
    seen_types: set[str] = set()
    for number in range(6):
        legal_seen: list[Any] = []
        pick = random_chooser(f"doc-{number}")

        def choose(state: Any, legal: list[Any], seen: list[Any] = legal_seen, pick=pick) -> Any:
            seen.extend(wire_command(command) for command in legal)
            return pick(state, legal)

        played = play_game(edition, players - number % 3, f"doc-{number}", choose)
        for event in played.events:
            seen_types.add(event.type)
            for seat in (None, 0, 1):
                at = "2025-01-01T12:00:00.000Z"
                shown = {"version": 1, "at": at, **redact(event, seat)}
                shown = orjson.loads(orjson.dumps(shown))
                check(document, event_schema, shown)
        for command in legal_seen[:200]:
            check(document, command_schema, command)
    assert {"round_started", "card_played", "round_ended", "game_ended"} <= seen_types
