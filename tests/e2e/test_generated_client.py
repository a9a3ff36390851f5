"""A client generated from api-spec/openapi.yaml by openapi-python-client plays a whole game
against `loveletter serve`, as a client developer's code would."""

from __future__ import annotations

import importlib
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from tests.e2e.conftest import REPO_ROOT, Serve, Served

SPEC = REPO_ROOT / "api-spec" / "openapi.yaml"
PACKAGE = "loveletter_client"
GAME_SECONDS = 180


@pytest.fixture(scope="module")
def client_package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The generated client, imported from a temporary folder (no post hooks: no formatter)."""
    folder = tmp_path_factory.mktemp("generated")
    config = folder / "config.yaml"
    config.write_text(f"project_name_override: {PACKAGE}\npackage_name_override: {PACKAGE}\n"
                      "post_hooks: []\n")  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate", "--path", str(SPEC),
         "--meta", "none", "--config", str(config), "--output-path", str(folder / PACKAGE),
         "--fail-on-warning"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
        for name in [name for name in sys.modules if name.partition(".")[0] == PACKAGE]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def server(serve: Serve) -> Iterator[Served]:
    """A server with one gunicorn worker and an RQ worker for the bot."""
    served = serve("--workers", "1", "--threads", "4")
    yield served
    served.stop()


def operation(tag: str, name: str) -> ModuleType:
    """A generated operation's module (`sync`, `sync_detailed`...)."""
    return importlib.import_module(f"{PACKAGE}.api.{tag}.{name}")


@pytest.mark.slow
def test_a_generated_client_plays_a_whole_game(client_package: ModuleType, server: Served) -> None:
    """Create a game against the heuristic bot, then look, send the first legal command with
    the ETag and a fresh Idempotency-Key, or follow the feed, until the game is over."""
    models = importlib.import_module(f"{PACKAGE}.models")
    create_game = operation("games", "create_game")
    get_game = operation("games", "get_game")
    send_command = operation("commands", "send_command")
    get_events = operation("feed", "get_events")
    anonymous = client_package.Client(base_url=server.base)
    body = models.CreateGame(
        edition=models.CreateGameEdition("2019"),
        seats=[models.CreateGameSeatsItem("human"), models.CreateGameSeatsItem("heuristic")],
        name="ann",
    )
    created = create_game.sync_detailed(client=anonymous, body=body)
    assert created.status_code == 201, created.content
    assert created.headers["X-Request-ID"] and created.headers["ETag"]
    new = created.parsed
    assert isinstance(new, models.CreatedGame) and isinstance(new.token, str)
    game_id = new.game.id
    seat = client_package.AuthenticatedClient(base_url=server.base, token=new.token)
    deadline = time.monotonic() + GAME_SECONDS
    sent = followed = 0
    while True:
        assert time.monotonic() < deadline, server.output()
        looked = get_game.sync_detailed(game_id, client=seat)
        assert looked.status_code == 200, looked.content
        view = looked.parsed
        assert isinstance(view, models.View)
        if view.game.status == "over":
            break
        version = looked.headers["ETag"]
        if view.legal:
            answer = send_command.sync_detailed(
                game_id,
                client=seat,
                body=view.legal[0],
                if_match=version,
                idempotency_key=str(uuid.uuid4()),
            )
            assert answer.status_code == 200, answer.content
            assert isinstance(answer.parsed, models.View)
            sent += 1
        else:
            after = int(version.strip('"'))
            news = get_events.sync_detailed(game_id, client=seat, after=after, wait=10)
            assert news.status_code == 200, news.content
            assert isinstance(news.parsed, models.Feed)
            followed += 1
    assert sent > 0 and followed > 0
    final = view.view
    assert isinstance(final, models.SeatView)
    assert final.game_winners and final.hand is not None
    events = get_events.sync(game_id, client=seat)
    assert isinstance(events, models.Feed)
    kinds = {type(event).__name__ for event in events.events}
    assert {"TableOpenedEvent", "CardPlayedEvent", "GameEndedEvent"} <= kinds


def test_the_generated_client_names_operations_for_their_actions(
    client_package: ModuleType,
) -> None:
    """Generated modules are named by operationId, e.g. send_command, not post_games_...."""
    folder = Path(client_package.__file__).parent / "api"
    modules = {path.stem for path in folder.rglob("*.py") if path.stem != "__init__"}
    assert {"create_game", "get_game", "send_command", "get_events", "join_game"} <= modules
    assert not [name for name in modules if name.startswith(("get_games", "post_games"))]


def test_a_generated_client_plays_as_a_player(client_package: ModuleType, server: Served) -> None:
    """A guest made with the generated client creates a game with its player token, finds it
    in its games, moves to another device with a transfer code, abandons, gets tickets, lists
    its devices and signs one out."""
    models = importlib.import_module(f"{PACKAGE}.models")
    anonymous = client_package.Client(base_url=server.base)
    made = operation("players", "create_player").sync_detailed(
        client=anonymous, body=models.NewPlayer(name="ann")
    )
    assert made.status_code == 201, made.content
    assert isinstance(made.parsed, models.PlayerToken)
    ann = client_package.AuthenticatedClient(base_url=server.base, token=made.parsed.token)
    me = operation("players", "get_me").sync(client=ann)
    assert isinstance(me, models.Player) and me.name == "ann" and me.kind == "guest"
    body = models.CreateGame(
        edition=models.CreateGameEdition("classic"),
        seats=[models.CreateGameSeatsItem("human"), models.CreateGameSeatsItem("random")],
    )
    created = operation("games", "create_game").sync(client=ann, body=body)
    assert isinstance(created, models.CreatedGame)
    mine = operation("players", "list_my_games").sync(client=ann)
    assert isinstance(mine, models.MyGames) and mine.total == 1
    assert mine.games[0].id == created.game.id and mine.games[0].my_seat == 0
    code = operation("players", "create_transfer_code").sync(client=ann)
    assert isinstance(code, models.TransferCode)
    moved = operation("players", "redeem_transfer_code").sync(
        client=anonymous, body=models.Redeem(code=code.code)
    )
    assert isinstance(moved, models.PlayerToken) and moved.player.id == me.id
    other = client_package.AuthenticatedClient(base_url=server.base, token=moved.token)
    left = operation("seats", "abandon_seat").sync_detailed(created.game.id, 0, client=other)
    assert left.status_code == 200, left.content
    assert isinstance(left.parsed, models.View) and left.parsed.game.status == "over"
    ticket = operation("players", "create_inbox_ticket").sync(client=other)
    assert isinstance(ticket, models.InboxTicket) and "ticket=" in ticket.url
    hook = operation("players", "set_player_webhook").sync_detailed(
        client=other, body=models.Webhook(url="https://example.com/inbox")
    )
    assert hook.status_code == 422 and b"webhook-url-refused" in hook.content  # no DNS here
    gone = operation("players", "delete_player_webhook").sync_detailed(client=other)
    assert gone.status_code == 204
    again = operation("players", "get_me").sync(client=ann)
    assert isinstance(again, models.Player) and (again.games, again.abandons) == (1, 1)
    listed = operation("players", "list_devices").sync(client=ann)
    assert isinstance(listed, models.Devices) and len(listed.devices) == 2
    assert [device.current for device in listed.devices].count(True) == 1
    out = operation("players", "sign_out").sync_detailed(client=other)
    assert out.status_code == 204
    assert operation("players", "get_me").sync_detailed(client=other).status_code == 401
