"""The web client at `/` and the API docs' own files, all served from installed files.

The client is static HTML, CSS and JavaScript modules in `service/web/` (no build step), with
one message catalogue per language in `service/web/i18n/` read by the intl-messageformat
module of `service/vendor/intl-messageformat/`; it routes with the URL's fragment
(`/#/games/<id>`), so the API's paths stay the API's. Swagger UI's files come from the
`flask-swagger-ui` package, ReDoc's from `service/vendor/redoc/`, so `/docs` and `/redoc` work
offline.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from flask import Blueprint, Response, send_from_directory

WEB_DIR = Path(__file__).resolve().parents[1] / "web"
REDOC_DIR = Path(__file__).resolve().parents[1] / "vendor" / "redoc"
MESSAGEFORMAT_DIR = Path(__file__).resolve().parents[1] / "vendor" / "intl-messageformat"
SWAGGER_UI_DIR = Path(str(files("flask_swagger_ui") / "dist"))
SWAGGER_UI_URL = "/vendor/swagger-ui/"
REDOC_URL = "/vendor/redoc/redoc.standalone.js"
# The page loads only its own files and talks only to this service.
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

blp = Blueprint("web", __name__)


@blp.get("/")
def page() -> Response:
    """The web client's one page."""
    response = send_from_directory(WEB_DIR, "index.html", max_age=0)
    response.headers.update(PAGE_HEADERS)
    return response


@blp.get("/favicon.ico")
def favicon() -> Response:
    """The icon browsers ask for by themselves (the API docs' pages name none)."""
    return send_from_directory(WEB_DIR, "favicon.svg", mimetype="image/svg+xml")


@blp.get("/web/<path:filename>")
def asset(filename: str) -> Response:
    """The client's scripts, styles and images."""
    response = send_from_directory(WEB_DIR, filename, max_age=0)
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


@blp.get("/vendor/swagger-ui/<path:filename>")
def swagger_ui(filename: str) -> Response:
    """Swagger UI's released files, as the flask-swagger-ui package ships them."""
    return send_from_directory(SWAGGER_UI_DIR, filename)


@blp.get("/vendor/redoc/<path:filename>")
def redoc(filename: str) -> Response:
    """ReDoc's released bundle."""
    return send_from_directory(REDOC_DIR, filename)


@blp.get("/vendor/intl-messageformat/<path:filename>")
def messageformat(filename: str) -> Response:
    """intl-messageformat's released module, which reads the client's message catalogues."""
    response = send_from_directory(MESSAGEFORMAT_DIR, filename, max_age=0)
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response
