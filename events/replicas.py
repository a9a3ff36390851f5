"""Writes acknowledged by replicas: a game's commands, then WAIT, on one connection to the
master that owns the game, so that WAIT counts those very writes.

Redis replicates asynchronously: a master answers a write before any replica has it, and a
master that dies then takes the write with it. `WAIT n timeout` answers once n replicas have
everything the connection wrote (and so everything the master wrote before it), or at the
timeout with how many did. WAIT counts a connection's own writes only, hence one pipeline on
one connection; on a cluster, that connection is to the master of the game's slot, and the
redirects a failover or a resharding causes (MOVED, ASK, TRYAGAIN, CLUSTERDOWN) are followed.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Sequence
from typing import Any

import redis
from redis.cluster import RedisCluster
from redis.exceptions import (
    AskError,
    ClusterDownError,
    MovedError,
    NoScriptError,
    SlotNotCoveredError,
    TryAgainError,
)

from events.connection import RedisClient

REDIRECTS = 4  # redirects or retries followed before the error is raised
RETRY_PAUSE_SECONDS = 0.1  # before trying again when the cluster is between two states
LONGEST_TIMEOUT_MS = 4000  # WAIT must answer within the calls' 5-second timeout
Command = tuple[Any, ...]


class NotReplicated(Exception):
    """Fewer replicas than promised acknowledged a write in time; the master has it."""


class ReplicaWait:
    """Runs a game's commands and then `WAIT replicas timeout_ms` on one connection."""

    def __init__(self, client: RedisClient, replicas: int, timeout_ms: int) -> None:
        if replicas < 0 or not 0 < timeout_ms <= LONGEST_TIMEOUT_MS:
            raise ValueError(f"replicas >= 0 and 0 < timeout_ms <= {LONGEST_TIMEOUT_MS}")
        self.client = client
        self.replicas = replicas
        self.timeout_ms = timeout_ms

    def execute(
        self, key: str, commands: Sequence[Command], scripts: Sequence[str] = ()
    ) -> tuple[list[Any], bool]:
        """The commands' replies, and whether enough replicas acknowledged them. `key` names
        the slot (any key of the game); `scripts` are loaded where an EVALSHA finds none."""
        asking: AskError | None = None
        for attempt in range(REDIRECTS + 1):
            node = self._node(key, asking)
            pipe = node.pipeline(transaction=False)
            if asking is not None:
                pipe.execute_command("ASKING")
            for command in commands:
                pipe.execute_command(*command)
            pipe.execute_command("WAIT", self.replicas, self.timeout_ms)
            last = attempt == REDIRECTS
            try:
                replies = pipe.execute()
            except NoScriptError:
                if last:
                    raise
                for script in scripts:
                    node.script_load(script)
                continue
            except (MovedError, AskError) as redirect:  # MOVED subclasses ASK
                if last or not isinstance(self.client, RedisCluster):
                    raise
                asking = None if isinstance(redirect, MovedError) else redirect
                if asking is None:
                    self.client.nodes_manager.move_slot(redirect)
                continue
            except (TryAgainError, ClusterDownError, SlotNotCoveredError):
                if last:  # e.g. TRYAGAIN all along a slot's migration: the caller retries later
                    raise
                self._refresh()
                continue
            except (redis.ConnectionError, redis.TimeoutError):
                self._refresh()
                raise
            if asking is not None:
                replies = replies[1:]
            return replies[:-1], int(replies[-1]) >= self.replicas
        raise AssertionError("unreachable")

    def _node(self, key: str, asking: AskError | None) -> redis.Redis:
        """The client of the master that owns `key` (or that an ASK sent us to)."""
        client = self.client
        if not isinstance(client, RedisCluster):
            return client
        if asking is not None:
            node = client.get_node(host=asking.host, port=asking.port)
            if node is not None:
                return client.get_redis_connection(node)
        try:
            node = client.get_node_from_key(key)
        except SlotNotCoveredError:
            self._refresh()
            node = client.get_node_from_key(key)
        return client.get_redis_connection(node)

    def _refresh(self) -> None:
        """Ask the cluster again which master serves which slots (after a pause)."""
        time.sleep(RETRY_PAUSE_SECONDS)
        if isinstance(self.client, RedisCluster):
            # While the cluster is still choosing, this fails; the next call tries again.
            with contextlib.suppress(redis.RedisError, OSError):
                self.client.nodes_manager.initialize()
