"""Hidden cards can't be computed: every game at a table, rematches included, is dealt from a
secret the server draws for it, and a seed chosen by a client is allowed only where the operator
says so, and then shown to everyone."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from uuid import uuid4

from flask import Flask
from flask.testing import FlaskClient

from events.audit import export_lines, verify_lines
from game.commands import StartGame
from game.decide import decide
from game.events import RoundStarted
from tests.api.players import Player, new_game
from tests.api.test_errors import problem
from tests.api.test_players import bearer, guest


def finish(players: list[Player]) -> None:
    """End the game at once: the seat to act gives up (under a key no other command used)."""
    looked = players[0].look()
    actor = players[looked.json["view"]["current"]]
    headers = {**actor.auth(), "If-Match": looked.headers["ETag"], "Idempotency-Key": uuid4().hex}
    sent = actor.client.post(f"/games/{actor.game}/commands", json={"type": "forfeit"},
                             headers=headers)  # fmt: skip
    assert sent.status_code == 200, sent.json
    assert players[0].look().json["game"]["status"] == "over"


def shown(player: Player) -> list[dict[str, Any]]:
    """Every event the seat's feed shows, from the table's opening."""
    return list(player.feed().json["events"])


def deals(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """Each deal of these (whole) events: set-aside card, face-up cards, hands, deck."""
    return [
        (e["set_aside"], tuple(e["face_up"]), tuple(e["hands"]), tuple(e["deck"]))
        for e in events
        if e["type"] == "round_started"
    ]


def test_a_seat_cant_compute_the_rematch_deal_from_what_it_was_shown(
    client: FlaskClient,
) -> None:
    """Seat 0 reads the finished game's whole record (its seed included) and runs the open
    engine on every seed it saw, and on each as the next game's would be derived from it: no
    deal it computes is the rematch's."""
    game, players = new_game(client, "2019", ["human", "human"])
    finish(players)
    record = shown(players[0])
    seeds = {e["seed"] for e in record if e.get("seed")}
    assert seeds, "the finished game's seed is public (so its deals can be checked)"
    names = next(tuple(e["players"]) for e in record if e["type"] == "game_started")
    guesses = set()
    for candidate in [*seeds, *(f"{seed}#2" for seed in seeds)]:
        dealt = decide(None, StartGame("2019", names, candidate))
        guesses |= set(deals([as_shown(e) for e in dealt if isinstance(e, RoundStarted)]))
    assert client.post(f"/games/{game}/rematch", headers=players[0].auth()).status_code == 200
    hand = players[1].look().json["view"]["hand"]
    finish(players)
    (first_deal, *_) = deals(shown(players[1])[len(record) :])
    assert first_deal[2][1] == hand[0]
    assert first_deal not in guesses


def as_shown(event: RoundStarted) -> dict[str, Any]:
    """An engine event as the feed writes it."""
    return {"type": event.type, **{name: getattr(event, name) for name in event.__slots__}}


def test_every_game_at_a_table_is_dealt_from_its_own_secret(client: FlaskClient) -> None:
    """Three games at one table: three seeds, none in anything a seat was shown before its
    game was over; the export still verifies every deal of all three."""
    game, players = new_game(client, "classic", ["human", "human"])
    seeds = []
    for number in range(3):
        if number:
            rematch = client.post(f"/games/{game}/rematch", headers=players[1].auth())
            assert rematch.status_code == 200, rematch.json
        before = json.dumps([[shown(p), p.look().json] for p in players])
        finish(players)
        record = shown(players[0])
        seeds.append([e["seed"] for e in record if e["type"] == "game_started"][-1])
        assert seeds[-1] not in before
    assert len(set(seeds)) == 3
    store = client.application.extensions["loveletter"].context.games.store
    report = verify_lines(export_lines(store, game))
    assert report.ok, report.divergence
    assert report.deals_opened == sum(e["type"] == "round_ended" for e in record) >= 3


def test_a_chosen_seed_is_refused_unless_the_operator_allows_it(client: FlaskClient) -> None:
    body = {"edition": "2019", "seats": ["human", "human"], "name": "ann"}
    refused = problem(client.post("/games", json={**body, "seed": "mine"}), 422,
                      "seed-not-allowed")  # fmt: skip
    assert "seed" in refused["detail"]
    assert client.get("/games").json["games"] == []
    created = client.post("/games", json=body)
    assert created.status_code == 201 and created.json["game"]["seeded"] is False


def test_a_seeded_game_says_so_to_everyone(make_app: Callable[..., Flask]) -> None:
    client = make_app({"LOVELETTER_SEEDED_GAMES": "1"}).test_client()
    game, players = new_game(client, "2019", ["human", "human"], seed="mine")
    assert client.get(f"/games/{game}").json["game"]["seeded"] is True  # a spectator
    for player in players:
        assert player.look().json["game"]["seeded"] is True
    unseeded, _ = new_game(client, "2019", ["human", "human"])
    assert client.get(f"/games/{unseeded}").json["game"]["seeded"] is False


def test_a_ranked_game_says_so_and_seats_players_only(client: FlaskClient) -> None:
    """ranked is shown in every view; a ranked table takes no bot seat, and a seat token alone
    can't sit there (422 player-required)."""
    ann, bob = (guest(client, name) for name in ("ann", "bob"))
    body = {"edition": "2019", "seats": ["human", "human"], "ranked": True}
    created = client.post("/games", json=body, headers=bearer(ann))
    assert created.status_code == 201, created.json
    game = created.json["game"]["id"]
    problem(client.post(f"/games/{game}/seats", json={"name": "cy"}), 422, "player-required")
    joined = client.post(f"/games/{game}/seats", json={"name": "bob"}, headers=bearer(bob))
    assert joined.status_code == 201, joined.json
    shown = client.get(f"/games/{game}").json["game"]
    assert shown["ranked"] is True and shown["status"] == "playing"
    unranked, _ = new_game(client, "2019", ["human", "human"])
    assert client.get(f"/games/{unranked}").json["game"]["ranked"] is False
    with_bot = {**body, "seats": ["human", "random"]}
    problem(client.post("/games", json=with_bot, headers=bearer(ann)), 422, "bad-setting")
    assert client.post("/games", json={**body, "name": "x"}).status_code == 422  # no player
