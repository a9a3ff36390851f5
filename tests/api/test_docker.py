"""The Dockerfile and docker-compose.yml agree with the code (Docker itself can't run here)."""

from __future__ import annotations

import ast
import importlib
import json
import re
from pathlib import Path
from typing import Any

import yaml

from play.settings import QUEUE_NAME, webhook_queue

ROOT = Path(__file__).resolve().parents[2]


def compose() -> dict[str, Any]:
    """docker-compose.yml, parsed."""
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return loaded


def dockerfile_instruction(name: str) -> list[str]:
    """The lines of the Dockerfile that start with an instruction (continuations joined)."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    return [line[len(name) :].strip() for line in text.splitlines() if line.startswith(name + " ")]


def top_level_names(path: Path) -> set[str]:
    """The names a module assigns at its top level (read, not imported: importing the WSGI
    module would build the app and connect to Redis)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    }


def assert_wsgi_target(command: list[str]) -> None:
    """A gunicorn command names a module:attribute that exists, and our config module."""
    assert command[0] == "gunicorn"
    module, _, attribute = command[1].partition(":")
    path = ROOT / (module.replace(".", "/") + ".py")
    assert path.exists() and attribute in top_level_names(path)
    config = command[command.index("--config") + 1]
    assert config.startswith("python:")
    importlib.import_module(config.removeprefix("python:"))
    assert command[command.index("--bind") + 1] == "0.0.0.0:8000"


def test_dockerfile_is_slim_non_root_and_runs_gunicorn() -> None:
    assert dockerfile_instruction("FROM") == ["python:3.11-slim"]
    users = dockerfile_instruction("USER")
    assert users and users[-1] not in ("root", "0")
    cmd = json.loads(dockerfile_instruction("CMD")[-1])
    assert_wsgi_target(cmd)
    copied = " ".join(dockerfile_instruction("COPY"))
    for package in ("game", "events", "play", "service", "workers", "pyproject.toml"):
        assert package in copied


def test_compose_has_redis_with_aof_api_and_worker() -> None:
    services = compose()["services"]
    assert set(services) >= {"redis", "api", "worker"}
    redis = services["redis"]
    assert redis["image"].startswith("redis:7")
    assert "--appendonly" in redis["command"]
    assert redis["command"][redis["command"].index("--appendonly") + 1] == "yes"
    assert "healthcheck" in redis


def test_compose_api_and_worker_use_the_code() -> None:
    services = compose()["services"]
    url = "redis://redis:6379/0"
    api, worker = services["api"], services["worker"]
    assert api["environment"]["REDIS_URL"] == url
    assert worker["environment"]["REDIS_URL"] == url
    assert_wsgi_target(api["command"])
    assert api["command"] == json.loads(dockerfile_instruction("CMD")[-1])
    assert api["image"] == worker["image"]
    assert worker["command"][:4] == ["python", "-m", "workers", "worker"]  # RQ's, in our logs
    assert worker["command"][-1] == QUEUE_NAME
    worker_class = worker["command"][worker["command"].index("--worker-class") + 1]
    module, _, name = worker_class.rpartition(".")
    assert hasattr(importlib.import_module(module), name)
    assert worker["command"][worker["command"].index("--url") + 1] == url
    hooks = services["webhook-worker"]
    assert hooks["command"] == [*worker["command"][:-1], webhook_queue(QUEUE_NAME)]
    assert re.search(r"/healthz", " ".join(api["healthcheck"]["test"]))
    assert api["depends_on"]["redis"]["condition"] == "service_healthy"


def test_the_image_installs_the_locked_set_then_the_project_alone() -> None:
    """Exact versions with their hashes from requirements.txt; the project without resolving
    anything more (the lock is all it runs on)."""
    runs = dockerfile_instruction("RUN")
    locked = next(i for i, run in enumerate(runs) if "-r requirements.txt" in run)
    assert "--require-hashes" in runs[locked]
    project = next(i for i, run in enumerate(runs) if "pip install" in run and " ." in run)
    assert locked < project and "--no-deps" in runs[project]
    assert "requirements.txt" in " ".join(dockerfile_instruction("COPY"))
