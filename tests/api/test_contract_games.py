"""Schemathesis on real games: every operation on a game, with its real id and real seat tokens."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.core.result import Ok
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance
from werkzeug.test import TestResponse

from service.schemas.games import MAX_WAIT_SECONDS
from tests.api.players import Player, new_game
from tests.api.test_contract import constrained_headers, valid_data_passes_validation

EXAMPLES = 25
AUDITOR = "auditor-of-the-contract-tests"
MAX_WAIT = 0.05  # long polls of the feed are cut to this many seconds
MAX_DOCUMENTED_WAIT = MAX_WAIT_SECONDS
POSITIVE = GenerationMode.POSITIVE
COMMANDS = "/games/{game_id}/commands"


@dataclass(frozen=True)
class Table:
    """A real game and the tokens of its seated players, by seat."""

    id: str
    tokens: dict[int, str]


def json(response: TestResponse) -> Any:
    """The JSON body of an answer (there must be one)."""
    body = response.get_json()
    assert body is not None, response.data
    return body


def set_tables(client: FlaskClient) -> list[Table]:
    """Games in every state: an open seat, waiting for a start, two being played, one over."""
    created = client.post(
        "/games", json={"edition": "2019", "seats": ["human", "human"], "name": "ann"}
    )
    assert created.status_code == 201, created.json
    tables = [Table(json(created)["game"]["id"], {0: json(created)["token"]})]
    for edition, seats, options in (
        ("2019", ["human", "human"], {"autostart": False}),
        ("2019", ["human", "human"], {}),
        ("premium", ["human", "human", "human", "human", "heuristic"], {"first_player": 0}),
        ("classic", ["human", "human"], {}),
    ):
        game, players = new_game(client, edition, seats, seed="contract", **options)
        tokens = {p.seat: p.token for p in players if p.seat is not None and p.token}
        tables.append(Table(game, tokens))
    over = tables[-1]
    current = json(client.get(f"/games/{over.id}"))["view"]["current"]
    forfeited = Player(client, over.id, over.tokens[current]).send({"type": "forfeit"})
    assert forfeited.status_code == 200, forfeited.json
    return tables


def authorizations(table: Table, tables: list[Table]) -> list[str | None]:
    """Authorization headers to try on `table`: mostly its seats' tokens, then the others."""
    mine = [f"Bearer {token}" for token in table.tokens.values()] * 3
    stranger = next(t for t in tables if t is not table).tokens[0]
    return [*mine, None, f"Bearer {AUDITOR}", f"Bearer {stranger}", "Bearer not-a-token",
            "Basic YW5uOmFubg=="]  # fmt: skip


def often(data: st.DataObject, label: str) -> bool:
    """True three times in four."""
    return data.draw(st.integers(0, 3), label) > 0


def steer(case: Any, table: Table, client: FlaskClient, data: st.DataObject) -> None:
    """Make valid cases reach the rules: the seat to act, the game's version, moves, seats."""
    public = client.get(f"/games/{table.id}")
    assert public.status_code == 200, public.json
    game, seen = json(public)["game"], json(public)["view"]
    to_act = table.tokens.get(seen["current"]) if seen else None
    if case.path == COMMANDS and to_act and often(data, "the seat to act"):
        case.headers["Authorization"] = f"Bearer {to_act}"
    if "If-Match" in case.headers and often(data, "the current version"):
        case.headers["If-Match"] = public.headers["ETag"]
    acting = to_act is not None and case.headers.get("Authorization") == f"Bearer {to_act}"
    if case.path == COMMANDS and acting and often(data, "a legal move"):
        mine = client.get(f"/games/{table.id}", headers={"Authorization": f"Bearer {to_act}"})
        legal = json(mine)["legal"]
        if legal:
            case.body = data.draw(st.sampled_from(legal), "the move")
    if "version" in case.path_parameters and often(data, "an existing version"):
        case.path_parameters["version"] = data.draw(st.integers(1, game["version"]), "version")
    if "seat" in case.path_parameters and often(data, "a seat of the game"):
        case.path_parameters["seat"] = data.draw(st.integers(0, len(game["seats"]) - 1), "seat")


def refusals_name_their_rule(ctx: Any, response: Any, case: Any) -> None:
    """A command the rules refuse (409, 422) says which rule, as `code` and in its `type`."""
    if case.path == COMMANDS and response.status_code in (409, 422):
        problem = response.json()
        if not problem["type"].endswith("/validation-error"):
            code = problem.get("code")
            assert code and problem["type"].endswith(f"/{code}"), response.text


