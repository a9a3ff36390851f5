"""The web client at `/` and the API docs' own files, all served from installed files.

The client is static HTML, CSS and JavaScript modules in `service/web/` (no build step), with
one message catalogue per language in `service/web/i18n/` read by the intl-messageformat
module of `service/vendor/intl-messageformat/`; it routes with the URL's fragment
(`/#/games/<id>`), so the API's paths stay the API's. Swagger UI's files come from the
`flask-swagger-ui` package, ReDoc's from `service/vendor/redoc/`, so `/docs` and `/redoc` work
offline.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from importlib.resources import files
from pathlib import Path

from flask import Blueprint, Response, abort, request, send_from_directory

from service.icons import SIZES, icon_png
from service.languages import negotiate

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


# The installable app's names and description, in each language of the client.
APP_WORDS = {
    "en": ("Love Letter", "Love Letter", "Play Love Letter with friends and bots."),
    "ja": ("ラブレター", "ラブレター", "友だちやボットとラブレターを遊べます。"),
    "ko": ("러브레터", "러브레터", "친구나 봇과 러브레터를 즐기세요."),
    "vi": ("Love Letter", "Love Letter", "Chơi Love Letter với bạn bè và bot."),
}
THEME = "#7a1f3d"


@blp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest: installable, standalone, in the language asked (`lang`, else the
    browser's), with every language's names beside (`name_localized`)."""
    lang = negotiate(request.args.get("lang"), request.headers.get("Accept-Language"))
    name, short, description = APP_WORDS[lang]
    icons = [{"src": "/web/icons/icon.svg", "sizes": "any", "type": "image/svg+xml"}]
    for size in SIZES:
        png = f"/web/icons/icon-{size}.png"
        icons.append({"src": png, "sizes": f"{size}x{size}", "type": "image/png"})
        icons.append({"src": png, "sizes": f"{size}x{size}", "type": "image/png",
                      "purpose": "maskable"})  # fmt: skip
    body = {
        "id": "/",
        "name": name,
        "short_name": short,
        "description": description,
        "lang": lang,
        "dir": "ltr",
        "start_url": "/#/",
        "scope": "/",
        "display": "standalone",
        "background_color": THEME,
        "theme_color": THEME,
        "icons": icons,
        "name_localized": {code: {"value": words[0], "lang": code}
                           for code, words in APP_WORDS.items()},
        "short_name_localized": {code: {"value": words[1], "lang": code}
                                 for code, words in APP_WORDS.items()},
        "description_localized": {code: {"value": words[2], "lang": code}
                                  for code, words in APP_WORDS.items()},
    }  # fmt: skip
    response = Response(json.dumps(body, ensure_ascii=False), mimetype="application/manifest+json")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Vary"] = "Accept-Language"
    return response


@blp.get("/web/icons/icon-<int:size>.png")
def icon(size: int) -> Response:
    """The app's icon as PNG, drawn by service/icons.py."""
    if size not in SIZES:
        abort(404)
    response = Response(icon_png(size), mimetype="image/png")
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response


@blp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, at the root so its scope is the whole app, stamped with this
    release's version (a digest of the client's files): a release changes its bytes, so the
    browser installs it and it replaces the old release's cached files."""
    version, shell = release()
    text = (WEB_DIR / "sw.js").read_text(encoding="utf-8")
    text = text.replace('"__VERSION__"', json.dumps(version))
    text = text.replace('["__SHELL__"]', json.dumps(shell))
    response = Response(text, mimetype="text/javascript")
    response.headers.update(PAGE_HEADERS)
    response.headers["Cache-Control"] = "no-cache"
    return response


@cache
def release() -> tuple[str, list[str]]:
    """This release's version of the client's files, and the app shell a service worker keeps
    (the page, its styles, scripts, catalogues, icons and the offline page)."""
    digest = hashlib.sha256()
    shell = ["/", "/manifest.webmanifest", *(f"/web/icons/icon-{size}.png" for size in SIZES)]
    for folder, prefix in ((WEB_DIR, "/web/"), (MESSAGEFORMAT_DIR, "/vendor/intl-messageformat/")):
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            relative = path.relative_to(folder).as_posix()
            digest.update(relative.encode() + b"\0" + path.read_bytes())
            if path.suffix in (".js", ".css", ".json", ".svg", ".html") and relative != "sw.js":
                shell.append(prefix + relative)
    shell.remove("/web/index.html")  # served as "/"
    return digest.hexdigest()[:16], shell


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
