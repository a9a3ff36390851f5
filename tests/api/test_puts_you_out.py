"""A seat's answer names the legal moves certain to put it out of the round (a client asks
before sending one); no other reader is told anything of it."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.api.players import Player, new_game

TRIES = 80  # deals until the first player holds the Princess (about one in ten)


def holding_the_princess(client: FlaskClient) -> tuple[str, list[Player]]:
    """A 2019 game of two humans where seat 0 is to play holding the Princess."""
    for _ in range(TRIES):
        game, players = new_game(client, "2019", ["human", "human"], first_player=0)
        if "princess" in players[0].look().json["view"]["hand"]:
            return game, players
    raise AssertionError(f"no deal of {TRIES} gave seat 0 the Princess")


def test_the_seat_to_play_is_told_which_moves_put_it_out(client: FlaskClient) -> None:
    game, (ann, bob) = holding_the_princess(client)
    seen = ann.look().json
    hand, legal = seen["view"]["hand"], seen["legal"]
    expected = [
        index for index, command in enumerate(legal)
        if command["card"] == "princess"
        or (command["card"] == "prince" and command.get("targets") == [0])
    ]  # fmt: skip
    assert expected and seen["puts_you_out"] == expected, (hand, legal)
    # The other seat and a spectator have no move, and are told nothing.
    assert bob.look().json["puts_you_out"] == [] == bob.look().json["legal"]
    assert client.get(f"/games/{game}").json["puts_you_out"] == []

    played = ann.send(legal[expected[0]])
    assert played.status_code == 200, played.json
    assert played.json["view"]["round_winners"] == [1]  # ann was out: bob won the round
