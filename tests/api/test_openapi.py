"""The OpenAPI document: served, documented with problem+json errors, and not drifting."""

from __future__ import annotations

import yaml
from flask.testing import FlaskClient

from service import openapi
from service.cli import main


def test_openapi_json_and_docs_are_served(client: FlaskClient) -> None:
    spec = client.get("/openapi.json")
    assert spec.status_code == 200
    assert spec.get_json()["openapi"].startswith("3.")
    docs = client.get("/docs")
    assert docs.status_code == 200
    assert "swagger" in docs.get_data(as_text=True).lower()


def test_errors_are_documented_as_problems(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").get_json()
    default = spec["components"]["responses"]["DEFAULT_ERROR"]
    assert list(default["content"]) == ["application/problem+json"]
    assert "Problem" in spec["components"]["schemas"]
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":  # path parameters shared by the operations
                continue
            assert "default" in operation["responses"], (method, path)


def test_checked_in_spec_matches_the_code() -> None:
    """Run `loveletter openapi` after changing a schema or a route."""
    assert openapi.SPEC_PATH.exists(), "api-spec/openapi.yaml is missing: run `loveletter openapi`"
    assert openapi.SPEC_PATH.read_text(encoding="utf-8") == openapi.render(openapi.spec_dict()), (
        "api-spec/openapi.yaml differs from the code: run `loveletter openapi`"
    )


def test_rendering_is_deterministic() -> None:
    assert openapi.render(openapi.spec_dict()) == openapi.render(openapi.spec_dict())
    assert yaml.safe_load(openapi.render(openapi.spec_dict()))["info"]["title"] == "Love Letter"


def test_check_command_reports_drift(tmp_path: object) -> None:
    from pathlib import Path

    target = Path(str(tmp_path)) / "openapi.yaml"
    assert main(["openapi", "--check", "--output", str(target)]) == 1
    assert main(["openapi", "--output", str(target)]) == 0
    assert main(["openapi", "--check", "--output", str(target)]) == 0
    target.write_text(target.read_text() + "# edited\n")
    assert main(["openapi", "--check", "--output", str(target)]) == 1
