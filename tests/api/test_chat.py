"""A table's chat through real gunicorn on real Redis: seats post presets and free text, read
it back, in the stream (events `chat`, no id) and, when away, in their inbox; bad bodies are
refused with nothing posted; the rate limit; mutes; the game's version never moves; a left
seat's token reads and posts nothing; spectators only where the table lets them."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unicodedata import normalize

import pytest
import requests
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.audit import verify_lines
from events.chat import ChatMessage, MovedOn
from events.connection import RedisClient
from events.players import PlayerStore
from events.redis_server import free_port
from play import chat
from play.archive import archive_finished
from play.chat import PRESETS, TEXT_MAX
from service.auth import token_hash
from service.cli import main
from service.deps import services
from service.serve import Child, gunicorn_command
from tests.api.conftest import api_env, wait_healthy
from tests.api.players import new_game, two_humans
from tests.api.test_fair_deals import finish
from tests.redis_keys import delete_namespace, delete_queue, new_namespace
from tests.sse import EventStream, Message

PROBLEM = "application/problem+json"


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def post(base: str, game: str, token: str | None, body: Any) -> requests.Response:
    return requests.post(f"{base}/games/{game}/chat", json=body, headers=bearer(token), timeout=10)


def messages(base: str, game: str, token: str | None, after: str = "0-0") -> list[dict[str, Any]]:
    answer = requests.get(f"{base}/games/{game}/chat?after={after}", headers=bearer(token),
                          timeout=10)  # fmt: skip
    assert answer.status_code == 200, answer.text
    found: list[dict[str, Any]] = answer.json()["messages"]
    return found


def version(base: str, game: str) -> int:
    answer = requests.get(f"{base}/games/{game}", timeout=10)
    return int(answer.headers["ETag"].strip('"'))


def chat_events(stream: EventStream, count: int) -> list[Message]:
    """The next `count` chat events of a stream (game events and heartbeats skipped)."""
    found = []
    while len(found) < count:
        message = stream.next()
        assert message is not None, "the stream ended"
        if message.event == "chat":
            found.append(message)
    return found


@pytest.fixture(scope="module")
def module_apis(redis_url: str, redis_client: RedisClient) -> Iterator[Callable[..., str]]:
    """API processes shared by this module's tests, each on a namespace of its own."""
    started: dict[tuple[tuple[str, str], ...], tuple[str, str, Child]] = {}
    namespaces: dict[str, str] = {}

    def start(**settings: str) -> str:
        key = tuple(sorted(settings.items()))
        if key not in started:
            namespace = new_namespace("api")
            port = free_port()
            command = gunicorn_command("service.wsgi:app", "127.0.0.1", port, 1, 8)
            child = Child("api", command, api_env(redis_url, namespace, **settings), quiet=True)
            base = f"http://127.0.0.1:{port}"
            started[key] = (base, namespace, child)
            wait_healthy(base, child)
            namespaces[base] = namespace
        return started[key][0]

    start.namespaces = namespaces  # type: ignore[attr-defined]
    yield start
    for _, namespace, child in started.values():
        child.stop()
        delete_namespace(redis_client, namespace)
        delete_queue(redis_client, namespace)


@pytest.fixture
def api(module_apis: Callable[..., str]) -> str:
    """An API process with the default chat limits."""
    return module_apis()


def test_seats_chat_in_presets_and_text_and_the_game_does_not_move(api: str) -> None:
    game, tokens = two_humans(api, "classic")
    before = version(api, game)
    feed = requests.get(f"{api}/games/{game}/events", timeout=10).json()
    hello = post(api, game, tokens[0], {"preset": "hello"})
    assert hello.status_code == 201, hello.text
    text = post(api, game, tokens[1], {"text": "こんにちは, ann! ¿Qué tal? 🙂"})
    assert text.status_code == 201, text.text
    shown = messages(api, game, tokens[1])
    assert [(m["seat"], m["name"], m["preset"], m["text"]) for m in shown] == [
        (0, "ann", "hello", None),
        (1, "bob", None, "こんにちは, ann! ¿Qué tal? 🙂"),
    ]
    assert shown == messages(api, game, tokens[0])
    assert "player" not in shown[0]  # a player's id is for moderation only
    assert messages(api, game, tokens[0], after=shown[0]["id"]) == shown[1:]
    assert version(api, game) == before
    assert requests.get(f"{api}/games/{game}/events", timeout=10).json() == feed


