"""Webhook deliveries go to the address that was checked: a host whose DNS answer changes
between the check and the call (rebinding) can't reach a private address, redirects are not
followed, and Host, TLS server name and certificate stay the URL's. Real Redis, real loopback
HTTP(S) servers; DNS is steered by replacing `socket.getaddrinfo` (a resolver, not our code)."""

from __future__ import annotations

import socket
import ssl
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import trustme

from events.connection import RedisClient
from game.table import OpenTable, SetWebhook, TakeSeat
from play.context import Context
from play.settings import Settings
from play.webhooks import Destination, new_secret, post, resolve, url_problem
from tests.redis_keys import delete_namespace, delete_queue, new_namespace
from workers import jobs

from .workers import submit

REAL_GETADDRINFO = socket.getaddrinfo
PUBLIC = "192.0.0.9"  # globally reachable by the registry, and answered by nobody


class Receiver(BaseHTTPRequestHandler):
    """Records what it is sent; answers with the class's `status` (and `location`)."""

    received: list[dict[str, str]]
    status = 204
    location = ""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        self.received.append({k.lower(): v for k, v in self.headers.items()})
        self.send_response(self.status)
        if self.location:
            self.send_header("Location", self.location)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        """Quiet."""


def serve(status: int = 204, location: str = "", tls: ssl.SSLContext | None = None) -> Any:
    """A receiver on a loopback port (its `received` list is fresh), run in a thread."""
    handler = type("Handler", (Receiver,), {"received": [], "status": status,
                                            "location": location})  # fmt: skip
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture
def receiver() -> Iterator[Any]:
    server = serve()
    yield server
    server.shutdown()


