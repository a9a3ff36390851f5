"""One listener per process for the appends of every game, waking the waiters of each game.

Every append publishes its events on the namespace's channel (`events/append.lua`), so one
pub/sub connection per process hears them all, on a single Redis as on a Redis Cluster (where a
published message reaches every node). A waiter (a long poll, a stream of server-sent events)
opens a Watch on its game and waits on it: it holds no Redis connection, and under gevent no
thread either. The hub hands each watch the events of its game's appends. When the listener's
connection drops, appends may go unheard, so once it has subscribed again every watch is told
to read its stream instead (`Watch.take` says so). Chat messages are announced on a channel of
their own (events/chat.py): a watch is only told that its game's chat has news (`Watch.chatted`),
apart from its appends, and reads the chat itself.

The hub also keeps this process's game heads current (`keep_heads`, play/heads.py): an append
that follows a kept head (its version, and the stamp the append checked there) is folded into it,
so a command that another process's append preceded finds its game here without a read.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any, Protocol

import orjson
import redis
from marshmallow import ValidationError

from events.background import Background
from events.chat import chat_channel
from events.connection import RedisClient, as_text
from events.players import InboxEntry, inbox_channel
from events.store import StoredEvent, appends_channel
from events.vocabulary import VOCABULARY, Vocabulary

log = logging.getLogger(__name__)

HEARD_KEPT = 64  # appends a watch keeps unread; beyond, it is told to read its stream instead
GAMES_KEPT = 65_536  # games whose last heard append the hub remembers (older: "just now")
LISTEN_SECONDS = 1.0  # the listener looks up from its connection this often (to notice close)
FIRST_PAUSE_SECONDS = 0.1  # before subscribing again after a lost connection; doubles
LONGEST_PAUSE_SECONDS = 5.0

Append = list[StoredEvent]  # the events one append wrote, in order
Mark = tuple[int, int]  # (subscription, appends heard): where the hub stood at a moment


class HeadKeeper(Protocol):
    """What keeps games' heads up to date from the appends the hub hears (play.heads)."""

    def kept_version(self, game_id: str) -> int | None:
        """The version of the game's kept head (None: none is kept)."""

    def hear(self, game_id: str, append: Append, stamp_before: str, mark: Mark) -> None:
        """An append of the game, heard at `mark`, whose script found `stamp_before` on the
        entry before its first ('' when it checked none)."""


def inbox_watch(player_id: str) -> str:
    """The name a player's inbox is watched under (no game id has a colon)."""
    return f"player:{player_id}"


class Parked:
    """How many waiters of a hub are blocked in `Watch.wait` now (a test waits for this before
    it wakes them; /metrics shows it as loveletter_waiters)."""

    def __init__(self) -> None:
        self.count = 0
        self._lock = threading.Lock()

    def add(self, change: int) -> None:
        with self._lock:
            self.count += change


class Watch:
    """One waiter's view of one game's appends, as this process hears them."""

    def __init__(self, game_id: str, parked: Parked | None = None) -> None:
        self.game_id = game_id
        self._parked = Parked() if parked is None else parked
        self.closed = False  # the hub is closing: stop waiting
        self._heard: deque[Append] = deque()
        self._missed = False  # appends may have gone unheard: read the stream
        self.chatted = False  # the game's chat may have news (set by the hub, cleared by readers)
        self._news = threading.Event()
        self._lock = threading.Lock()

    def wait(self, timeout: float) -> bool:
        """Block (cooperatively under gevent) until something is heard, at most timeout s."""
        self._parked.add(1)
        try:
            return self._news.wait(max(timeout, 0.0))
        finally:
            self._parked.add(-1)

    def take(self) -> tuple[list[Append], bool]:
        """The appends heard since the last take, and whether some may have gone unheard."""
        with self._lock:
            self._news.clear()
            heard, missed = list(self._heard), self._missed
            self._heard.clear()
            self._missed = False
        return heard, missed

    def hear(self, append: Append) -> None:
        """An append of the game (the hub calls this)."""
        with self._lock:
            if len(self._heard) < HEARD_KEPT:
                self._heard.append(append)
            else:  # a waiter that reads slowly reads its stream instead
                self._heard.clear()
                self._missed = True
        self._news.set()

    def miss(self) -> None:
        """Appends may have gone unheard (the hub calls this)."""
        with self._lock:
            self._missed = True
            self.chatted = True
        self._news.set()

    def hear_chat(self) -> None:
        """A message was posted to the game's chat (the hub calls this)."""
        with self._lock:
            self.chatted = True
        self._news.set()

    def take_chat(self) -> bool:
        """Whether the chat may have news since the last call."""
        with self._lock:
            chatted, self.chatted = self.chatted, False
        return chatted

    def close(self) -> None:
        """The hub is closing: wake the waiter for good."""
        self.closed = True
        self._news.set()


