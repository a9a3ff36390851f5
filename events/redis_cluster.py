"""A throwaway Redis Cluster of real servers on loopback ports: masters, each with replicas if
asked, joined by `redis-cli --cluster create`. The tests and `loveletter bench cluster` use it."""

from __future__ import annotations

import random
import socket
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

import redis

from events.redis_server import EmbeddedRedis, cli_binary

READY_TIMEOUT_SECONDS = 30.0


def _port_is_free(port: int) -> bool:
    """True when 127.0.0.1:port can be bound right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def cluster_ports(count: int) -> list[int]:
    """Ports P below 55535 with P and its cluster bus port P + 10000 both free."""
    ports: list[int] = []
    while len(ports) < count:
        port = random.randint(20000, 29999)
        if port not in ports and _port_is_free(port) and _port_is_free(port + 10000):
            ports.append(port)
    return ports


def cluster_info(port: int) -> dict[str, str]:
    """CLUSTER INFO of the node on 127.0.0.1:port, as a mapping."""
    client = redis.Redis(host="127.0.0.1", port=port, decode_responses=True, socket_timeout=2)
    with client:
        text = client.execute_command("CLUSTER", "INFO")
    return dict(line.split(":", 1) for line in text.splitlines() if ":" in line)


class LocalCluster:
    """`masters` cluster-enabled servers with `replicas` replicas each.

    `node_timeout_ms` is how long a node may be silent before it is taken for failed (and its
    replica elected in its place); `extra_args` go to every server.
    """

    def __init__(
        self,
        base_dir: Path,
        *,
        masters: int = 3,
        replicas: int = 0,
        node_timeout_ms: int = 5000,
        extra_args: Sequence[str] = (),
    ) -> None:
        self.base_dir = base_dir
        self.masters = masters
        self.replicas = replicas
        self.node_timeout_ms = node_timeout_ms
        self.extra_args = tuple(extra_args)
        self.nodes: list[EmbeddedRedis] = []

    @property
    def url(self) -> str:
        """A redis+cluster:// URL naming the first node (the client discovers the rest)."""
        return f"redis+cluster://127.0.0.1:{self.nodes[0].port}"

    @property
    def size(self) -> int:
        """How many servers the cluster has."""
        return self.masters * (1 + self.replicas)

    def start(self) -> LocalCluster:
        """Start the nodes, create the cluster, wait until every node says cluster_state:ok
        and every replica is in sync with its master."""
        try:
            for index, port in enumerate(cluster_ports(self.size)):
                self.nodes.append(self._node(index, port).start())
            addresses = [f"127.0.0.1:{node.port}" for node in self.nodes]
            subprocess.run(
                [cli_binary(), "--cluster", "create", *addresses,
                 "--cluster-replicas", str(self.replicas), "--cluster-yes"],
                check=True, capture_output=True, timeout=30,
            )  # fmt: skip
            self.wait_ok()
        except BaseException:
            self.stop()
            raise
        return self

    def _node(self, index: int, port: int) -> EmbeddedRedis:
        folder = self.base_dir / f"node{index}"
        return EmbeddedRedis(folder, port=port, appendfsync="no", extra_args=[
            "--cluster-enabled", "yes",
            "--cluster-config-file", str(folder / "nodes.conf"),
            "--cluster-node-timeout", str(self.node_timeout_ms),
            *self.extra_args,
        ])  # fmt: skip

    def stop(self) -> None:
        """Stop every node."""
        for node in self.nodes:
            node.stop()
        self.nodes = []

    def roles(self) -> dict[int, str]:
        """Each live node's role (`master` or `slave`), by port."""
        found = {}
        for node in self.nodes:
            if not node.running:
                continue
            client = redis.Redis(host="127.0.0.1", port=node.port, socket_timeout=2)
            with client:
                found[node.port] = str(client.info("replication")["role"])
        return found

    def replica_of(self, master_port: int) -> EmbeddedRedis:
        """A live replica of the master on `master_port`."""
        for node in self.nodes:
            if not node.running or node.port == master_port:
                continue
            client = redis.Redis(host="127.0.0.1", port=node.port, socket_timeout=2)
            with client:
                info = client.info("replication")
            if info["role"] == "slave" and int(info["master_port"]) == master_port:
                return node
        raise LookupError(f"no replica of the master on port {master_port}")

    def wait_ok(self, timeout: float = READY_TIMEOUT_SECONDS) -> None:
        """Block until every live node says cluster_state:ok with all 16384 slots served, and
        every live replica's link to its master is up."""
        deadline = time.monotonic() + timeout
        while not self._ok():
            if time.monotonic() > deadline:
                raise TimeoutError("the Redis Cluster did not reach cluster_state:ok")
            time.sleep(0.05)

    def _ok(self) -> bool:
        views = set()
        for node in self.nodes:
            if not node.running:
                continue
            try:
                info = cluster_info(node.port)
                client = redis.Redis(host="127.0.0.1", port=node.port, socket_timeout=2)
                with client:
                    replication = client.info("replication")
                    views.add(_masters_seen(client.execute_command("CLUSTER", "NODES")))
            except (redis.RedisError, OSError):
                return False
            if info.get("cluster_state") != "ok" or info.get("cluster_slots_ok") != "16384":
                return False
            if int(info.get("cluster_known_nodes", 0)) < self.size:
                return False
            if replication["role"] == "slave" and replication["master_link_status"] != "up":
                return False
        return len(views) == 1  # every node agrees which nodes serve which slots


def _masters_seen(nodes: bytes | str) -> frozenset[tuple[str, str]]:
    """From CLUSTER NODES: each serving master's id and the slots it serves."""
    text = nodes.decode() if isinstance(nodes, bytes) else nodes
    found = set()
    for line in text.splitlines():
        fields = line.split()
        flags = fields[2].split(",")
        if "master" in flags and "fail" not in flags and len(fields) > 8:
            found.add((fields[0], " ".join(sorted(fields[8:]))))
    return frozenset(found)
