"""Players named by the operator's backend: the player of each identity (a JWT's issuer and
subject), its id keyed with a server secret, and a guest linked to an identity.

A player's id can't be computed from its `sub`: it is `x` + HMAC-SHA256(secret, iss NUL sub),
the secret being LOVELETTER_PLAYER_ID_SECRET or one made once and kept in Redis. The identity
names its player through a key of its own (events/identities.py), so the secret matters only
when a player is made, and an identity may be moved to a guest who links it. See
docs/players.md.
"""

from __future__ import annotations

import hashlib
import hmac
import time

from events.identities import identity_digest
from events.players import Player
from play.context import Context

PLAYER_ID_SECRET = "player-ids"  # the name of the kept secret, when the operator sets none
ATTEMPTS = 5  # another link of the same identity may land first: decide again


class UnknownGuest(Exception):
    """The guest token is unknown or was revoked."""


class NotAGuest(Exception):
    """The token's player is no guest (it signs in through the issuer already)."""


class IdentityTaken(Exception):
    """The identity's own player has played: its games can't be given to a guest."""


class LinkBusy(Exception):
    """The identity kept changing under the link."""


def keyed_player_id(ctx: Context, issuer: str, subject: str) -> str:
    """The id of a new player of this identity: nobody without the server's secret can make it."""
    secret = ctx.settings.player_id_secret or ctx.identities.secret(PLAYER_ID_SECRET)
    message = f"{issuer}\0{subject}".encode()
    return "x" + hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()[:24]


def unkeyed_player_id(issuer: str, subject: str) -> str:
    """The id such a player had before ids were keyed (anyone could compute it)."""
    return "x" + hashlib.sha256(f"{issuer}\0{subject}".encode()).hexdigest()[:24]


def external_player(ctx: Context, issuer: str, subject: str, name: str) -> str:
    """The id of the player an identity of the issuer is, made at first sight."""
    digest = identity_digest(issuer, subject)
    found = _known(ctx, issuer, subject, digest)
    if found is not None:
        return found
    player_id = keyed_player_id(ctx, issuer, subject)
    ctx.players.create(Player(player_id, name, "external", time.time()))
    return ctx.identities.claim(digest, player_id)


def _known(ctx: Context, issuer: str, subject: str, digest: str) -> str | None:
    """The identity's player if it has one: found by its key, or a player first seen before ids
    were keyed, whose games name its old id (kept: the identity is pointed at it)."""
    found = ctx.identities.player(digest)
    if found is not None:
        return found
    old = ctx.players.get(unkeyed_player_id(issuer, subject))
    if old is None or old.kind != "external":
        return None
    return ctx.identities.claim(digest, old.id)


def link_guest(ctx: Context, issuer: str, subject: str, guest_id: str) -> tuple[Player, int]:
    """Make the guest the identity's player: it keeps its id, games, ratings and record, and
    from now on signs in through the issuer (it is `external`; its player tokens are revoked).
    The identity's own player, if it never sat at a table, is forgotten. The player, and how
    many tokens were revoked."""
    digest = identity_digest(issuer, subject)
    for _ in range(ATTEMPTS):
        guest = ctx.players.get(guest_id)
        if guest is None:
            raise UnknownGuest(guest_id)
        current = _known(ctx, issuer, subject, digest)
        if current == guest.id:  # linked already (by a request that raced this one)
            return guest, ctx.devices.revoke_all(guest.id)
        if guest.kind != "guest":
            raise NotAGuest(guest.id)
        if current is not None and ctx.players.games(current, 1):
            raise IdentityTaken(current)
        if ctx.identities.move(digest, current, guest.id):
            break
    else:
        raise LinkBusy(digest)
    ctx.players.set_kind(guest.id, "external")
    revoked = ctx.devices.revoke_all(guest.id)
    if current is not None:
        ctx.devices.revoke_all(current)
        ctx.players.forget(current)
    linked = ctx.players.get(guest.id)
    assert linked is not None
    return linked, revoked
