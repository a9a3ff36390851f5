"""Small helpers shared by the integration tests."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path


def gone(pid: int) -> bool:
    """True when no process (not even a zombie) has this pid."""
    return not Path(f"/proc/{pid}").exists()


def run_python(code: str, env: dict[str, str], cwd: Path) -> list[str]:
    """Run code in a fresh interpreter; the words it printed."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=env, cwd=cwd, capture_output=True, text=True, timeout=30, check=True,
    )  # fmt: skip
    return done.stdout.split()
