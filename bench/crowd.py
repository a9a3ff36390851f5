"""The waiting clients of `loveletter bench waiters`: event streams and long polls on asyncio, in
processes of their own (so their clock readings don't queue behind the command drivers' threads).

`run_crowd` opens every waiter, says how many opened, holds them until told to stop, and then
answers what each received and when (time.monotonic(), the same clock in every process here),
and which failed or were dropped. `CrowdProcesses` splits a large crowd over several such
processes (one event loop holds a few thousand sockets well, not ten thousand), each connecting
from its own loopback address, so that each has the whole range of ephemeral ports to itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import multiprocessing
import resource
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

import orjson

OPENING_AT_ONCE = 100  # connections being opened at the same time, per crowd process
WAITERS_PER_PROCESS = 2500  # the most waiters one crowd process holds
STREAM = "stream"
POLL = "poll"
INBOX = "inbox"  # a player's inbox stream: receipts name the entry's game and version


@dataclass(frozen=True)
class Waiter:
    """One waiting client: an event stream or a long poll of a game, as a seat or a spectator."""

    kind: str  # STREAM or POLL
    game_id: str
    path: str  # a stream's path (with `after` or a ticket); a poll's without `after`
    token: str | None = None  # sent as `Authorization: Bearer ...`
    after: int = 0
    wait: float = 30.0  # a long poll's wait
    # The first ask's wait (None: `wait`): a crowd opened at once that asks again spread over a
    # wait, as clients that came at different times do, rather than all together in waves.
    first_wait: float | None = None


@dataclass
class Report:
    """What the crowd saw: receipts (waiter index, game, version, monotonic time), failures."""

    opened: int = 0
    receipts: list[tuple[int, str, int, float]] = field(default_factory=list)
    # inbox entries: (waiter index, game, version, entry type, appended at, received at), the
    # times Unix seconds (one clock: the machine's)
    inbox: list[tuple[int, str, int, str, float, float]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # statuses or exceptions, one per failure
    dropped: int = 0  # connections the server closed before the game ended or we stopped
    finished: int = 0  # streams that ended with the game (their `end` event)
    polls: int = 0  # long-poll answers
    open_at_end: int = 0
    cpu_seconds: float = 0.0  # the crowd process's own CPU time (it shares the machine)


class Crowd:
    """Every waiter of one run, against one server."""

    def __init__(
        self, host: str, port: int, waiters: list[Waiter], source: str | None = None
    ) -> None:
        self.host, self.port, self.waiters = host, port, waiters
        self.local_addr = None if source is None else (source, 0)  # None: the system's choice
        self.report = Report()
        self.stopping = False
        self._open: set[int] = set()

    async def run(self, control: Connection) -> None:
        """Open every waiter, report, hold until told to stop, report again."""
        opening = asyncio.Semaphore(OPENING_AT_ONCE)
        opened = [asyncio.Event() for _ in self.waiters]
        tasks = [
            asyncio.create_task(self._wait(index, waiter, opening, opened[index]))
            for index, waiter in enumerate(self.waiters)
        ]
        await asyncio.gather(*(event.wait() for event in opened))
        self.report.opened = len(self._open)
        control.send(("opened", self.report.opened, list(self.report.errors)))
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, control.recv)  # "stop"
        self.report.open_at_end = len(self._open)
        self.stopping = True
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        usage = resource.getrusage(resource.RUSAGE_SELF)
        self.report.cpu_seconds = usage.ru_utime + usage.ru_stime
        control.send(("report", self.report))

    async def _wait(
        self, index: int, waiter: Waiter, opening: asyncio.Semaphore, opened: asyncio.Event
    ) -> None:
        writer: asyncio.StreamWriter | None = None
        try:
            async with opening:
                reader, writer = await asyncio.open_connection(
                    self.host, self.port, local_addr=self.local_addr
                )
                if waiter.kind in (STREAM, INBOX):
                    status, _ = await self._request(reader, writer, waiter.path, waiter.token)
                    if status != 200:
                        raise RuntimeError(f"stream answered {status}")
                self._open.add(index)
            opened.set()
            if waiter.kind in (STREAM, INBOX):
                await self._stream(index, waiter, reader)
            else:
                await self._poll(index, waiter, reader, writer)
        except asyncio.CancelledError:
            pass
        except Exception as error:
            if not self.stopping:
                self.report.errors.append(f"{waiter.kind}: {type(error).__name__}: {error}")
        finally:
            self._open.discard(index)
            opened.set()
            if writer is not None:
                writer.close()

    async def _request(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        path: str,
        token: str | None,
    ) -> tuple[int, int | None]:
        """Send a GET; read the status line and headers; the status and Content-Length."""
        lines = [f"GET {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        if token:
            lines.append(f"Authorization: Bearer {token}")
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        await writer.drain()
        status = int((await reader.readline()).split()[1])
        length = None
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return status, length

    async def _stream(self, index: int, waiter: Waiter, reader: asyncio.StreamReader) -> None:
        """Read server-sent events (in HTTP chunks) until the stream ends; few reads, little
        parsing, as this process shares the machine with the server it measures."""
        received, pending = b"", b""
        while data := await reader.read(65536):
            now = time.monotonic()
            received += data
            while (line_end := received.find(b"\r\n")) >= 0:
                size = int(received[:line_end], 16)
                chunk_end = line_end + 2 + size
                if size == 0 or len(received) < chunk_end + 2:
                    break
                pending += received[line_end + 2 : chunk_end]
                received = received[chunk_end + 2 :]
            *blocks, pending = pending.split(b"\n\n")
            for block in blocks:
                if waiter.kind == INBOX and block.startswith(b"id: "):
                    entry = orjson.loads(block[block.index(b"data: ") + 6 :])
                    appended = entry["appended_at_ms"] / 1000
                    row = (index, entry["game"], entry["version"], entry["type"], appended)
                    self.report.inbox.append((*row, time.time()))
                elif block.startswith(b"id: "):
                    version = int(block[4 : block.index(b"\n")])
                    self.report.receipts.append((index, waiter.game_id, version, now))
                elif block.startswith(b"event: end"):
                    self.report.finished += 1
                    return
        if not self.stopping:
            self.report.dropped += 1

    async def _poll(
        self,
        index: int,
        waiter: Waiter,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
    ) -> None:
        """Long-poll the feed, again and again, after the last version received."""
        after = waiter.after
        wait = waiter.wait if waiter.first_wait is None else waiter.first_wait
        while not self.stopping:
            path = f"{waiter.path}?after={after}&wait={wait:g}"
            wait = waiter.wait
            status, length = await self._request(reader, writer, path, waiter.token)
            if length is None:
                raise RuntimeError("a feed answer without Content-Length")
            body = await reader.readexactly(length)
            now = time.monotonic()
            if status != 200:
                raise RuntimeError(f"long poll answered {status}")
            self.report.polls += 1
            for event in orjson.loads(body)["events"]:
                self.report.receipts.append((index, waiter.game_id, event["version"], now))
                after = event["version"]


def run_crowd(
    control: Connection, host: str, port: int, waiters: list[Waiter], source: str | None = None
) -> None:
    """The crowd process: run every waiter until told to stop (see the module's docstring)."""
    crowd = Crowd(host, port, waiters, source)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(crowd.run(control))


def source_address(host: str, number: int) -> str | None:
    """The address crowd process `number` connects from: 127.0.0.2, .3, ... when the server is
    on IPv4 loopback (the whole 127/8 is this machine's), else the system's choice (None)."""
    try:
        server = ipaddress.ip_address(host)
    except ValueError:
        return None
    if server.version != 4 or not server.is_loopback:
        return None
    return str(ipaddress.IPv4Address("127.0.0.2") + number % 250)


class CrowdProcesses:
    """A crowd split over processes of at most `per_process` waiters each; one report."""

    def __init__(
        self,
        host: str,
        port: int,
        waiters: list[Waiter],
        per_process: int = WAITERS_PER_PROCESS,
    ) -> None:
        self.waiters = waiters
        count = max(1, -(-len(waiters) // per_process))
        size = -(-len(waiters) // count) if waiters else 0
        self.starts = [number * size for number in range(count)]
        spawn = multiprocessing.get_context("spawn")
        self._controls: list[Connection] = []
        self._processes: list[BaseProcess] = []
        for number, start in enumerate(self.starts):
            ours, theirs = spawn.Pipe()
            part = waiters[start : start + size]
            source = source_address(host, number)
            process = spawn.Process(
                target=run_crowd, args=(theirs, host, port, part, source), daemon=True
            )
            self._controls.append(ours)
            self._processes.append(process)

    def open(self) -> list[str]:
        """Start every process and wait until each has opened its waiters; the errors."""
        for process in self._processes:
            process.start()
        errors: list[str] = []
        for control in self._controls:
            _, _, found = control.recv()
            errors += found
        return errors

    def stop(self) -> Report:
        """Stop every waiter; the processes' reports as one (waiter indexes into the crowd)."""
        for control in self._controls:
            control.send("stop")
        merged = Report()
        for start, control in zip(self.starts, self._controls, strict=True):
            _, report = control.recv()
            merged.opened += report.opened
            merged.receipts += [(start + index, *rest) for index, *rest in report.receipts]
            merged.inbox += [(start + index, *rest) for index, *rest in report.inbox]
            merged.errors += report.errors
            merged.dropped += report.dropped
            merged.finished += report.finished
            merged.polls += report.polls
            merged.open_at_end += report.open_at_end
            merged.cpu_seconds += report.cpu_seconds
        return merged

    def close(self) -> None:
        """Wait for the processes to end (kill those that don't)."""
        for process in self._processes:
            if process.pid is None:
                continue
            process.join(30)
            if process.is_alive():
                process.kill()

    @property
    def processes(self) -> int:
        """How many processes hold the crowd."""
        return len(self._processes)


def describe(report: Report) -> dict[str, Any]:
    """The report's counts (not its receipts)."""
    return {
        "opened": report.opened,
        "open_at_end": report.open_at_end,
        "errors": len(report.errors),
        "dropped": report.dropped,
        "finished_with_their_game": report.finished,
        "long_poll_answers": report.polls,
        "inbox_entries": len(report.inbox),
        "cpu_seconds": round(report.cpu_seconds, 1),
    }
