"""What `loveletter bench cluster` does to its Redis Cluster while games are played: a master
failed over by its replica (CLUSTER FAILOVER), and another SIGKILLed while its replica lags."""

from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass, field
from typing import Any

import redis

from bench.driver import Driver
from bench.usage import snapshot
from events.redis_cluster import LocalCluster

READY_TIMEOUT_SECONDS = 60.0


@dataclass
class Failover:
    """What was done to the cluster, and when (seconds into the play)."""

    kind: str
    master: int
    replica: int
    began: float
    ended: float = 0.0
    phases: dict[str, float] = field(default_factory=dict)
    error: str | None = None


def sleep_until(driver: Driver, moment: float) -> None:
    time.sleep(max(0.0, moment - driver.now()))


def fail_over_twice(
    cluster: LocalCluster,
    driver: Driver,
    seconds: float,
    lag: float,
    masters: list[int],
    queue: int,
) -> tuple[list[Failover], dict[str, Any]]:
    """A manual failover at a third of the play, a kill at two thirds; the snapshot taken
    just before the first (Redis operations and CPU while nothing failed)."""
    first = cluster.nodes[0].port  # every client's first address: kept alive
    victims = [port for port in masters if port != first]
    sleep_until(driver, seconds / 3)
    pids = {"redis masters": [node.pid for node in cluster.nodes if node.port in masters]}
    window = {"seconds": driver.now(), "snapshot": snapshot(pids, masters, queue)}
    failovers = [_manual_failover(cluster, driver, victims[0])]
    sleep_until(driver, 2 * seconds / 3 - lag)
    failovers.append(_kill(cluster, driver, victims[1], lag))
    sleep_until(driver, seconds)
    return failovers, window


def _manual_failover(cluster: LocalCluster, driver: Driver, master: int) -> Failover:
    """CLUSTER FAILOVER on the master's replica: the two swap roles, nothing is lost."""
    replica = cluster.replica_of(master)
    done = Failover("CLUSTER FAILOVER", master, replica.port, driver.now())
    try:
        with redis.Redis(port=replica.port) as promoted:
            promoted.execute_command("CLUSTER", "FAILOVER")
        _wait_role(replica.port, "master")
        done.phases["promoted_after_s"] = driver.now() - done.began
        cluster.wait_ok()
    except (redis.RedisError, OSError, TimeoutError, LookupError) as error:
        done.error = repr(error)
    done.ended = driver.now()
    return done


def _kill(cluster: LocalCluster, driver: Driver, master: int, lag: float) -> Failover:
    """Stop the master's replica and cut its link (CLIENT KILL) for `lag` seconds, SIGKILL the
    master, let the replica go on: it is elected without what the master wrote meanwhile; then
    start the dead node again, which rejoins as a replica. (Stopping the replica alone loses
    nothing on loopback: what the master sent waits in the replica's socket buffer.)"""
    replica = cluster.replica_of(master)
    victim = next(node for node in cluster.nodes if node.running and node.port == master)
    done = Failover("SIGKILL", master, replica.port, driver.now())
    try:
        os.kill(replica.pid, signal.SIGSTOP)
        try:
            with redis.Redis(port=master, socket_timeout=2) as node:
                node.client_kill_filter(_type="replica")
            time.sleep(lag)
            victim.kill()
            done.phases["killed_at_s"] = driver.now() - done.began
        finally:
            os.kill(replica.pid, signal.SIGCONT)
        _wait_role(replica.port, "master")
        done.phases["promoted_after_s"] = driver.now() - done.began
        victim.start()
        done.phases["restarted_after_s"] = driver.now() - done.began
        cluster.wait_ok()
        done.phases["replica_back_after_s"] = driver.now() - done.began
    except (redis.RedisError, OSError, TimeoutError, RuntimeError, LookupError) as error:
        done.error = repr(error)
    done.ended = driver.now()
    return done


def _wait_role(port: int, role: str, timeout: float = READY_TIMEOUT_SECONDS) -> None:
    deadline = time.monotonic() + timeout
    with redis.Redis(port=port, socket_timeout=2) as node:
        while node.info("replication")["role"] != role:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the node on port {port} did not become {role}")
            time.sleep(0.05)
