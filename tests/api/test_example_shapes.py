"""The contract's examples show ids, tokens and codes of the shapes the service makes them
(lengths and alphabets of what its own generators make), so a client developer can trust them
for validation, storage and tests."""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

from events.players import device_id, digest
from game.cards import CARDS
from game.editions import EDITIONS
from play.identities import keyed_player_id
from play.lobby import new_game_id
from play.players import new_guest_id, new_player_token, new_transfer_code
from play.settings import Settings
from service import openapi
from service.auth import new_token
from service.blueprints.players import new_ticket

HEX = set(string.hexdigits.lower()) - set("ABCDEF")
URL_SAFE = set(string.ascii_letters + string.digits + "_-")
ENTRY_ID = re.compile(r"[0-9]+-[0-9]+")


OPERATOR = SimpleNamespace(settings=Settings(player_id_secret="a-secret"))  # all it reads


MAKERS: dict[str, Callable[[], str]] = {
    "game": new_game_id,
    "seat token": new_token,
    "player token": new_player_token,
    "guest": new_guest_id,
    "account": lambda: keyed_player_id(OPERATOR, "https://issuer.example", "sub"),  # type: ignore[arg-type]
    "transfer code": new_transfer_code,
    "ticket": new_ticket,
    "device": lambda: device_id(digest(new_player_token())),
}


def shape(kind: str) -> tuple[str, set[int], set[str]]:
    """A kind's prefix, lengths and alphabet, from 50 values its generator made."""
    made = [MAKERS[kind]() for _ in range(50)]
    prefix = "plr_" if kind == "player token" else "x" if kind == "account" else ""
    rest = [value.removeprefix(prefix) for value in made]
    alphabet = HEX if all(set(value) <= HEX for value in rest) else URL_SAFE
    return prefix, {len(value) for value in rest}, alphabet


SHAPES = {kind: shape(kind) for kind in MAKERS}


def fits(value: str, *kinds: str) -> bool:
    """Whether `value` has the shape of one of these kinds."""
    for kind in kinds:
        prefix, lengths, alphabet = SHAPES[kind]
        rest = value.removeprefix(prefix)
        if value.startswith(prefix) and len(rest) in lengths and set(rest) <= alphabet:
            return True
    return False


def examples(node: Any, key: str = "") -> Iterator[tuple[str, Any]]:
    """Every (key, value) under an `example` or `examples` of the document."""
    if isinstance(node, dict):
        for name, value in node.items():
            if name in ("example", "value"):
                yield from walk(value)
            else:
                yield from examples(value, name)
    elif isinstance(node, list):
        for item in node:
            yield from examples(item, key)


def walk(node: Any, key: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(node, dict):
        for name, value in node.items():
            yield from walk(value, name)
    elif isinstance(node, list):
        for item in node:
            yield from walk(item, key)
    else:
        yield key, node


IDS = ("game", "guest", "account", "device", "ticket")
NAMED = set(EDITIONS) | set(CARDS)  # ids that are names: editions', cards'
BY_KEY: dict[str, tuple[str, ...]] = {
    "game": ("game",),
    "player": ("guest", "account"),
    "token": ("seat token", "player token"),
    "code": ("transfer code",),
    "ticket": ("ticket",),
}


def test_the_contracts_ids_tokens_and_codes_have_the_shapes_the_service_makes() -> None:
    checked = 0
    for key, value in examples(openapi.spec_dict()):
        if not isinstance(value, str):
            continue
        if key in BY_KEY:
            text = value.split("#")[0] if key == "game" else value  # `<game>#<n>`: its n-th game
            assert fits(text, *BY_KEY[key]), (key, value)
            checked += 1
        elif key == "id" and value not in NAMED:  # a game's, a player's, a device's, a
            # quick-play entry's (the shape of a transfer code), an inbox or chat entry's
            assert ENTRY_ID.fullmatch(value) or fits(value, *IDS, "transfer code"), value
            checked += 1
        elif key == "url" and "/games/" in value:
            assert fits(value.split("/games/")[1].split("/")[0], "game"), value
            checked += 1
    assert checked >= 20