def test_spectators_read_and_post_only_where_the_table_lets_them(api: str) -> None:
    game, tokens = two_humans(api, "classic")
    assert post(api, game, tokens[0], {"preset": "good_luck"}).status_code == 201
    looked = requests.get(f"{api}/games/{game}/chat", timeout=10)
    assert looked.status_code == 403 and looked.headers["Content-Type"] == PROBLEM
    assert looked.json()["type"].endswith("/chat-seats-only")
    guest = requests.post(f"{api}/players", json={"name": "cat"}, timeout=10).json()["token"]
    refused = post(api, game, guest, {"preset": "wow"})
    assert refused.status_code == 403 and refused.json()["type"].endswith("/chat-seats-only")

    open_game, open_tokens = two_humans(api, "classic", spectator_chat=True)
    assert requests.get(f"{api}/games/{open_game}", timeout=10).json()["game"]["spectator_chat"]
    anonymous = post(api, open_game, None, {"preset": "wow"})
    assert anonymous.status_code == 401 and anonymous.headers["Content-Type"] == PROBLEM
    cat = post(api, open_game, guest, {"preset": "wow"})
    assert cat.status_code == 201, cat.text
    assert (cat.json()["seat"], cat.json()["name"]) == (None, "cat")
    assert [m["name"] for m in messages(api, open_game, None)] == ["cat"]
    muted = requests.put(f"{api}/games/{open_game}/chat/mutes/spectators",
                         headers=bearer(open_tokens[0]), timeout=10)  # fmt: skip
    assert muted.status_code == 204
    assert messages(api, open_game, open_tokens[0]) == []
    assert len(messages(api, open_game, open_tokens[1])) == 1


BAD_BODIES = [
    {},
    {"preset": "hello", "text": "hi"},
    {"preset": "HELLO"},
    {"preset": None},
    {"text": ""},
    {"text": "x" * (TEXT_MAX + 1)},
    {"text": " hi"},
    {"text": "hi\nthere"},
    {"text": "tab\there"},
    {"text": "<script>alert(1)</script>"},
    {"text": "a > b"},
    {"text": "\u202eevil"},  # a bidirectional override
    {"text": "zero\u200bwidth"},
    {"text": "nul\x00"},
    {"text": 42},
    {"text": ["hi"]},
    {"preset": "hello", "extra": 1},
    ["hello"],
    "hello",
]


@pytest.mark.parametrize("body", BAD_BODIES, ids=[repr(b)[:30] for b in BAD_BODIES])
def test_bad_messages_are_refused_and_nothing_is_posted(api: str, body: Any) -> None:
    game, tokens = two_humans(api, "classic")
    refused = post(api, game, tokens[0], body)
    assert refused.status_code in (400, 422), refused.text
    assert refused.headers["Content-Type"] == PROBLEM
    assert messages(api, game, tokens[0]) == []


def test_a_body_that_is_not_json_is_refused(api: str) -> None:
    game, tokens = two_humans(api, "classic")
    sent = requests.post(f"{api}/games/{game}/chat", data=b"{\"preset\": ",
                         headers={**bearer(tokens[0]), "Content-Type": "application/json"},
                         timeout=10)  # fmt: skip
    assert sent.status_code == 400 and sent.headers["Content-Type"] == PROBLEM
    assert messages(api, game, tokens[0]) == []


def test_a_seat_posts_five_messages_per_ten_seconds(api: str) -> None:
    game, tokens = two_humans(api, "classic")
    for _ in range(5):
        assert post(api, game, tokens[0], {"preset": "thinking"}).status_code == 201
    refused = post(api, game, tokens[0], {"text": "one more"})
    assert refused.status_code == 429 and refused.headers["Content-Type"] == PROBLEM
    assert refused.json()["type"].endswith("/rate-limited")
    assert 1 <= int(refused.headers["Retry-After"]) <= 10
    assert post(api, game, tokens[1], {"preset": "oops"}).status_code == 201  # per seat
    assert [m["seat"] for m in messages(api, game, tokens[1])] == [0] * 5 + [1]


