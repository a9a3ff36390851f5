"""The checked-in OpenAPI document: generated from the app's schemas, deterministic YAML.

Writing it is a developer's job (a source checkout with the dev extra, which has PyYAML); the
service itself serves the document as JSON.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from service.app import api_of, create_app

SPEC_PATH = Path(__file__).resolve().parents[1] / "api-spec" / "openapi.yaml"
# The spec never depends on Redis; this URL is never connected to (clients connect lazily).
UNUSED_REDIS_URL = "redis://127.0.0.1:1/0"


def spec_dict() -> dict[str, Any]:
    """The OpenAPI document of a freshly created app."""
    app = create_app({"REDIS_URL": UNUSED_REDIS_URL})
    spec: dict[str, Any] = api_of(app).spec.to_dict()
    return spec


def render(spec: dict[str, Any]) -> str:
    """The document as YAML with sorted keys and no aliases (the same text for the same spec,
    always)."""
    import yaml  # the dev extra's

    class Dumper(yaml.SafeDumper):
        def ignore_aliases(self, data: Any) -> bool:
            return True

    text: str = yaml.dump(
        spec, Dumper=Dumper, sort_keys=True, default_flow_style=False, allow_unicode=True,
        width=100,
    )  # fmt: skip
    return text


def drift(path: Path = SPEC_PATH) -> bool:
    """True when the file at path is not exactly what the code generates."""
    return not path.exists() or path.read_text(encoding="utf-8") != render(spec_dict())


def write(path: Path = SPEC_PATH) -> None:
    """Write the generated document to path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(spec_dict()), encoding="utf-8")