def status_is_documented(ctx: Any, response: Any, case: Any) -> None:
    """The status of an answer to valid data is one its operation lists, not left to default."""
    documented = case.operation.definition.raw["responses"]
    status = response.status_code
    assert str(status) in documented, f"{status} is not documented: {response.text}"


def has_inputs_besides_the_game(operation: Any) -> bool:
    """True when the operation takes a body or a parameter other than the game's id."""
    parts = ("body", "query", "cookies")
    return (
        len(operation.path_parameters) > 1
        or bool(constrained_headers(operation))
        or any(len(getattr(operation, p)) for p in parts)
    )


def fuzz(
    operation: Any, mode: GenerationMode, client: FlaskClient, checks: list[Any]
) -> Counter[int]:
    """Run schemathesis's cases of one operation on fresh real games; the statuses answered."""
    tables = set_tables(client)
    by_id = {table.id: table for table in tables}
    cases = st.one_of(
        [
            operation.as_strategy(generation_mode=mode, path_parameters={"game_id": t.id})
            for t in tables
        ]
    )
    statuses: Counter[int] = Counter()

    @given(case=cases, data=st.data())
    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
    def conforms(case: Any, data: st.DataObject) -> None:
        table = by_id[case.path_parameters["game_id"]]
        authorization = data.draw(st.sampled_from(authorizations(table, tables)), "auth")
        if authorization is not None:
            case.headers["Authorization"] = authorization
            # Real credentials of the test's, not generated ones: schemathesis then checks that
            # the operation refuses the same request without them, or with invalid ones.
            object.__setattr__(case, "_has_explicit_auth", True)
        wait = case.query.get("wait")
        if isinstance(wait, int | float) and MAX_WAIT < wait <= MAX_DOCUMENTED_WAIT:
            case.query["wait"] = MAX_WAIT
        if mode is POSITIVE:
            steer(case, table, client, data)
        response = case.call_and_validate(
            excluded_checks=[positive_data_acceptance], additional_checks=checks
        )
        statuses[response.status_code] += 1

    conforms()
    return statuses


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_operations_on_real_games_conform(
    make_app: Callable[..., Flask], mode: GenerationMode
) -> None:
    """No 5xx, every answer as documented, valid data refused only by the rules."""
    app = make_app(
        {
            "LOVELETTER_RATE_LIMIT_ADDRESS": "off",
            "LOVELETTER_RATE_LIMIT_SEAT": "off",
            "LOVELETTER_AUDITOR_TOKEN": AUDITOR,
            "LOVELETTER_MAX_BODY_BYTES": str(2**24),  # a huge generated body: 413 is not checked
            "LOVELETTER_SEEDED_GAMES": "1",  # the tables are dealt from a seed of the test's
            "LOVELETTER_STREAM_SECONDS": "0.05",  # an event stream ends after this long
        }
    )
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app)
    checks: list[Any] = [refusals_name_their_rule]
    if mode is POSITIVE:
        checks += [valid_data_passes_validation, status_is_documented]
    statuses: dict[str, Counter[int]] = {}
    for result in schema.get_all_operations():
        assert isinstance(result, Ok), result
        operation = result.ok()
        if "{game_id}" not in operation.path:
            continue
        if mode is not POSITIVE and not has_inputs_besides_the_game(operation):
            continue  # nothing left to make invalid once the game is real
        name = f"{operation.method.upper()} {operation.path}"
        statuses[name] = fuzz(operation, mode, app.test_client(), checks)
    assert len(statuses) == (18 if mode is POSITIVE else 17), statuses
    if mode is POSITIVE:  # the real games were reached, not only refused at the door
        assert statuses["GET /games/{game_id}/events"][200], statuses
        assert statuses["GET /games/{game_id}/versions/{version}"][200], statuses
        assert statuses["GET /games/{game_id}/stream"][200], statuses
        commands = statuses[f"POST {COMMANDS}"]
        assert commands[200] + commands[422], statuses


def test_the_feed_answers_any_documented_after(client: FlaskClient) -> None:
    """`after` has no documented maximum: past any stream id, the feed is empty, not a 500."""
    _, players = new_game(client, "classic", ["human", "human"])
    for after in (2**63, 2**64 - 1, 2**64, 10**30):
        for wait in (0, 0.01):
            answer = players[0].feed(after=after, wait=wait)
            assert answer.status_code == 200, answer.json
            assert answer.json == {
                "version": json(players[0].look())["game"]["version"],
                "events": [],
            }