@pytest.fixture
def steer(monkeypatch: pytest.MonkeyPatch) -> Callable[[str, list[str]], list[str]]:
    """Make `host` resolve to the given answers, one per lookup (the last one then stays);
    other names resolve as usual. Returns the list of hosts looked up."""
    looked_up: list[str] = []

    def install(host: str, answers: list[str]) -> list[str]:
        def getaddrinfo(name: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
            if name != host:
                return REAL_GETADDRINFO(name, port, *args, **kwargs)
            looked_up.append(name)
            address = answers.pop(0) if len(answers) > 1 else answers[0]
            return REAL_GETADDRINFO(address, port, *args, **kwargs)

        monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
        return looked_up

    return install


@pytest.fixture
def ctx(single_client: RedisClient, monkeypatch: pytest.MonkeyPatch) -> Iterator[Context]:
    """The jobs' context in a namespace of this test; private webhook addresses refused."""
    name = new_namespace("hooks")
    settings = Settings(namespace=name, queue=name, webhook_timeout=1.0)
    context = Context.on(single_client, settings)
    monkeypatch.setattr(jobs, "current", lambda: context)
    yield context
    delete_namespace(single_client, name)
    delete_queue(single_client, name)


def allowing_private(ctx: Context, monkeypatch: pytest.MonkeyPatch) -> Context:
    """The jobs' context from now on: `ctx` with private webhook addresses allowed."""
    settings = Settings(**{**vars(ctx.settings), "webhook_allow_private": True})
    allowed = Context(ctx.games, ctx.heads, ctx.queue, settings)
    monkeypatch.setattr(jobs, "current", lambda: allowed)
    return allowed


def hooked_game(ctx: Context, url: str) -> int:
    """A two-seat game whose seat 0 (to act first) has a webhook at `url`; its version."""
    opened = OpenTable("classic", (None, None), "w", first_player=0,
                       host=TakeSeat(0, "ann", "h0"))  # fmt: skip
    version = submit(ctx, "hooked", opened, expected_version=0).game.version
    version = submit(ctx, "hooked", SetWebhook(0, url, new_secret()),
                     expected_version=version).game.version  # fmt: skip
    return submit(ctx, "hooked", TakeSeat(1, "bob", "h1"), expected_version=version).game.version


def test_a_rebinding_host_never_reaches_a_private_address(
    ctx: Context, receiver: Any, steer: Callable[[str, list[str]], list[str]]
) -> None:
    """The check sees a public address, a second lookup would give the loopback receiver: the
    delivery goes to the public address (which does not answer), never to the receiver."""
    version = hooked_game(ctx, f"http://rebind.test:{receiver.server_port}/turn")
    looked_up = steer("rebind.test", [PUBLIC, "127.0.0.1"])
    with pytest.raises(ConnectionError):
        jobs.deliver_webhook("hooked", version, 0)
    assert receiver.RequestHandlerClass.received == []
    assert looked_up == ["rebind.test"]


def test_a_delivery_reaches_the_checked_address_with_the_urls_host(
    ctx: Context,
    receiver: Any,
    steer: Callable[[str, list[str]], list[str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With private addresses allowed, a real delivery over loopback: one lookup, and the
    receiver sees the URL's host and port as Host."""
    version = hooked_game(
        allowing_private(ctx, monkeypatch), f"http://hooks.test:{receiver.server_port}/turn?x=1"
    )
    looked_up = steer("hooks.test", ["127.0.0.1", "10.9.9.9"])
    assert jobs.deliver_webhook("hooked", version, 0) == "delivered"
    (seen,) = receiver.RequestHandlerClass.received
    assert seen["host"] == f"hooks.test:{receiver.server_port}"
    assert seen["webhook-id"] == f"msg_hooked_{version}_0"
    assert looked_up == ["hooks.test"]


def test_a_redirect_is_not_followed(
    ctx: Context, steer: Callable[..., list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A receiver that answers 302 towards another address: not followed, not delivered."""
    elsewhere = serve()
    redirecting = serve(302, f"http://127.0.0.1:{elsewhere.server_port}/")
    try:
        destination = Destination("http", "hooks.test", "hooks.test", redirecting.server_port,
                                  "/turn", ("127.0.0.1",))  # fmt: skip
        assert post(destination, b"{}", {}, timeout=2) == 302
        version = hooked_game(allowing_private(ctx, monkeypatch),
                              f"http://hooks.test:{redirecting.server_port}/turn")  # fmt: skip
        steer("hooks.test", ["127.0.0.1"])
        with pytest.raises(jobs.WebhookFailed):
            jobs.deliver_webhook("hooked", version, 0)
        assert len(redirecting.RequestHandlerClass.received) == 2
        assert elsewhere.RequestHandlerClass.received == []
    finally:
        elsewhere.shutdown()
        redirecting.shutdown()


@pytest.fixture(scope="module")
def authority() -> trustme.CA:
    return trustme.CA()


def tls_receiver(authority: trustme.CA, name: str, names_seen: list[str]) -> Any:
    """An HTTPS receiver whose certificate is for `name`; it notes the TLS server names."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert(name).configure_cert(context)
    context.sni_callback = lambda sock, server_name, ctx: names_seen.append(server_name)  # type: ignore[assignment,misc]
    return serve(tls=context)


def test_https_keeps_the_server_name_and_checks_the_certificate(
    authority: trustme.CA, tmp_path: Any
) -> None:
    """Connecting to the checked address, TLS still names the URL's host and verifies the
    certificate for it: a certificate for another name is refused."""
    ca_file = tmp_path / "ca.pem"
    authority.cert_pem.write_to_path(str(ca_file))
    names: list[str] = []
    right = tls_receiver(authority, "hooks.test", names)
    wrong = tls_receiver(authority, "other.test", names)
    try:
        for server, fine in ((right, True), (wrong, False)):
            port = server.server_port
            destination = Destination("https", "hooks.test", f"hooks.test:{port}", port,
                                      "/turn", ("127.0.0.1",))  # fmt: skip
            if fine:
                assert post(destination, b"{}", {}, timeout=2, ca_certs=str(ca_file)) == 204
                assert server.RequestHandlerClass.received[0]["host"] == f"hooks.test:{port}"
            else:
                with pytest.raises(ssl.SSLCertVerificationError, match="Hostname mismatch"):
                    post(destination, b"{}", {}, timeout=2, ca_certs=str(ca_file))
        assert names == ["hooks.test", "hooks.test"]
    finally:
        right.shutdown()
        wrong.shutdown()


@pytest.mark.parametrize(
    ("answers", "refused"),
    [
        ([PUBLIC], False),
        (["127.0.0.1"], True),
        (["10.1.2.3"], True),
        (["169.254.169.254"], True),
        (["::ffff:127.0.0.1"], True),
        (["64:ff9b::a00:1"], True),  # NAT64 to 10.0.0.1
        (["2002:7f00:1::1"], True),  # 6to4 of 127.0.0.1
    ],
)
def test_every_address_of_a_host_is_checked(
    steer: Callable[[str, list[str]], list[str]], answers: list[str], refused: bool
) -> None:
    steer("some.test", answers)
    problem = url_problem("http://some.test/x", allow_private=False)
    assert (problem is not None) == refused, problem
    if not refused:
        assert resolve("http://some.test/x", allow_private=False).addresses == (PUBLIC,)


def test_a_host_with_a_private_address_among_public_ones_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def getaddrinfo(name: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if name != "mixed.test":
            return REAL_GETADDRINFO(name, port, *args, **kwargs)
        return [*REAL_GETADDRINFO(PUBLIC, port, *args, **kwargs),
                *REAL_GETADDRINFO("127.0.0.1", port, *args, **kwargs)]  # fmt: skip

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    assert url_problem("https://mixed.test/", allow_private=False) is not None


def test_a_players_webhook_gets_its_inbox_entries_signed(
    ctx: Context,
    receiver: Any,
    steer: Callable[[str, list[str]], list[str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The relay of a game's start enqueues the player's webhook job once; the job POSTs the
    entries, signed, to the checked address."""
    import time as clock

    from rq.job import Job

    from events.players import Player

    allowed = allowing_private(ctx, monkeypatch)
    allowed.players.create(Player("p-ann", "ann", "guest", clock.time()))
    allowed.players.set_webhook(
        "p-ann", f"http://hooks.test:{receiver.server_port}/in", new_secret()
    )
    opened = OpenTable("classic", (None, None), "w", first_player=0,
                       host=TakeSeat(0, "ann", "h0", player="p-ann"))  # fmt: skip
    version = submit(allowed, "inboxed", opened, expected_version=0).game.version
    version = submit(
        allowed, "inboxed", TakeSeat(1, "bob", "h1"), expected_version=version
    ).game.version
    job_id = f"phook-{allowed.settings.namespace}-p-ann-inboxed-{version}"
    job = Job.fetch(job_id, connection=allowed.queue.connection)
    player, entries = job.args
    assert player == "p-ann" and [e["type"] for e in entries] == ["game_started", "your_turn"]
    looked_up = steer("hooks.test", ["127.0.0.1"])
    assert jobs.deliver_player_webhook(player, entries) == "delivered"
    (seen,) = receiver.RequestHandlerClass.received
    assert seen["webhook-id"] == f"msg_p-ann_inboxed_{version}"
    assert seen["webhook-signature"].startswith("v1,") and looked_up == ["hooks.test"]