def test_a_muted_seat_is_not_heard_by_who_muted_it(api: str) -> None:
    game, tokens = two_humans(api, "classic")
    mutes = f"{api}/games/{game}/chat/mutes"
    assert requests.put(f"{mutes}/1", headers=bearer(tokens[0]), timeout=10).status_code == 204
    assert requests.get(mutes, headers=bearer(tokens[0]), timeout=10).json() == {"muted": ["1"]}
    itself = requests.put(f"{mutes}/0", headers=bearer(tokens[0]), timeout=10)
    assert itself.status_code == 422 and itself.json()["type"].endswith("/mute-self")
    nobody = requests.put(f"{mutes}/7", headers=bearer(tokens[0]), timeout=10)
    assert nobody.status_code == 422 and nobody.json()["type"].endswith("/unknown-seat")
    assert requests.put(f"{mutes}/1", timeout=10).status_code == 403  # a spectator: no chat

    with EventStream(api, f"/games/{game}/stream", bearer(tokens[0])) as stream:
        assert post(api, game, tokens[1], {"text": "can you hear me"}).status_code == 201
        assert post(api, game, tokens[0], {"text": "talking to myself"}).status_code == 201
        (heard,) = chat_events(stream, 1)
        assert heard.data["text"] == "talking to myself" and heard.id is None
    assert [m["text"] for m in messages(api, game, tokens[0])] == ["talking to myself"]
    assert len(messages(api, game, tokens[1])) == 2  # only for the one who muted

    assert requests.delete(f"{mutes}/1", headers=bearer(tokens[0]), timeout=10).status_code == 204
    assert len(messages(api, game, tokens[0])) == 2


def test_the_stream_sends_chat_without_ids_so_game_events_resume_as_before(api: str) -> None:
    game, tokens = two_humans(api, "classic")
    early = post(api, game, tokens[1], {"preset": "hello"}).json()
    head = version(api, game)
    with EventStream(api, f"/games/{game}/stream?after={head}", bearer(tokens[0])) as stream:
        posted = post(api, game, tokens[1], {"preset": "good_luck"}).json()
        (message,) = chat_events(stream, 1)
        assert message.id is None and message.event == "chat"
        assert message.data == posted  # from now on: the earlier one is not sent again
    path = f"/games/{game}/stream?after={head}&chat_after=0-0"
    with EventStream(api, path, bearer(tokens[0])) as stream:
        assert [m.data for m in chat_events(stream, 2)] == [early, posted]
    path = f"/games/{game}/stream?after={head}&chat_after={early['id']}"
    with EventStream(api, path, bearer(tokens[0])) as stream:
        assert [m.data for m in chat_events(stream, 1)] == [posted]
    assert version(api, game) == head


def test_a_left_seats_token_reads_and_posts_nothing(api: str) -> None:
    body = {"edition": "classic", "seats": ["human", "human", "human"], "name": "ann"}
    created = requests.post(f"{api}/games", json=body, timeout=10).json()
    game, ann = created["game"]["id"], created["token"]
    bob = requests.post(f"{api}/games/{game}/seats", json={"name": "bob"}, timeout=10).json()
    assert post(api, game, bob["token"], {"preset": "hello"}).status_code == 201
    ticket = requests.post(f"{api}/games/{game}/stream-tickets", headers=bearer(bob["token"]),
                           timeout=10).json()["ticket"]  # fmt: skip
    with EventStream(api, f"/games/{game}/stream", bearer(bob["token"])) as stream:
        left = requests.delete(f"{api}/games/{game}/seats/{bob['seat']}",
                               headers=bearer(bob["token"]), timeout=10)  # fmt: skip
        assert left.status_code in (200, 204), left.text
        assert post(api, game, ann, {"text": "bob left"}).status_code == 201
        while (message := stream.next()) is not None:
            assert message.event != "chat", message  # closed before any chat after leaving
    for answer in (
        requests.get(f"{api}/games/{game}/chat", headers=bearer(bob["token"]), timeout=10),
        post(api, game, bob["token"], {"preset": "sorry"}),
        requests.put(f"{api}/games/{game}/chat/mutes/0", headers=bearer(bob["token"]), timeout=10),
    ):
        assert answer.status_code == 401, answer.text
        assert answer.headers["Content-Type"] == PROBLEM
    assert requests.get(f"{api}/games/{game}/stream?ticket={ticket}", timeout=10).status_code == 401
    assert [m["text"] for m in messages(api, game, ann)] == [None, "bob left"]


