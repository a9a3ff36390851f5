"""What jobs and the API share: the game repository, the job queue and the settings."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from rq import Queue

from events.connection import RedisClient, connect
from events.games import GameRepository
from workers import QUEUE_NAME


@dataclass(frozen=True)
class Settings:
    """Worker settings, from LOVELETTER_* environment variables."""

    namespace: str = "ll"
    queue: str = QUEUE_NAME
    webhook_allow_private: bool = False
    webhook_retries: tuple[int, ...] = (5, 30, 120, 600, 3600)  # seconds between attempts
    webhook_timeout: float = 5.0
    bot_budget_ms: float = 150.0  # the search bot's time per decision

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> Settings:
        """Settings from the environment (defaults where unset)."""
        retries = env.get("LOVELETTER_WEBHOOK_RETRIES")
        allow_private = env.get("LOVELETTER_WEBHOOK_ALLOW_PRIVATE", "") in ("1", "true")
        return cls(
            namespace=env.get("LOVELETTER_NAMESPACE", "ll"),
            queue=env.get("LOVELETTER_QUEUE", QUEUE_NAME),
            webhook_allow_private=allow_private,
            webhook_retries=tuple(map(int, retries.split(","))) if retries else cls.webhook_retries,
            webhook_timeout=float(env.get("LOVELETTER_WEBHOOK_TIMEOUT", cls.webhook_timeout)),
            bot_budget_ms=float(env.get("LOVELETTER_BOT_BUDGET_MS", cls.bot_budget_ms)),
        )


@dataclass
class Context:
    """The repository and queue a command path needs."""

    games: GameRepository
    queue: Queue
    settings: Settings = field(default_factory=Settings)

    @classmethod
    def on(
        cls, client: RedisClient, settings: Settings, queue_client: RedisClient | None = None
    ) -> Context:
        """A context on one Redis; RQ needs a plain (non-cluster) one, given apart if need be."""
        games = GameRepository.on(client, settings.namespace)
        queue = Queue(settings.queue, connection=queue_client or client)  # type: ignore[arg-type]
        return cls(games, queue, settings)


_current: Context | None = None


def current() -> Context:
    """This process's context (built once from the environment)."""
    global _current
    if _current is None:
        queue_url = os.environ.get("LOVELETTER_QUEUE_URL")
        queue_client = connect(queue_url) if queue_url else None
        _current = Context.on(connect(), Settings.from_env(), queue_client)
    return _current
