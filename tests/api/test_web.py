"""The web client and the API docs are served from installed files, beside an unchanged API."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from flask.testing import FlaskClient

from game.editions import EDITIONS
from service.blueprints.web import MESSAGEFORMAT_DIR, REDOC_DIR, SWAGGER_UI_DIR, WEB_DIR
from service.languages import CARD_TEXTS_DIR
from service.schemas.games import SEAT_KINDS

ROOT = Path(__file__).resolve().parents[2]


def test_the_page_is_served_at_the_root_with_a_strict_policy(client: FlaskClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert page.mimetype == "text/html"
    assert '<script type="module" src="/web/js/app.js">' in page.get_data(as_text=True)
    policy = page.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "unsafe" not in policy


def test_every_file_the_page_names_is_served(client: FlaskClient) -> None:
    """The index's files, every module an import names, and every catalogue answer 200 with
    the right type."""
    html = client.get("/").get_data(as_text=True)
    wanted = set(re.findall(r'(?:src|href)="(/web/[^"]+)"', html))
    for module in (WEB_DIR / "js").glob("*.js"):
        for imported in re.findall(r'from "\./([^"]+)"', module.read_text()):
            wanted.add(f"/web/js/{imported}")
        wanted.update(re.findall(r'from "(/[^"]+)"', module.read_text()))
    wanted.update(f"/web/i18n/{path.name}" for path in (WEB_DIR / "i18n").glob("*.json"))
    assert "/web/js/table.js" in wanted
    assert "/vendor/intl-messageformat/intl-messageformat.iife.js" in wanted
    assert "/web/i18n/ja.json" in wanted
    for path in sorted(wanted):
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        if path.endswith(".js"):
            assert answer.mimetype in ("text/javascript", "application/javascript"), path
        if path.endswith(".json"):
            assert answer.mimetype == "application/json", path


def test_the_api_keeps_its_paths(client: FlaskClient) -> None:
    assert client.get("/games").get_json()["games"] is not None
    missing = client.get("/web/nothing.js")
    assert missing.status_code == 404
    assert missing.mimetype == "application/problem+json"


def test_the_docs_load_only_local_files(client: FlaskClient) -> None:
    """Swagger UI and ReDoc name no address outside the service, and their files are here."""
    for path in ("/docs", "/redoc"):
        html = client.get(path).get_data(as_text=True)
        assert "http" not in html, path
        for asset in re.findall(r'(?:src|href)="([^"]+)"', html):
            assert client.get(asset).status_code == 200, asset
    assert (SWAGGER_UI_DIR / "swagger-ui-bundle.js").exists()
    assert (REDOC_DIR / "LICENSE").exists()
    assert "cdn.redoc.ly" not in (REDOC_DIR / "redoc.standalone.js").read_text()


def test_the_client_files_are_package_data() -> None:
    """pyproject.toml declares every file of the page and of the docs (an install has them)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["service"]
    service = ROOT / "service"
    declared = {path for pattern in patterns for path in service.glob(pattern) if path.is_file()}
    for folder in (WEB_DIR, REDOC_DIR, MESSAGEFORMAT_DIR, CARD_TEXTS_DIR):
        for path in folder.rglob("*"):
            if path.is_file():
                assert path in declared, path


def test_editions_lists_every_card_with_its_effect(client: FlaskClient) -> None:
    answer = client.get("/editions")
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["seat_kinds"] == list(SEAT_KINDS)
    assert [edition["id"] for edition in body["editions"]] == list(EDITIONS)
    for shown in body["editions"]:
        rules = EDITIONS[shown["id"]]
        assert [(c["card"], c["rank"], c["copies"]) for c in shown["cards"]] == list(rules.table)
        for card in shown["cards"]:
            assert card["name"] == rules.cards[card["card"]].name
            assert card["effect"] == rules.cards[card["card"]].text_in(rules.id)
        targets = {row["players"]: row["tokens"] for row in shown["tokens_to_win"]}
        assert targets == dict(rules.tokens_to_win)
        assert (shown["min_players"], shown["max_players"]) == (
            rules.min_players,
            rules.max_players,
        )
        assert shown["discard_total_breaks_ties"] is rules.discard_total_breaks_ties
