"""What views use: the app's settings, its Redis client and the use cases' context."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Flask, current_app

from events.connection import RedisClient
from play.context import Context
from play.settings import Settings

EXTENSION = "loveletter"


@dataclass(frozen=True)
class Services:
    """The app's shared objects, built once by create_app."""

    settings: Settings
    redis: RedisClient
    context: Context  # the games, the head cache and the job queue of the use cases


def services(app: Flask | None = None) -> Services:
    """The Services of `app` (default: the current app)."""
    found: Services = (app or current_app).extensions[EXTENSION]
    return found


def context() -> Context:
    """The current app's context for the use cases."""
    return services().context
