"""The README's first command, run as a new user would, from a fresh clone.

    python3 .ci/first_command.py --without-redis-server   # redis-server hidden from the PATH
    python3 .ci/first_command.py --with-redis-server

Clones the repository's HEAD into a temporary folder and runs the README's first command there
(a virtualenv from the service lock alone, then `loveletter serve`, on a free port). Once it is
up: /healthz, the page at /, a game created and a move played over HTTP; then SIGINT, and no
process of it may be left. Without a redis-server, the command runs in a mount namespace where
every redis-server and valkey-server on the PATH is covered by an empty, non-executable file, so
serve must start the embedded Valkey. Standard library only: it runs before anything is installed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SECTION = "## The two commands"
START_SECONDS = 600.0  # the install is part of the command: a cold pip cache takes minutes
MOVE_SECONDS = 60.0
STOP_SECONDS = 60.0
HIDDEN_SERVERS = ("redis-server", "valkey-server")


def readme_first_command() -> str:
    """The first shell block of the README's "The two commands": it must end by serving."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split(SECTION, 1)[1]
    command = str(re.findall(r"```sh\n(.*?)```", section, flags=re.DOTALL)[0]).strip()
    if not command.endswith("loveletter serve"):
        raise SystemExit(
            f"the README's first command no longer ends with `loveletter serve`: {command}"
        )
    return command


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def call(method: str, url: str, body: object = None, headers: dict[str, str] | None = None,
         timeout: float = 20.0) -> tuple[int, dict[str, str], bytes]:  # fmt: skip
    """Status, headers and body of one HTTP request (error statuses included)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=dict(headers or {}))
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def processes_naming(text: str) -> dict[int, str]:
    """Every live process whose command line names `text` (zombies excepted)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if text in line and state != "Z":
            found[int(entry.name)] = line
    return found


def shell_script(command: str, port: int, hide: bool) -> str:
    """The README's command, serving on `port`; with `hide`, the servers on the PATH covered."""
    serve = command.removesuffix("loveletter serve") + f"exec loveletter serve --port {port}"
    if not hide:
        return f"set -e\n{serve}\n"
    names = " ".join(HIDDEN_SERVERS)
    return f"""set -e
empty=$(mktemp)
chmod 0644 "$empty"
for found in $(which -a {names} 2>/dev/null || true); do mount --bind "$empty" "$found"; done
if which {names} >/dev/null 2>&1; then
  echo "a Redis server is still on the PATH" >&2
  exit 3
fi
{serve}
"""


def wait_up(base: str, serve: subprocess.Popen[str], log: Path) -> None:
    """Until /healthz answers 200 and serve printed its banner (the install comes first)."""
    deadline = time.monotonic() + START_SECONDS
    while True:
        if serve.poll() is not None:
            fail(f"serve exited with {serve.returncode} before it was up", log)
        if "Ctrl-C stops everything" in log.read_text():
            status, _, _ = call("GET", base + "/healthz", timeout=5)
            if status == 200:
                return
        if time.monotonic() > deadline:
            fail("serve was not up in time", log)
        time.sleep(1)


def play_one_move(base: str, log: Path) -> str:
    """Create a game against a bot and play one legal move as its human seat; the game id."""
    status, _, body = call("POST", base + "/games", {
        "edition": "2019", "seats": ["human", "heuristic"], "name": "first",
    })  # fmt: skip
    if status != 201:
        fail(f"POST /games answered {status}: {body[:300]!r}", log)
    created = json.loads(body)
    game, token = created["game"]["id"], created["token"]
    auth = {"Authorization": f"Bearer {token}"}
    deadline = time.monotonic() + MOVE_SECONDS
    while time.monotonic() < deadline:
        status, headers, body = call("GET", f"{base}/games/{game}", headers=auth)
        if status != 200:
            fail(f"GET /games/{game} answered {status}", log)
        view = json.loads(body)
        etag = headers.get("ETag") or headers.get("Etag") or ""
        if view["legal"]:
            status, _, body = call("POST", f"{base}/games/{game}/commands", view["legal"][0], {
                **auth, "If-Match": etag, "Idempotency-Key": "first-move",
            })  # fmt: skip
            if status != 200:
                fail(f"the move answered {status}: {body[:300]!r}", log)
            return str(game)
        version = etag.strip('"')
        call("GET", f"{base}/games/{game}/events?after={version}&wait=10", headers=auth)
    fail("the human seat never had a move to play", log)
    raise AssertionError  # unreachable


def fail(why: str, log: Path) -> None:
    """Print the reason and serve's output, and exit 1."""
    print(f"first command: FAILED: {why}\n--- serve's output ---\n{log.read_text()}", flush=True)
    raise SystemExit(1)


def run(hide: bool) -> None:
    """One fresh clone, the README's first command, the checks, SIGINT, nothing left."""
    label = "without a redis-server on the PATH" if hide else "with a redis-server on the PATH"
    if not hide and shutil.which("redis-server") is None:
        raise SystemExit("first command: no redis-server on this machine to run the check with")
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="loveletter-first-") as temporary:
        clone = Path(temporary) / "loveletter"
        subprocess.run(["git", "clone", "--quiet", str(REPO), str(clone)], check=True)
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        env = {k: v for k, v in os.environ.items()
               if k not in ("REDIS_URL", "VIRTUAL_ENV", "PYTHONPATH")
               and not k.startswith("LOVELETTER_")}  # fmt: skip
        script = shell_script(readme_first_command(), port, hide)
        argv = ["bash", "-c", script]
        if hide:
            argv = ["unshare", "--mount", "--propagation", "private", *argv]
        log = Path(temporary) / "serve.log"
        with log.open("w") as output:
            serve = subprocess.Popen(argv, cwd=clone, env=env, stdout=output,
                                     stderr=subprocess.STDOUT, text=True)  # fmt: skip
        try:
            wait_up(base, serve, log)
            said = log.read_text()
            expected = "Valkey" if hide else "Redis"
            if f"({expected} " not in said or "data in" not in said:
                fail(f"serve did not say it started {expected} and where its data is", log)
            for path, needle in (("/healthz", b""), ("/", b"/web/js/app.js")):
                status, _, body = call("GET", base + path)
                if status != 200 or needle not in body:
                    fail(f"GET {path} answered {status}", log)
            game = play_one_move(base, log)
            during = processes_naming(str(clone))
            redis_line = next(line for line in said.splitlines() if "  redis  " in line)
            serve.send_signal(signal.SIGINT)
            try:
                status = serve.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                fail("serve did not stop within a minute of SIGINT", log)
            if status != 0:
                fail(f"serve exited with {status} after SIGINT", log)
            time.sleep(1)
            left = processes_naming(str(clone))
            if left:
                fail(f"processes left after serve stopped: {left}", log)
            if "Traceback" in log.read_text():
                fail("a traceback in serve's output", log)
        finally:
            if serve.poll() is None:
                serve.kill()
            for pid in processes_naming(str(clone)):
                with_suppressed_kill(pid)
    seconds = time.monotonic() - started
    print(f"first command {label}: ok (game {game} played, {len(during)} processes, all gone"
          f" after SIGINT; {seconds:.0f} s)\n{redis_line}", flush=True)  # fmt: skip


def with_suppressed_kill(pid: int) -> None:
    """SIGKILL a process that should not be there, if it still is."""
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--without-redis-server", action="store_true")
    which.add_argument("--with-redis-server", action="store_true")
    args = parser.parse_args()
    run(hide=args.without_redis_server)
    return 0


if __name__ == "__main__":
    sys.exit(main())
