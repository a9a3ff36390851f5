"""Players: guests and players of a trusted issuer, their tokens on several devices, their games.

A player token acts for every seat its player holds. Tokens and transfer codes are random; only
their SHA-256 is stored (events/players.py). See docs/players.md.
"""

from __future__ import annotations

import math
import secrets
import time
from dataclasses import dataclass
from typing import Any

from events.games import LoadedGame
from events.players import Player
from events.store import iso_time
from game.table import AbandonSeat, Asked, Asker, Table, waiting_on
from play.context import Context
from play.identities import NotAGuest
from play.lobby import send_to_table
from play.send_command import Sent

TOKEN_PREFIX = "plr_"  # player tokens are told from seat tokens by it
TRANSFER = "transfer"  # the kind of a transfer code's key
INBOX_TICKET = "inbox-ticket"


def new_player_token() -> str:
    """A fresh player token (shown once)."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def new_guest_id() -> str:
    """A fresh guest's id."""
    return secrets.token_hex(10)


def new_transfer_code() -> str:
    """A fresh transfer code (16 URL-safe characters)."""
    return secrets.token_urlsafe(12)


def new_guest(ctx: Context, name: str) -> tuple[Player, str]:
    """A new guest player and its token; both are forgotten after a while (a day by default)
    unless the guest takes a seat (at a table, or by quick play) first."""
    player = Player(new_guest_id(), name, "guest", time.time())
    token = new_player_token()
    ctx.players.create(player, token, unseated_seconds=ctx.settings.unseated_guest_seconds)
    return player, token


def transfer_code(ctx: Context, player: Player) -> tuple[str, int]:
    """A one-time code that gives a guest a token on another device, and its lifetime.
    NotAGuest for a player of the issuer: a token of ours would outlive its sign-in there."""
    if player.kind != "guest":
        raise NotAGuest(player.id)
    code = new_transfer_code()
    seconds = ctx.settings.transfer_code_seconds
    ctx.players.issue(TRANSFER, code, player.id, seconds)
    return code, seconds


def redeem_transfer_code(ctx: Context, code: str) -> tuple[Player, str] | None:
    """A new token for the code's player (the code is spent); None for an unknown or spent code.
    The player's other tokens stay valid. NotAGuest when the player was linked to the issuer's
    identity since (it signs in there)."""
    player_id = ctx.players.redeem(TRANSFER, code)
    player = None if player_id is None else ctx.players.get(player_id)
    if player is None:
        return None
    if player.kind != "guest":
        raise NotAGuest(player.id)
    token = new_player_token()
    ctx.players.add_token(player.id, token)
    return player, token


def abandon(ctx: Context, game_id: str, seat: int, by: Asker, meta: dict[str, Any]) -> Sent:
    """Leave a game in play: a bot plays the seat from now on (if `by` holds it then)."""
    return send_to_table(ctx, game_id, Asked(by, AbandonSeat(seat)), meta)


@dataclass(frozen=True)
class MyGame:
    """One of a player's games as "my games" lists it."""

    game_id: str
    game: LoadedGame
    seat: int | None  # the seat the player holds (None once they left it)
    left: bool

    @property
    def table(self) -> Table:
        """The game's table."""
        assert self.game.table is not None
        return self.game.table

    @property
    def to_play(self) -> int | None:
        """The seat that must act now, if any."""
        waiting = waiting_on(self.table)
        return None if waiting is None else waiting.seat

    @property
    def my_turn(self) -> bool:
        """Whether the player must act now."""
        return self.seat is not None and self.to_play == self.seat

    def json(self) -> dict[str, Any]:
        """What the API answers for it."""
        table, at = self.table, self.game.at
        deadline = None
        waiting = waiting_on(table)
        if waiting is not None and waiting.bot is None and waiting.turn_seconds and at:
            deadline = iso_time(math.ceil(at / 1000 + waiting.turn_seconds) * 1000)
        return {
            "id": self.game_id,
            "edition": table.edition,
            "status": table.status,
            "version": self.game.version,
            "seats": [
                {"seat": index, "name": seat.name, "bot": seat.bot, "open": seat.open}
                for index, seat in enumerate(table.seats)
            ],
            "my_seat": self.seat,
            "left": self.left,
            "to_play": self.to_play,
            "my_turn": self.my_turn,
            "deadline": deadline,
            "last_move_at": None if at is None else iso_time(at),
        }


@dataclass(frozen=True)
class MyGamesPage:
    """A page of "my games": the games, how many the filter holds, how many games were loaded."""

    games: list[MyGame]
    total: int
    loaded: int


def my_games(
    ctx: Context, player_id: str, status: str | None = None, *, offset: int = 0, limit: int = 50
) -> MyGamesPage:
    """One page of the player's games (of a status), the ones waiting on the player first, then
    the most recently moved, read from the player's index (events/mygames.py): only the page's
    games are loaded, whatever the player's count of games."""
    page = ctx.my_games.page(player_id, status, offset, limit)
    found = []
    for game_id in page.game_ids:
        table = (game := ctx.heads.load(game_id)).table
        if table is not None:
            seat = table.seat_of_player(player_id)
            left = seat is None and any(s.left_by == player_id for s in table.seats)
            found.append(MyGame(game_id, game, seat, left))
    return MyGamesPage(found, page.total, len(page.game_ids))
