"""What views use: the app's Redis client, event store, lobby index, limiter and settings."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Flask, current_app

from events.connection import RedisClient
from events.index import GameIndex
from events.store import EventStore
from service.config import Settings
from service.ratelimit import RateLimiter
from workers.context import Context

EXTENSION = "loveletter"


@dataclass(frozen=True)
class Services:
    """The app's shared objects, built once by create_app."""

    settings: Settings
    redis: RedisClient
    store: EventStore
    index: GameIndex
    limiter: RateLimiter
    context: Context  # the command path: game repository and job queue


def services(app: Flask | None = None) -> Services:
    """The Services of `app` (default: the current app)."""
    found: Services = (app or current_app).extensions[EXTENSION]
    return found
