"""Everything configurable, read once from the environment (or a mapping with the same names).

| name | default | meaning |
|---|---|---|
| `REDIS_URL` | embedded server | the Redis to use (see `events.connection.redis_url`) |
| `LOVELETTER_NAMESPACE` | `ll` | prefix of every Redis key the service writes |
| `LOVELETTER_QUEUE` | `loveletter` | the RQ queue of bot and deadline jobs |
| `LOVELETTER_WEBHOOK_QUEUE` | `<queue>-webhooks` | the RQ queue of webhook deliveries |
| `LOVELETTER_QUEUE_URL` | `REDIS_URL` | a plain Redis for RQ jobs when the store is a cluster |
| `LOVELETTER_CORS_ORIGINS` | empty (CORS off) | comma-separated browser origins, or `*` |
| `LOVELETTER_RATE_LIMIT_ADDRESS` | `600/minute` | requests per client address to a limited call |
| `LOVELETTER_RATE_LIMIT_SEAT` | `120/minute` | requests per seat to a limited call |
| `LOVELETTER_RATE_LIMIT_READS` | `1200/minute` | views, feeds, replays, streams per address |
| `LOVELETTER_CHAT_RATE` | `5/10s` | chat messages per poster (a seat, or a spectating player) |
| `LOVELETTER_CHAT_LENGTH` | `1000` | messages a game's chat keeps (about: trimmed by Redis) |
| `LOVELETTER_WAITERS_PER_ADDRESS` | `100` | open streams (inboxes too) and long polls per address |
| `LOVELETTER_GUESTS_PER_HOUR` | `30` | guest players made per address per hour (`off`) |
| `LOVELETTER_UNSEATED_GUEST_SECONDS` | `86400` | a guest never seated is forgotten after it |
| `LOVELETTER_BOT_TABLES` | `20/hour` | tables with `search`/`hard` bots per address, player |
| `LOVELETTER_MAX_BODY_BYTES` | `16384` | largest accepted request body (413 above) |
| `LOVELETTER_AUDITOR_TOKEN` | unset | bearer token of the auditor (no auditor when unset) |
| `LOVELETTER_IDEMPOTENCY_TTL_SECONDS` | `604800` | how long an idempotency key is remembered |
| `LOVELETTER_TRUSTED_PROXIES` | `0` | proxies in front whose X-Forwarded-For is trusted |
| `LOVELETTER_BOT_BUDGET_MS` | `150` | the search bot's thinking time per decision |
| `LOVELETTER_WEBHOOK_ALLOW_PRIVATE` | off | allow webhooks to loopback or private addresses |
| `LOVELETTER_WEBHOOK_RETRIES` | `5,30,120,600,3600` | seconds between webhook attempts |
| `LOVELETTER_WEBHOOK_TIMEOUT` | `5` | seconds a whole webhook delivery may take |
| `LOVELETTER_VAPID_KEY_FILE` | unset (in Redis) | the Web Push key (PEM), made at first start |
| `LOVELETTER_VAPID_SUBJECT` | `mailto:push@example.invalid` | who runs the service, for pushes |
| `LOVELETTER_PUSH_INSECURE_ORIGINS` | none | http origins taken as push services (tests only) |
| `LOVELETTER_PUSH_RETRIES` | `2,10,60,300` | seconds between push attempts (or Retry-After) |
| `LOVELETTER_PUSH_TTL` | `3600` | seconds a push service keeps a push for an offline browser |
| `LOVELETTER_SEEDED_GAMES` | off | let `POST /games` choose `seed` (such tables say `seeded`) |
| `LOVELETTER_LOG_FORMAT` | `auto` | `json`, `console`, or `auto` (JSON unless on a terminal) |
| `LOVELETTER_VERBOSE` | off | gunicorn's and RQ's own INFO lines too (`serve --verbose` sets it) |
| `LOVELETTER_APPEND_REPLICAS` | `0` | replicas that must have an append before it is answered |
| `LOVELETTER_APPEND_TIMEOUT_MS` | `1000` | how long an append waits for them (at most 4000) |
| `LOVELETTER_ARCHIVE_DIR` | unset (no archive) | folder of finished games that left Redis |
| `LOVELETTER_ARCHIVE_AFTER_SECONDS` | `3600` | how long a game is over before it is archived |
| `LOVELETTER_ARCHIVE_EVERY_SECONDS` | `600` | how often a worker archives (one worker at a time) |
| `LOVELETTER_STREAM_HEARTBEAT_SECONDS` | `15` | a quiet event stream sends a comment this often |
| `LOVELETTER_STREAM_SECONDS` | `3600` | an event stream closes after this long (clients resume) |
| `LOVELETTER_STREAM_TICKET_SECONDS` | `60` | how long a stream ticket opens its seat's stream |
| `LOVELETTER_INBOX_LENGTH` | `200` | entries a player's inbox keeps (about: trimmed by Redis) |
| `LOVELETTER_LEADERBOARD_MIN_GAMES` | `5` | rated games a player needs to be on a leaderboard |
| `LOVELETTER_TRANSFER_CODE_SECONDS` | `600` | how long a player's transfer code can be redeemed |
| `LOVELETTER_JWT_SECRET` | unset | the trusted issuer's HS256 secret (players from its JWTs) |
| `LOVELETTER_JWT_JWKS_URL` | unset | or its public key set (JWKS), by URL ... |
| `LOVELETTER_JWT_JWKS_FILE` | unset | ... or in a file |
| `LOVELETTER_JWT_ISSUER` | unset | the `iss` its tokens must carry (required with a key) |
| `LOVELETTER_JWT_AUDIENCE` | unset | the `aud` its tokens must carry (required with a key) |
| `LOVELETTER_PLAYER_ID_SECRET` | made once, kept in Redis | keys the ids of the issuer's players |

A rate limit is `N/second`, `N/minute`, `N/hour`, `N/day` or `N/<seconds>s`; `off` disables it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

PREFIX = "LOVELETTER_"
QUEUE_NAME = "loveletter"
WEBHOOKS_SUFFIX = "-webhooks"  # the webhook queue's name is the job queue's and this
PERIODS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
LIMIT_PATTERN = re.compile(r"\s*(\d+)\s*/\s*(?:(\d+)\s*s|(second|minute|hour|day))\s*")
TRUE = ("1", "true", "yes", "on")


@dataclass(frozen=True)
class Limit:
    """At most `count` requests per `seconds`-long window."""

    count: int
    seconds: int


@dataclass(frozen=True)
class Settings:
    """The service's and the workers' settings, already parsed."""

    redis_url: str | None = None
    namespace: str = "ll"
    queue: str = QUEUE_NAME
    queue_url: str | None = None
    webhook_queue: str = ""  # "": the job queue's name and WEBHOOKS_SUFFIX
    cors_origins: tuple[str, ...] = ()
    rate_limit_address: Limit | None = Limit(600, 60)
    rate_limit_seat: Limit | None = Limit(120, 60)
    rate_limit_reads: Limit | None = Limit(1200, 60)  # per address, a bucket of their own
    chat_rate: Limit | None = Limit(5, 10)  # chat messages per poster
    chat_length: int = 1000
    waiters_per_address: int | None = 100  # open streams and long polls (None: no cap)
    guests_per_hour: int | None = 30  # guests made per address per hour (None: no cap)
    unseated_guest_seconds: int = 24 * 3600  # a guest never seated is forgotten after this
    bot_tables: Limit | None = Limit(20, 3600)  # tables with thinking bots, per address, player
    max_body_bytes: int = 16 * 1024
    auditor_token: str | None = None
    idempotency_ttl_seconds: int = 7 * 24 * 3600
    trusted_proxies: int = 0
    bot_budget_ms: float = 150.0
    webhook_allow_private: bool = False
    webhook_retries: tuple[int, ...] = (5, 30, 120, 600, 3600)  # seconds between attempts
    webhook_timeout: float = 5.0
    vapid_key_file: str | None = None  # None: the key is made from a secret kept in Redis
    vapid_subject: str = "mailto:push@example.invalid"
    push_insecure_origins: tuple[str, ...] = ()  # http origins taken as push services (tests)
    push_retries: tuple[int, ...] = (2, 10, 60, 300)  # seconds between attempts (or Retry-After)
    push_ttl: int = 3600
    seeded_games: bool = False  # a creator may choose the seed (and so know every deal)
    log_format: str = "auto"  # json, console, or auto (JSON unless stderr is a terminal)
    verbose: bool = False  # gunicorn's and RQ's own INFO lines too
    append_replicas: int = 0  # see events/replicas.py
    append_timeout_ms: int = 1000
    archive_dir: str | None = None
    archive_after_seconds: int = 3600  # see docs/capacity.md: finished games add up fast
    archive_every_seconds: int = 600
    stream_heartbeat_seconds: float = 15.0
    stream_seconds: float = 3600.0
    stream_ticket_seconds: int = 60
    inbox_length: int = 200
    leaderboard_min_games: int = 5
    transfer_code_seconds: int = 600
    quickplay_gone_seconds: float = 30.0  # a waiting player unseen this long is dropped
    jwt_secret: str | None = None
    jwt_jwks_url: str | None = None
    jwt_jwks_file: str | None = None
    jwt_issuer: str | None = None
    jwt_audience: str | None = None
    player_id_secret: str | None = None  # None: one made at random, kept in Redis

    def __post_init__(self) -> None:
        if not self.webhook_queue:
            object.__setattr__(self, "webhook_queue", webhook_queue(self.queue))

    @classmethod
    def load(cls, overrides: Mapping[str, Any] | None = None) -> Settings:
        """Settings from os.environ, with overrides (same names) taking precedence."""
        values: dict[str, Any] = {**os.environ, **(overrides or {})}
        default = cls()

        def get(name: str) -> Any:
            return values.get(PREFIX + name)

        retries = get("WEBHOOK_RETRIES")
        push_retries = get("PUSH_RETRIES")
        return cls(
            redis_url=values.get("REDIS_URL") or None,
            namespace=str(get("NAMESPACE") or default.namespace),
            queue=str(get("QUEUE") or default.queue),
            webhook_queue=str(get("WEBHOOK_QUEUE") or ""),
            queue_url=get("QUEUE_URL") or None,
            cors_origins=parse_origins(get("CORS_ORIGINS")),
            rate_limit_address=_limit(get("RATE_LIMIT_ADDRESS"), default.rate_limit_address),
            rate_limit_seat=_limit(get("RATE_LIMIT_SEAT"), default.rate_limit_seat),
            rate_limit_reads=_limit(get("RATE_LIMIT_READS"), default.rate_limit_reads),
            chat_rate=_limit(get("CHAT_RATE"), default.chat_rate),
            chat_length=_positive(get("CHAT_LENGTH"), default.chat_length),
            waiters_per_address=_cap(get("WAITERS_PER_ADDRESS"), default.waiters_per_address),
            guests_per_hour=_cap(get("GUESTS_PER_HOUR"), default.guests_per_hour),
            unseated_guest_seconds=_positive(
                get("UNSEATED_GUEST_SECONDS"), default.unseated_guest_seconds
            ),
            bot_tables=_limit(get("BOT_TABLES"), default.bot_tables),
            max_body_bytes=_positive(get("MAX_BODY_BYTES"), default.max_body_bytes),
            auditor_token=get("AUDITOR_TOKEN") or None,
            idempotency_ttl_seconds=_positive(
                get("IDEMPOTENCY_TTL_SECONDS"), default.idempotency_ttl_seconds
            ),
            trusted_proxies=_positive(get("TRUSTED_PROXIES"), 0, allow_zero=True),
            bot_budget_ms=float(get("BOT_BUDGET_MS") or default.bot_budget_ms),
            webhook_allow_private=str(get("WEBHOOK_ALLOW_PRIVATE") or "").lower() in TRUE,
            webhook_retries=(
                tuple(int(part) for part in str(retries).split(","))
                if retries
                else default.webhook_retries
            ),
            webhook_timeout=float(get("WEBHOOK_TIMEOUT") or default.webhook_timeout),
            vapid_key_file=get("VAPID_KEY_FILE") or None,
            vapid_subject=str(get("VAPID_SUBJECT") or default.vapid_subject),
            push_insecure_origins=parse_origins(get("PUSH_INSECURE_ORIGINS")),
            push_retries=(
                tuple(int(part) for part in str(push_retries).split(","))
                if push_retries
                else default.push_retries
            ),
            push_ttl=_positive(get("PUSH_TTL"), default.push_ttl),
            seeded_games=_switch(get("SEEDED_GAMES")),
            log_format=str(get("LOG_FORMAT") or default.log_format).lower(),
            verbose=_switch(get("VERBOSE")),
            append_replicas=_positive(get("APPEND_REPLICAS"), 0, allow_zero=True),
            append_timeout_ms=_positive(get("APPEND_TIMEOUT_MS"), default.append_timeout_ms),
            archive_dir=get("ARCHIVE_DIR") or None,
            archive_after_seconds=_positive(
                get("ARCHIVE_AFTER_SECONDS"), default.archive_after_seconds, allow_zero=True
            ),
            archive_every_seconds=_positive(
                get("ARCHIVE_EVERY_SECONDS"), default.archive_every_seconds
            ),
            stream_heartbeat_seconds=_seconds(
                get("STREAM_HEARTBEAT_SECONDS"), default.stream_heartbeat_seconds
            ),
            stream_seconds=_seconds(get("STREAM_SECONDS"), default.stream_seconds),
            stream_ticket_seconds=_positive(
                get("STREAM_TICKET_SECONDS"), default.stream_ticket_seconds
            ),
            inbox_length=_positive(get("INBOX_LENGTH"), default.inbox_length),
            leaderboard_min_games=_positive(
                get("LEADERBOARD_MIN_GAMES"), default.leaderboard_min_games, allow_zero=True
            ),
            transfer_code_seconds=_positive(
                get("TRANSFER_CODE_SECONDS"), default.transfer_code_seconds
            ),
            quickplay_gone_seconds=_seconds(
                get("QUICKPLAY_GONE_SECONDS"), default.quickplay_gone_seconds
            ),
            jwt_secret=get("JWT_SECRET") or None,
            jwt_jwks_url=get("JWT_JWKS_URL") or None,
            jwt_jwks_file=get("JWT_JWKS_FILE") or None,
            jwt_issuer=get("JWT_ISSUER") or None,
            jwt_audience=get("JWT_AUDIENCE") or None,
            player_id_secret=get("PLAYER_ID_SECRET") or None,
        )


def webhook_queue(queue: str) -> str:
    """The default name of the webhook queue beside the job queue `queue`."""
    return queue + WEBHOOKS_SUFFIX


def parse_limit(text: str | Limit | None) -> Limit | None:
    """A Limit from `N/minute` (etc.); None for `off`, `none` or `0`."""
    if text is None or isinstance(text, Limit):
        return text
    if text.strip().lower() in ("off", "none", "0", ""):
        return None
    match = LIMIT_PATTERN.fullmatch(text)
    if match is None:
        raise ValueError(f"a rate limit is N/second|minute|hour|day or N/<seconds>s: {text!r}")
    count, seconds, period = match.groups()
    window = int(seconds) if seconds else PERIODS[period]
    if window <= 0:
        raise ValueError(f"a rate limit window must be positive: {text!r}")
    return Limit(int(count), window)


def parse_origins(value: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    """Origins from a comma-separated string (or a sequence)."""
    if not value:
        return ()
    items = value.split(",") if isinstance(value, str) else value
    return tuple(item.strip() for item in items if item.strip())


def _limit(value: str | Limit | None, default: Limit | None) -> Limit | None:
    return default if value is None else parse_limit(value)


def _cap(value: Any, default: int | None) -> int | None:
    """A positive count, or None for `off`."""
    if value is None or value == "":
        return default
    if str(value).strip().lower() in ("off", "none"):
        return None
    return _positive(value, 0)


def _switch(value: Any) -> bool:
    """On for `1`, `true`, `yes` or `on` (any case); off when unset or anything else."""
    return str(value or "").strip().lower() in ("1", "true", "yes", "on")


def _seconds(value: Any, default: float) -> float:
    """A positive number of seconds (fractions allowed)."""
    if value is None or value == "":
        return default
    seconds = float(value)
    if not seconds > 0:
        raise ValueError(f"expected a positive number of seconds, got {value!r}")
    return seconds


def _positive(value: Any, default: int, *, allow_zero: bool = False) -> int:
    if value is None or value == "":
        return default
    number = int(value)
    if number < 0 or (number == 0 and not allow_zero):
        raise ValueError(f"expected a positive integer, got {value!r}")
    return number