def test_players_away_are_told_in_their_inbox_unless_they_muted_the_poster(
    api: str, redis_client: RedisClient, module_apis: Any
) -> None:
    namespace = module_apis.namespaces[api]
    ann, bob = (
        requests.post(f"{api}/players", json={"name": name}, timeout=10).json()["token"]
        for name in ("ann", "bob")
    )
    body = {"edition": "classic", "seats": ["human", "human"]}
    created = requests.post(f"{api}/games", json=body, headers=bearer(ann), timeout=10).json()
    game = created["game"]["id"]
    joined = requests.post(f"{api}/games/{game}/seats", json={"name": "bob"}, headers=bearer(bob),
                           timeout=10)  # fmt: skip
    assert joined.status_code == 201
    bob_id = requests.get(f"{api}/players/me", headers=bearer(bob), timeout=10).json()["id"]
    players = PlayerStore(redis_client, namespace=namespace)

    def chats() -> list[dict[str, Any]]:
        return [e.data for e in players.inbox(bob_id) if e.data["type"] == "chat"]

    redis_client.set(f"{namespace}:here:{bob_id}", 1, ex=60)  # bob is here: not told
    assert post(api, game, ann, {"preset": "your_turn"}).status_code == 201
    assert chats() == []
    redis_client.delete(f"{namespace}:here:{bob_id}")  # bob is away
    said = post(api, game, ann, {"text": "are you there?"}).json()
    (entry,) = chats()
    assert entry == {"type": "chat", "game": game, "version": version(api, game), "seat": 1,
                     "appended_at_ms": entry["appended_at_ms"], "message": said["id"],
                     "from_seat": 0, "name": "ann", "text": "are you there?"}  # fmt: skip
    muted = requests.put(f"{api}/games/{game}/chat/mutes/0", headers=bearer(bob), timeout=10)
    assert muted.status_code == 204
    redis_client.delete(f"{namespace}:here:{bob_id}")
    assert post(api, game, ann, {"preset": "wow"}).status_code == 201
    assert len(chats()) == 1


@pytest.fixture
def unlimited_api(module_apis: Callable[..., str]) -> str:
    """An API process whose chat and seats have no rate limit (for many posts in a row)."""
    return module_apis(LOVELETTER_CHAT_RATE="off", LOVELETTER_RATE_LIMIT_SEAT="off")


BODY = st.one_of(
    st.dictionaries(
        st.sampled_from(["preset", "text", "other"]),
        st.one_of(
            st.sampled_from(PRESETS),
            st.text(max_size=TEXT_MAX + 20),
            st.integers(),
            st.none(),
            st.booleans(),
            st.lists(st.text(max_size=3), max_size=2),
        ),
        max_size=3,
    ),
    st.lists(st.integers(), max_size=2),
    st.text(max_size=5),
)


def test_any_body_is_posted_whole_or_refused_with_nothing_posted(unlimited_api: str) -> None:
    game, tokens = two_humans(unlimited_api, "classic")
    start = version(unlimited_api, game)
    seen: list[dict[str, Any]] = []

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(BODY)
    def check(body: Any) -> None:
        sent = post(unlimited_api, game, tokens[0], body)
        assert sent.status_code in (201, 400, 422), sent.text
        if sent.status_code == 201:
            assert set(body) in ({"preset"}, {"text"})
            key = next(iter(body))
            assert sent.json()[key] == (normalize("NFC", body[key]) if key == "text" else body[key])
            seen.append(sent.json())
        else:
            assert sent.headers["Content-Type"] == PROBLEM
        assert (
            messages(unlimited_api, game, tokens[1], after=seen[-1]["id"] if seen else "0-0") == []
        )

    check()
    assert messages(unlimited_api, game, tokens[1]) == seen
    assert version(unlimited_api, game) == start


