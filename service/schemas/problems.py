"""Every problem the service answers, by the slug that ends its `type` (a refusal of the rules
also carries it as `code`), with what it means. The OpenAPI document lists them on the Problem
schema (`x-slugs`), so a client can have a message for each in its own language, as the web
client does (`service/web/i18n/`); a test checks that every slug the code raises is here."""

from __future__ import annotations

from types import MappingProxyType

# The request itself, and the HTTP layer.
REQUEST_SLUGS = {
    "bad-request": "the request can't be read",
    "malformed-json": "the body is not well-formed JSON (or names a key twice)",
    "validation-error": "a field is invalid (the fields are in `errors`)",
    "unauthorized": "no token, or a token this game does not know",
    "forbidden": "another seat's token",
    "not-found": "no such path",
    "method-not-allowed": "the path does not take this method",
    "not-acceptable": "no answer in a media type the request accepts",
    "conflict": "the request conflicts with the resource's state",
    "payload-too-large": "the body is larger than the service takes",
    "unsupported-media-type": "the body is not JSON",
    "rate-limited": "too many requests (see Retry-After)",
    "internal-error": "the service failed",
    "service-unavailable": "Redis is failing over or unreachable (see Retry-After)",
    "not-replicated": "the command was written but not yet replicated (send it again)",
    "busy": "the game changes too fast to answer now (see Retry-After)",
    "stale-version": "If-Match is not the game's version (`current_version` is)",
    "precondition-required": "a command without If-Match",
    "bad-if-match": "If-Match is not a game version",
    "idempotency-key-required": "a command without Idempotency-Key",
    "idempotency-key-reused": "this Idempotency-Key was used with another request",
    "idempotency-key-too-short": "a create or join key must be at least 32 characters",
    "too-many-waiters": "too many open streams and long polls from this address",
    "bad-last-event-id": "Last-Event-ID is not a version",
    "game-not-found": "no such game",
    "version-not-found": "the game has no such version",
    "game-in-progress": "the auditor sees a game only once it is over",
    "seed-not-allowed": "this service does not let a client choose a game's seed",
    "webhook-url-refused": "a webhook address that is not allowed",
    "push-endpoint-refused": "a push subscription's endpoint that is not allowed",
    "too-many-push-subscriptions": "the player holds the most push subscriptions it may",
    "push-subscription-not-found": "the player has no such push subscription",
    "invalid-token": "a bearer JWT that fails its checks (signature, exp, iss, aud, sub)",
    "transfer-code-not-found": "a transfer code unknown, spent or expired",
    "guests-only": "only a guest may do this (a player of the issuer signs in there)",
    "device-not-found": "no such device (player token) of this player",
    "identity-taken": "the JWT's own player has played: a guest can't be linked to it",
    "already-queued": "the player waits in the quick-play queue already (`entry` names it)",
    "queue-entry-not-found": "no such quick-play entry of this player",
    "queue-entry-matched": "the entry was matched: it can't be cancelled any more",
    "player-not-found": "no such player",
    "edition-not-found": "no such edition",
    "tutorial-not-found": "no such tutorial (`detail` names those there are)",
}

# The table around a game: seats, settings, starting and playing again.
TABLE_SLUGS = {
    "no-table": "no such game",
    "table-exists": "the game exists already",
    "unknown-edition": "no such edition",
    "wrong-player-count": "the edition is not played by that many players",
    "bad-players": "players need distinct, non-empty names",
    "bad-setting": "an invalid setting (turn_seconds, on_timeout)",
    "game-started": "the game has started: seats can't change",
    "game-already-started": "the game has started already",
    "game-not-started": "the game has not started",
    "game-not-over": "the game is not over",
    "game-over": "the game is over",
    "no-open-seat": "every seat is taken",
    "seat-taken": "the seat is not open to players",
    "seat-not-taken": "nobody sits at the seat",
    "seats-open": "seats are still open",
    "name-taken": "the name is taken at this table",
    "unknown-seat": "no such seat at this table (`detail` names the seats there are)",
    "move-required": "at this table a bot moves for a late seat",
    "unexpected-move": "at this table a late seat forfeits",
    "already-forfeited": "the seat has given the game up already",
    "player-seated": "the player holds a seat at this table already",
    "game-not-in-play": "only a game in play can be left to a bot",
    "player-required": "a ranked table's seats are taken by players (a player's bearer)",
    "tutorial-over": "a tutorial is played once: start a new one (POST /tutorials)",
}

# A table's chat (docs/chat.md).
CHAT_SLUGS = {
    "chat-seats-only": "only the seats of this table chat (it does not let spectators in)",
    "chat-archived": "the game was archived: its chat is read-only",
    "mute-self": "a seat can't mute itself",
}

# The rules refusing a command (also in `code`).
RULE_SLUGS = {
    "not-your-turn": "another seat must act",
    "round-over": "the round is over, the next one is not dealt yet",
    "round-in-progress": "the round is still being played",
    "no-decision-pending": "play a card: nothing else is waiting",
    "chancellor-pending": "finish the Chancellor first",
    "redraw-pending": "answer the Bishop first",
    "bad-deal": "a deal that is not the edition's cards",
    "unknown-card": "no such card in this edition",
    "card-not-in-hand": "the seat does not hold that card",
    "countess-required": "the Countess must be played beside the card the seat holds",
    "illegal-choice": "these choices are not legal for this card now",
    "chancellor-cards-mismatch": "keep one card and put exactly the others under the deck",
    "duplicate-target": "the same player chosen twice",
    "sycophant-target-required": "the Sycophant's player must be chosen",
    "unknown-target": "no such player in this game",
    "target-self": "the card must choose another player",
    "target-eliminated": "the player is out of the round",
    "target-protected": "the player is protected by the Handmaid",
    "target-required": "the card must choose a player",
    "wrong-target-count": "the card chooses another number of players",
    "unexpected-choice": "the card makes no such choice",
    "guess-required": "the card must name a card or a number",
    "guess-guard": "the Guard (or its number, 1) can't be named",
    "guess-invalid": "the card names a card (or number) of this edition",
    "look-required": "the Cardinal must look at one of the two players",
    "look-invalid": "the Cardinal looks at one of the two chosen players",
}

PROBLEM_SLUGS = MappingProxyType({**REQUEST_SLUGS, **TABLE_SLUGS, **CHAT_SLUGS, **RULE_SLUGS})
