"""What processes and Redis servers did during a benchmark: CPU seconds (Linux /proc) and
commands run (INFO commandstats)."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import redis


def snapshot(
    pids: Mapping[str, list[int]], masters: list[int], queue: int | None, *, with_ops: bool = True
) -> dict[str, Any]:
    """CPU seconds of each group of processes, and Redis's command counts so far."""
    found: dict[str, Any] = {"cpu": {name: cpu_seconds(group) for name, group in pids.items()}}
    if with_ops:
        found["store"] = {port: command_calls([port]) for port in masters}
        found["queue"] = command_calls([queue]) if queue else Counter()
    return found


# Commands of replication, of the cluster's upkeep and of the bench itself, not of clients.
NOT_CLIENTS = frozenset({"replconf", "psync", "sync", "cluster", "info", "ping", "command"})


def command_calls(ports: Sequence[int]) -> Counter[str]:
    """Calls of each Redis command sent by clients (INFO commandstats, which counts those a
    script runs too), summed over these servers."""
    calls: Counter[str] = Counter()
    for port in ports:
        with redis.Redis(port=port, socket_timeout=5) as server:
            stats: Any = server.info("commandstats")
        for name, figures in stats.items():
            command = name.removeprefix("cmdstat_")
            if command.split("|")[0] not in NOT_CLIENTS:
                calls[command] += int(figures["calls"])
    return calls


def cpu_seconds(pids: Sequence[int]) -> float:
    """User and system CPU seconds of these processes and their descendants (Linux /proc)."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        times[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    wanted = set(pids)
    grew = True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in wanted} - wanted
        grew = bool(more)
        wanted |= more
    return sum(times.get(pid, 0.0) for pid in wanted)