def test_the_chat_is_archived_exported_and_brought_back_with_its_game(
    make_app: Callable[..., Flask],
    redis_client: RedisClient,
    namespace: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    folder = tmp_path / "archive"
    app = make_app({"LOVELETTER_ARCHIVE_DIR": str(folder), "LOVELETTER_AUDITOR_TOKEN": "audit"})
    client = app.test_client()
    ctx = services(app).context
    game, players = new_game(client, "classic", ["human", "human"])
    ann, bob = (bearer(player.token) for player in players)
    assert (
        client.post(f"/games/{game}/chat", json={"preset": "good_luck"}, headers=ann).status_code
        == 201
    )
    assert client.put(f"/games/{game}/chat/mutes/0", headers=bob).status_code == 204
    finish(players)
    said = client.post(f"/games/{game}/chat", json={"preset": "good_game"}, headers=bob)
    assert said.status_code == 201
    readers = {"ann": ann, "bob": bob, "auditor": {"Authorization": "Bearer audit"}}
    before = {who: client.get(f"/games/{game}/chat", headers=h).json for who, h in readers.items()}
    assert [m["preset"] for m in before["bob"]["messages"]] == ["good_game"]  # ann muted
    assert before["auditor"]["messages"][0]["player"] is None  # seat tokens: no player

    # A message posted while the game is being archived keeps it in Redis until the next run.
    archive = ctx.games.archive
    assert archive is not None
    put = archive.put

    def put_while_posting(game_id: str, lines: Any) -> None:
        monkeypatch.setattr(archive, "put", put)
        ctx.games.chat.post(game_id, ChatMessage("", 1, None, "bob", "thanks"))
        put(game_id, lines)

    monkeypatch.setattr(archive, "put", put_while_posting)
    assert archive_finished(ctx, now=time.time() + 1, older_than=0).kept["changed"] == 1
    assert ctx.games.store.exists(game)
    assert archive_finished(ctx, now=time.time() + 1, older_than=0).archived == 1
    assert not list(redis_client.scan_iter(match=f"{namespace}:{{{game}}}:*"))

    after = {who: client.get(f"/games/{game}/chat", headers=h).json for who, h in readers.items()}
    for who in before:
        assert after[who]["messages"][: len(before[who]["messages"])] == before[who]["messages"]
    assert [m["preset"] for m in after["ann"]["messages"]] == ["good_luck", "good_game", "thanks"]
    assert [m["preset"] for m in after["bob"]["messages"]] == ["good_game", "thanks"]  # still muted
    refused = client.post(f"/games/{game}/chat", json={"preset": "wow"}, headers=ann)
    assert refused.status_code == 409 and refused.json["type"].endswith("/chat-archived")
    assert client.put(f"/games/{game}/chat/mutes/1", headers=ann).status_code == 409

    for name, value in {"REDIS_URL": app.config["REDIS_URL"], "LOVELETTER_NAMESPACE": namespace,
                        "LOVELETTER_ARCHIVE_DIR": str(folder)}.items():  # fmt: skip
        monkeypatch.setenv(name, value)
    exported = tmp_path / "chat.jsonl"
    assert main(["export", "--chat", game, "-o", str(exported)]) == 0
    lines = exported.read_text().splitlines()
    assert [json.loads(line).get("preset") for line in lines[:3]] == [
        "good_luck",
        "good_game",
        "thanks",
    ]
    assert json.loads(lines[3]) == {
        "holder": f"token:{token_hash(players[1].token or '')}",
        "muted": ["0"],
    }
    events = tmp_path / "game.jsonl"
    assert main(["export", game, "-o", str(events)]) == 0
    assert verify_lines(events.read_text().splitlines()).ok  # no chat among the events

    # Playing again brings the chat back into Redis with the events; it goes on from there.
    again = client.post(f"/games/{game}/rematch", headers=ann)
    assert again.status_code == 200, again.json
    again_said = client.post(f"/games/{game}/chat", json={"preset": "rematch"}, headers=bob)
    assert again_said.status_code == 201
    back = client.get(f"/games/{game}/chat", headers=bob).json["messages"]
    assert [m["preset"] for m in back] == ["good_game", "thanks", "rematch"]
    assert back[:2] == after["bob"]["messages"]
    folder_export = tmp_path / "all"
    assert main(["export", "--all", str(folder_export)]) == 0
    assert (folder_export / f"{game}@chat.jsonl").read_text().splitlines()[:3] == lines[:3]


def test_a_post_judged_on_a_table_the_game_has_moved_past_is_not_posted(
    app: Flask, client: FlaskClient
) -> None:
    """Who may post is judged on the table as read; a leave that lands before the post makes
    the post judged again (the blueprint reads the newer table, where the leaver holds no
    seat: 401), never posted as the seat it left."""
    created = client.post("/games", json={"edition": "classic", "seats": ["human"] * 3,
                                          "name": "ann"})  # fmt: skip
    game = created.json["game"]["id"]
    joined = client.post(f"/games/{game}/seats", json={"name": "bob"})
    bob = {"Authorization": f"Bearer {joined.json['token']}"}
    with app.app_context():
        ctx = services().context
        read = ctx.games.load(game).table
        assert read is not None
        left = client.delete(f"/games/{game}/seats/{joined.json['seat']}", headers=bob)
        assert left.status_code == 204, left.json
        with pytest.raises(MovedOn):
            chat.post(ctx, game, read, chat.chatter(read, joined.json["seat"], None),
                      preset="hello")  # fmt: skip
        assert ctx.games.chat.read(game) == []
    again = client.post(f"/games/{game}/chat", json={"preset": "hello"}, headers=bob)
    assert again.status_code == 401
