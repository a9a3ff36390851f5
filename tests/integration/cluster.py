"""A throwaway Redis Cluster of real servers on loopback ports, for the integration tests."""

from __future__ import annotations

import random
import socket
import subprocess
import time
from pathlib import Path

import redis

from events.redis_server import EmbeddedRedis, cli_binary

READY_TIMEOUT_SECONDS = 20.0


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


class LocalCluster:
    """`masters` cluster-enabled servers joined by `redis-cli --cluster create`, no replicas."""

    def __init__(self, base_dir: Path, *, masters: int = 3) -> None:
        self.base_dir = base_dir
        self.masters = masters
        self.nodes: list[EmbeddedRedis] = []

    @property
    def url(self) -> str:
        """A redis+cluster:// URL naming the first node (the client discovers the rest)."""
        return f"redis+cluster://127.0.0.1:{self.nodes[0].port}"

    def start(self) -> LocalCluster:
        """Start the nodes, create the cluster, wait until every node says cluster_state:ok."""
        try:
            for index, port in enumerate(cluster_ports(self.masters)):
                folder = self.base_dir / f"node{index}"
                node = EmbeddedRedis(folder, port=port, appendfsync="no", extra_args=[
                    "--cluster-enabled", "yes",
                    "--cluster-config-file", str(folder / "nodes.conf"),
                    "--cluster-node-timeout", "5000",
                ])  # fmt: skip
                self.nodes.append(node.start())
            addresses = [f"127.0.0.1:{node.port}" for node in self.nodes]
            subprocess.run(
                [cli_binary(), "--cluster", "create", *addresses,
                 "--cluster-replicas", "0", "--cluster-yes"],
                check=True, capture_output=True, timeout=30,
            )  # fmt: skip
            self._wait_ok()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        """Stop every node."""
        for node in self.nodes:
            node.stop()
        self.nodes = []

    def _wait_ok(self) -> None:
        """Block until every node knows every node and has all 16384 slots served."""
        deadline = time.monotonic() + READY_TIMEOUT_SECONDS
        pending = list(self.nodes)
        while pending:
            if time.monotonic() > deadline:
                raise TimeoutError("the Redis Cluster did not reach cluster_state:ok")
            client = redis.Redis(host="127.0.0.1", port=pending[0].port, decode_responses=True)
            with client:
                info = dict(
                    line.split(":", 1)
                    for line in client.execute_command("CLUSTER", "INFO").splitlines()
                    if ":" in line
                )
            if (
                info.get("cluster_state") == "ok"
                and info.get("cluster_known_nodes") == str(self.masters)
                and info.get("cluster_slots_ok") == "16384"
            ):
                pending.pop(0)
            else:
                time.sleep(0.05)
