"""What the use cases work with: the games, this process's head cache and append hub, the job
queue, settings."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from rq import Queue

from events.archive import DirectoryArchive
from events.connection import RedisClient, connect
from events.devices import DeviceStore
from events.games import GameRepository
from events.hub import AppendHub
from events.identities import IdentityStore
from events.index import GameIndex
from events.mygames import MyGamesIndex
from events.players import PlayerStore, Presence
from events.push import PushStore
from events.push_outbox import PushOutbox
from events.queue import QuickPlayQueue
from events.ratings import RatingStore
from events.snapshots import SnapshotStore
from events.store import EventStore
from events.tickets import StreamTickets
from game.table import STATUSES
from play.heads import HeadCache
from play.settings import Settings


@dataclass
class Context:
    """The dependencies of the use cases, built once per process."""

    games: GameRepository
    heads: HeadCache
    queue: Queue
    settings: Settings

    @cached_property
    def hub(self) -> AppendHub:
        """This process's listener for appends, which wakes waiting clients (it starts with the
        first one)."""
        store = self.games.store
        return AppendHub(store.redis, store.namespace)

    @cached_property
    def webhook_queue(self) -> Queue:
        """The queue of webhook deliveries, apart from bots and deadlines (workers of its own),
        so that a slow receiver never delays a move."""
        return Queue(self.settings.webhook_queue, connection=self.queue.connection)

    @cached_property
    def tickets(self) -> StreamTickets:
        """The games' stream tickets."""
        store = self.games.store
        seconds = self.settings.stream_ticket_seconds
        return StreamTickets(store.redis, namespace=store.namespace, seconds=seconds)

    @cached_property
    def players(self) -> PlayerStore:
        """The players, their tokens, games and inboxes."""
        store = self.games.store
        length = self.settings.inbox_length
        return PlayerStore(store.redis, namespace=store.namespace, inbox_length=length)

    @cached_property
    def my_games(self) -> MyGamesIndex:
        """Each player's games, indexed by status and order for "my games"."""
        store = self.games.store
        return MyGamesIndex(store.redis, namespace=store.namespace)

    @cached_property
    def devices(self) -> DeviceStore:
        """The players' devices (their tokens), and when each was last used."""
        return DeviceStore(self.games.store.redis, self.players)

    @cached_property
    def push(self) -> PushStore:
        """The players' Web Push subscriptions and notification preferences."""
        return PushStore(self.games.store.redis, namespace=self.games.store.namespace)

    @cached_property
    def push_outbox(self) -> PushOutbox:
        """The pushes waiting for a drain job to send them."""
        return PushOutbox(self.games.store.redis, namespace=self.games.store.namespace)

    @cached_property
    def identities(self) -> IdentityStore:
        """Which player each identity of the trusted issuer is; the kept server secrets."""
        store = self.games.store
        return IdentityStore(store.redis, namespace=store.namespace)

    @cached_property
    def quickplay(self) -> QuickPlayQueue:
        """The quick-play queue: entries, pools and matches waiting for their table."""
        store = self.games.store
        gone_ms = int(self.settings.quickplay_gone_seconds * 1000)
        return QuickPlayQueue(store.redis, namespace=store.namespace, gone_ms=gone_ms)

    @cached_property
    def ratings(self) -> RatingStore:
        """Ratings, leaderboards and players' statistics, per edition."""
        store = self.games.store
        return RatingStore(store.redis, namespace=store.namespace)

    @cached_property
    def presence(self) -> Presence:
        """Who has been here lately (this process writes it at most every 15 s per player)."""
        store = self.games.store
        return Presence(store.redis, namespace=store.namespace)

    @classmethod
    def on(
        cls, client: RedisClient, settings: Settings, queue_client: RedisClient | None = None
    ) -> Context:
        """A context on one Redis; RQ needs a plain (non-cluster) one, given apart if need be."""
        namespace = settings.namespace
        store = EventStore(
            client,
            namespace=namespace,
            idempotency_ttl_seconds=settings.idempotency_ttl_seconds,
            replicas=settings.append_replicas,
            replica_timeout_ms=settings.append_timeout_ms,
        )
        games = GameRepository(
            store,
            SnapshotStore(client, namespace=namespace),
            GameIndex(client, namespace=namespace, statuses=STATUSES),
            archive=DirectoryArchive(settings.archive_dir) if settings.archive_dir else None,
        )
        games.chat.length = settings.chat_length
        queue = Queue(settings.queue, connection=queue_client or client)  # type: ignore[arg-type]
        return cls(games, HeadCache(games), queue, settings)

    @classmethod
    def from_settings(cls, settings: Settings) -> Context:
        """A context on the Redis the settings name (REDIS_URL, else the embedded server)."""
        queue_client = connect(settings.queue_url) if settings.queue_url else None
        return cls.on(connect(settings.redis_url), settings, queue_client)


_current: Context | None = None


def current() -> Context:
    """This process's context, built once from the environment (RQ jobs use it)."""
    global _current
    if _current is None:
        _current = Context.from_settings(Settings.load())
    return _current