class AppendHub:
    """This process's listener for the namespace's appends and the watches of its waiters.

    The listener thread starts with the first watch (so processes that never wait, such as RQ
    workers, never subscribe); under gevent it is a greenlet.
    """

    def __init__(
        self, client: RedisClient, namespace: str, vocabulary: Vocabulary = VOCABULARY
    ) -> None:
        self.client = client
        self.channel = appends_channel(namespace)
        self.inbox_channel = inbox_channel(namespace)  # players' inbox entries (events/relay.lua)
        self.chat_channel = chat_channel(namespace)  # games' chat messages (events/chat.lua)
        self.vocabulary = vocabulary
        self.subscribed = threading.Event()  # set while the listener is subscribed
        self._watches: dict[str, set[Watch]] = {}
        self._lock = threading.Lock()
        self._listener = Background("append-hub", self._listen)
        self._closed = False
        self._pubsub: Any = None  # the listener's subscription, while it has one
        self._subscription = 0  # counts the listener's subscriptions (each may have missed some)
        self._appends = 0  # appends heard so far, of every game: the hub's clock
        self._last_heard: OrderedDict[str, int] = OrderedDict()  # game: the clock when heard
        self._forgotten = 0  # the latest clock dropped from _last_heard
        self._heads: HeadKeeper | None = None
        self._parked = Parked()

    def keep_heads(self, heads: HeadKeeper) -> None:
        """While listening, fold each heard append into `heads` when it follows the head kept
        there, so that a waiter, or a command sent to this process after another process's
        append, reads nothing."""
        self._heads = heads

    def mark(self) -> Mark | None:
        """Where the hub stands now (None: not listening), to be taken before reading a game:
        `unchanged` then tells whether anything of that game was appended since."""
        with self._lock:
            return (self._subscription, self._appends) if self.subscribed.is_set() else None

    def unchanged(self, game_id: str, mark: Mark | None) -> bool:
        """Whether the hub has listened without a break since `mark` and heard no append of
        the game since (one published meanwhile but not yet heard is heard by the watches)."""
        with self._lock:
            if mark is None or not self.subscribed.is_set() or mark[0] != self._subscription:
                return False
            return self._last_heard.get(game_id, self._forgotten) <= mark[1]

    @contextmanager
    def watch(self, game_id: str) -> Iterator[Watch]:
        """Watch a game's appends for as long as the block runs."""
        watch = Watch(game_id, self._parked)
        self._listener.ensure()
        with self._lock:
            self._watches.setdefault(game_id, set()).add(watch)
            if self._closed:
                watch.close()
        try:
            yield watch
        finally:
            with self._lock:
                watches = self._watches.get(game_id)
                if watches is not None:
                    watches.discard(watch)
                    if not watches:
                        del self._watches[game_id]

    def watching(self) -> int:
        """How many watches are open."""
        with self._lock:
            return sum(len(watches) for watches in self._watches.values())

    def parked(self) -> int:
        """How many waiters are blocked on their watches now, waiting for news."""
        return self._parked.count

    def close(self) -> None:
        """Stop listening and wake every waiter for good (e.g. when the process stops)."""
        with self._lock:
            self._closed = True
            watches = [watch for found in self._watches.values() for watch in found]
        for watch in watches:
            watch.close()

    def _listen(self) -> None:
        """Subscribe, and hand each append to the watches of its game, until closed."""
        pause = FIRST_PAUSE_SECONDS
        while not self._closed:
            pubsub: Any = None
            try:
                self._pubsub = pubsub = self.client.pubsub()
                pubsub.subscribe(self.channel, self.inbox_channel, self.chat_channel)
                # Read the subscription's connection directly: PubSub.get_message costs about
                # 0.1 ms a message (a poll, retry and telemetry wrappers) in each process, for
                # every append of the namespace.
                connection = pubsub.connection
                while not self._closed:
                    try:
                        reply = connection.read_response(
                            timeout=LISTEN_SECONDS, disconnect_on_error=False, push_request=True
                        )
                    except redis.TimeoutError:  # nothing for a while: look up (closed?)
                        continue
                    if self._heard(reply):
                        pause = FIRST_PAUSE_SECONDS
            except Exception as error:  # a lost Redis, or a bug: listen again after a pause
                self.subscribed.clear()
                if self._closed:
                    break
                log.warning("append hub: %s; subscribing again in %.1f s", error, pause)
                time.sleep(pause)
                pause = min(2 * pause, LONGEST_PAUSE_SECONDS)
            finally:
                self._pubsub = None
                if pubsub is not None:
                    with suppress(Exception):
                        pubsub.close()

    def _heard(self, reply: Any) -> bool:
        """Handle one reply of the subscription (`[kind, channel, data]`); whether it says
        every channel is now subscribed."""
        kind, channel, data = as_text(reply[0]), as_text(reply[1]), reply[2]
        if kind == "subscribe":
            if data == 3:  # every channel
                self._subscribed()
                return True
        elif kind == "message":
            if channel == self.inbox_channel:
                self._deliver_inbox(data)
            elif channel == self.chat_channel:
                self._deliver_chat(data)
            else:
                self._deliver(data)
        return False

    def decode(self, data: dict[str, Any]) -> Any:
        """An event as the vocabulary reads it (None if it can't: a reader decodes it again).
        What the hub hears was written by this service's own `encode`, just now."""
        try:
            return self.vocabulary.decode_own(data)
        except (ValidationError, KeyError, TypeError):  # not an event of ours: left to the reader
            return None

    def _subscribed(self) -> None:
        """Now hearing every append: whatever was appended before, every watch reads."""
        with self._lock:
            self._subscription += 1
        self.subscribed.set()
        with self._lock:
            watches = [watch for found in self._watches.values() for watch in found]
        for watch in watches:
            watch.miss()

    @contextmanager
    def watch_inbox(self, player_id: str) -> Iterator[Watch]:
        """Watch a player's inbox entries for as long as the block runs."""
        with self.watch(inbox_watch(player_id)) as watch:
            yield watch

    def _deliver_inbox(self, data: bytes) -> None:
        """Hand one published inbox entry (`player\\nentry id\\nentry`) to its watches."""
        player, _, rest = data.partition(b"\n")
        with self._lock:
            watches = list(self._watches.get(inbox_watch(player.decode()), ()))
        if not watches:
            return
        entry_id, _, body = rest.partition(b"\n")
        entry = InboxEntry(entry_id.decode(), orjson.loads(body))
        for watch in watches:
            watch.hear([entry])  # type: ignore[list-item]

    def _deliver_chat(self, data: bytes) -> None:
        """Tell the watches of a game (`game\nmessage id`) that its chat has news."""
        game, _, _ = data.partition(b"\n")
        with self._lock:
            watches = list(self._watches.get(game.decode(), ()))
        for watch in watches:
            watch.hear_chat()

    def _deliver(self, data: bytes) -> None:
        """Hand one published append (`game\\nfirst version\\ntime\\nstamp before\\nstamp\\n
        event\\n...`) to the head keeper and to the game's watches."""
        game, _, rest = data.partition(b"\n")
        game_id = game.decode()
        with self._lock:
            self._appends += 1
            mark = (self._subscription, self._appends)
            self._last_heard[game_id] = self._appends
            self._last_heard.move_to_end(game_id)
            if len(self._last_heard) > GAMES_KEPT:
                self._forgotten = self._last_heard.popitem(last=False)[1]
            watches = list(self._watches.get(game_id, ()))
        head, at, rest = rest.split(b"\n", 2)
        first = int(head)
        if rest.startswith(b"{"):  # published by a release before the stamps were: none here
            stamp_before, stamp, body = b"", b"", rest
        else:
            stamp_before, stamp, body = rest.split(b"\n", 2)
        # A kept head takes the append only if it is at the version before (so not after this
        # process's own appends, which it has already).
        heads = self._heads
        if heads is not None and heads.kept_version(game_id) != first - 1:
            heads = None
        if not watches and heads is None:
            return
        lines = body.split(b"\n")
        stamps = [None] * (len(lines) - 1) + [stamp.decode() or None]  # on the last event only
        append = []
        for offset, (line, on_it) in enumerate(zip(lines, stamps, strict=True)):
            event = orjson.loads(line)  # decoded once here for every waiter of the game
            decoded = self.decode(event)
            append.append(StoredEvent(first + offset, event, None, on_it, decoded, int(at)))
        if heads is not None:
            heads.hear(game_id, append, stamp_before.decode(), mark)
        for watch in watches:
            watch.hear(append)
