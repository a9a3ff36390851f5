"""Every language's pushes, through the real sending path: a player's preferences name the
language, and the push service of the tests (VAPID checked, payload decrypted with the
browser's keys) receives that language's words, with urgency and topic per notice."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from events.connection import RedisClient
from events.push_outbox import Pending
from play import push_send
from play.context import Context
from play.push import LANGUAGES, texts
from play.settings import Settings
from play.vapid import signer
from tests.push_service import PushService, running
from tests.redis_keys import delete_namespace, new_namespace


@pytest.fixture
def push_service() -> Iterator[PushService]:
    yield from running()


@pytest.fixture
def pushing(single_client: RedisClient, push_service: PushService) -> Iterator[Context]:
    name = new_namespace("push")
    settings = Settings(namespace=name, queue=name, push_insecure_origins=(push_service.origin,))
    ctx = Context.on(single_client, settings)
    push_service.public_key = signer(ctx).public_key
    yield ctx
    delete_namespace(single_client, name)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_is_pushed_in_its_own_words(
    pushing: Context, push_service: PushService, lang: str
) -> None:
    browser = push_service.browser(lang).subscription()
    keys = (browser["keys"]["p256dh"], browser["keys"]["auth"])
    pushing.push.subscribe("p1", browser["endpoint"], keys, None, None)
    pushing.push.set_preferences("p1", {"notices": {"chat": True}, "lang": lang})
    entries = [
        {"type": "your_turn", "game": "g1", "seat": 0, "version": 4},
        {"type": "game_over", "game": "g2", "seat": 1, "version": 9, "won": True},
        {"type": "chat", "game": "g3", "seat": 0, "version": 2, "text": "secret"},
    ]
    batch = [Pending("p1-g", "p1", entries)]
    assert push_send.deliver_batch(pushing, batch) == {"p1-g": {"sent": 3}}
    words = texts()[lang]
    turn, over, chat = push_service.of(lang)
    title, body = words["your_turn.title"], words["your_turn.body"]
    assert turn.payload == {"type": "your_turn", "game": "g1", "title": title, "body": body,
                            "url": "/#/games/g1", "lang": lang}  # fmt: skip
    assert over.payload["body"] == words["game_over.body_won"]
    assert chat.payload["body"] == words["chat.body"] and "secret" not in str(chat.payload)
    assert (turn.urgency, over.urgency, chat.urgency) == ("high", "normal", "low")
    assert len({turn.topic, over.topic, chat.topic}) == 3 and not push_service.refused
