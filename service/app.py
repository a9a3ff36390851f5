"""The Flask app factory: flask-smorest Api, problem+json errors, metrics, CORS, blueprints.

Add a resource by appending its module (which defines a flask-smorest `blp`) to BLUEPRINTS.
Settings come from the environment; see play.settings for the names.
"""

from __future__ import annotations

import http
import importlib
import types
from collections.abc import Callable, Iterable, Mapping
from typing import IO, Any

from flask import Flask
from flask_cors import CORS
from flask_smorest import Api, Blueprint
from flask_smorest.utils import prepare_response
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import BaseConverter

from events.connection import connect, redis_url
from events.players import DEVICE_ID, PLAYER_ID
from events.store import GAME_ID
from play.context import Context
from play.settings import Settings
from service import apidoc, errors, examples, metrics, requestlog
from service.blueprints import web
from service.blueprints.base import BODY_METHODS
from service.deps import EXTENSION, Services, services
from service.jsonprovider import OrjsonProvider
from service.ratelimit import READS, RateLimiter, install_limiter
from service.routing import RememberingMap
from service.schemas.base import ProblemSchema
from service.schemas.commands import COMMAND_COMPONENTS, COMMAND_SCHEMAS
from service.schemas.events import EVENT_SCHEMAS
from service.schemas.games import TurnReadySchema

# Modules defining a flask-smorest `blp`, registered in this order.
BLUEPRINTS: tuple[str, ...] = (
    "service.blueprints.health",
    "service.blueprints.games",
    "service.blueprints.seats",
    "service.blueprints.commands",
    "service.blueprints.feed",
    "service.blueprints.editions",
    "service.blueprints.stream",
    "service.blueprints.chat",
    "service.blueprints.players",
    "service.blueprints.push",
    "service.blueprints.queue",
    "service.blueprints.ratings",
    "service.blueprints.tutorials",
)

API_TITLE = "Love Letter"
API_VERSION = "1"
OPENAPI_VERSION = "3.1.0"
EXPOSED_HEADERS = ("Retry-After", "ETag", "Location", "X-Request-ID")
API_DESCRIPTION = f"""\
An event-sourced Love Letter game service.

Every error is an RFC 9457 problem (`application/problem+json`) whose `type` is
`{errors.PROBLEM_BASE}<slug>`; the slugs are stable: `bad-request`, `malformed-json`,
`validation-error` (with the invalid fields in `errors`), `unauthorized`, `forbidden`,
`not-found`, `method-not-allowed`, `conflict`, `payload-too-large`, `unsupported-media-type`,
`rate-limited` (with `Retry-After`), `service-unavailable` and `not-replicated` (both with
`Retry-After`), plus those of the game resources.

A seat acts with its token as `Authorization: Bearer <token>` (the Authorize button of /docs).
Every answer has an `X-Request-ID` (yours, if you send a well-formed one), which problems also
carry as `request_id` and the server's log line of the request shows.
"""


class LoveLetterFlask(Flask):
    """Flask, remembering which views are coroutines: flask-smorest's decorators ask again on
    every request, once per layer, and the answer never changes. Paths are matched by
    werkzeug's matcher behind a memo (service/routing.py)."""

    url_map_class = RememberingMap

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sync_views: dict[Callable[..., Any], Callable[..., Any]] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        """The function itself, or a synchronous wrapper of a coroutine function (made once)."""
        if not isinstance(func, types.FunctionType):  # e.g. bound methods, new every request
            return super().ensure_sync(func)
        found = self._sync_views.get(func)
        if found is None:
            found = self._sync_views.setdefault(func, super().ensure_sync(func))
        return found


class LoveLetterApi(Api):
    """flask-smorest's Api whose error responses are problem+json, documented as such."""

    ERROR_SCHEMA = ProblemSchema

    def _register_error_handlers(self) -> None:
        errors.register_error_handlers(self._app)

    def handle_http_exception(self, error: HTTPException) -> Any:
        """Problem+json instead of flask-smorest's own error body."""
        return errors.handle_http_exception(error)

    def _register_responses(self) -> None:
        """Lazy components for every status: problems, with Retry-After on 429 and 503."""
        retry_after = {
            "Retry-After": {
                "description": "Seconds to wait before retrying",
                "schema": {"type": "integer", "minimum": 1},
            }
        }
        for status in http.HTTPStatus:
            response: dict[str, Any] = {"description": status.phrase}
            content_type = "application/json"
            if status >= 400:
                response["schema"] = self.ERROR_SCHEMA
                content_type = errors.PROBLEM_CONTENT_TYPE
            response["headers"] = {"X-Request-ID": apidoc.REQUEST_ID}
            if status in (429, 503):
                response["headers"].update(retry_after)
            prepare_response(response, self.spec, content_type)
            self.spec.components.response(status.name, response, lazy=True)
        default = {
            "description": "Default error response",
            "schema": self.ERROR_SCHEMA,
            "headers": {"X-Request-ID": apidoc.REQUEST_ID},
        }
        prepare_response(default, self.spec, errors.PROBLEM_CONTENT_TYPE)
        self.spec.components.response(self.DEFAULT_ERROR_RESPONSE_NAME, default, lazy=True)


def create_app(
    config: Mapping[str, Any] | None = None, *, extra_blueprints: Iterable[Blueprint] = ()
) -> Flask:
    """The app; `config` overrides the environment (same names) and goes into app.config."""
    settings = Settings.load(config)
    app = LoveLetterFlask(__name__)
    app.json = OrjsonProvider(app)
    app.config.update(
        API_TITLE=API_TITLE,
        API_VERSION=API_VERSION,
        OPENAPI_VERSION=OPENAPI_VERSION,
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs",
        OPENAPI_SWAGGER_UI_URL=web.SWAGGER_UI_URL,
        OPENAPI_SWAGGER_UI_CONFIG={"validatorUrl": None},  # no badge fetched from elsewhere
        OPENAPI_REDOC_PATH="redoc",
        OPENAPI_REDOC_URL=web.REDOC_URL,
        API_SPEC_OPTIONS={"info": {"description": API_DESCRIPTION}},
        MAX_CONTENT_LENGTH=settings.max_body_bytes + 1,  # a chunked body: see _check_body
    )
    app.config.update(config or {})
    metrics.install_request_metrics(app)  # first, so it times everything after it
    requestlog.install(app)  # next, so every answer after it has an id and a log line
    app.before_request(_check_body)
    if settings.cors_origins:
        CORS(app, origins=list(settings.cors_origins), expose_headers=list(EXPOSED_HEADERS))
    if settings.trusted_proxies:
        hops = settings.trusted_proxies
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)  # type: ignore[method-assign]
    app.extensions[EXTENSION] = built = build_services(settings)
    install_limiter(app, rate_limiter(built))
    app.url_map.converters["game_id"] = GameIdConverter
    app.url_map.converters["player_id"] = PlayerIdConverter
    app.url_map.converters["tutorial"] = TutorialNameConverter
    app.url_map.converters["device_id"] = DeviceIdConverter
    api = LoveLetterApi(app, spec_kwargs={"extra_plugins": [apidoc.ContractPlugin()]})
    document(api)
    api.register_converter(GameIdConverter, lambda _: GAME_ID_SCHEMA)
    api.register_converter(PlayerIdConverter, lambda _: PLAYER_ID_SCHEMA)
    api.register_converter(TutorialNameConverter, lambda _: TUTORIAL_NAME_SCHEMA)
    api.register_converter(DeviceIdConverter, lambda _: DEVICE_ID_SCHEMA)
    for name in BLUEPRINTS:
        api.register_blueprint(importlib.import_module(name).blp)
    for blp in extra_blueprints:
        api.register_blueprint(blp)
    app.register_blueprint(web.blp)  # the web client and the docs' files: not in the API's spec
    return app


GAME_ID_SCHEMA = {"type": "string", "pattern": f"^{GAME_ID.pattern}$"}
PLAYER_ID_SCHEMA = {"type": "string", "pattern": f"^{PLAYER_ID.pattern}$"}
TUTORIAL_NAME = "[a-z0-9][a-z0-9-]{0,39}"
TUTORIAL_NAME_SCHEMA = {"type": "string", "pattern": f"^{TUTORIAL_NAME}$"}
DEVICE_ID_SCHEMA = {"type": "string", "pattern": f"^{DEVICE_ID.pattern}$"}
TURN_READY = "TurnReady"


from service.schemas.chat import PostChatSchema  # noqa: E402
from service.schemas.players import InboxEntrySchema  # noqa: E402


def document(api: Api) -> None:
    """The document's components that no view names by class: the commands (in `legal`), the
    feed's events, the webhook's payload; the bearer scheme and headers (service.apidoc)."""
    apidoc.document(api, webhooks=apidoc.turn_ready_webhook(TURN_READY, examples.turn_ready()))
    for type_name, component in COMMAND_COMPONENTS.items():
        api.spec.components.schema(component, schema=COMMAND_SCHEMAS[type_name])
    for name, schema in EVENT_SCHEMAS.items():
        api.spec.components.schema(name, component=schema)
    api.spec.components.schema(TURN_READY, schema=TurnReadySchema)
    api.spec.components.schema("InboxEntry", schema=InboxEntrySchema)
    # A chat message is a preset or a text, not both: what the schema's own check says.
    api.spec.components.schema("PostChat", schema=PostChatSchema)
    api.spec.components.schemas["PostChat"]["oneOf"] = [
        {"required": ["preset"]},
        {"required": ["text"]},
    ]


class GameIdConverter(BaseConverter):
    """A game id in a path (the store's own id pattern); others are a plain 404."""

    regex = GAME_ID.pattern


class PlayerIdConverter(BaseConverter):
    """A player id in a path (the store's own id pattern); others are a plain 404."""

    regex = PLAYER_ID.pattern


class TutorialNameConverter(BaseConverter):
    """A tutorial's name in a path (lower-case letters, digits, hyphens); others are a plain
    404."""

    regex = TUTORIAL_NAME


class DeviceIdConverter(BaseConverter):
    """A device id in a path; others are a plain 404."""

    regex = DEVICE_ID.pattern


def build_services(settings: Settings) -> Services:
    """The Redis client (REDIS_URL or the embedded server) and the use cases' context on it,
    whose head cache the append hub keeps current (an API process serves many games' seats)."""
    client = connect(settings.redis_url or redis_url())
    queue_client = connect(settings.queue_url) if settings.queue_url else None
    context = Context.on(client, settings, queue_client)
    context.heads.follow(context.hub)
    metrics.TALLY.gauge(metrics.WAITERS, context.hub.parked)  # the clients waiting in /metrics
    return Services(settings, client, context)


def rate_limiter(built: Services) -> RateLimiter:
    """The app's rate limiter, counting in the app's Redis."""
    return RateLimiter(
        built.redis,
        namespace=built.settings.namespace,
        address_limit=built.settings.rate_limit_address,
        seat_limit=built.settings.rate_limit_seat,
        bucket_limits={READS: built.settings.rate_limit_reads},
        waiters_per_address=built.settings.waiters_per_address,
    )


def api_of(app: Flask) -> Api:
    """The app's flask-smorest Api (e.g. to register a blueprint after create_app)."""
    found: Api = app.extensions["flask-smorest"]["apis"][""]["ext_obj"]
    return found


def _check_body() -> None:
    """Refuse oversized bodies (413) and bodies that are not JSON (415) before any view runs.

    A chunked body has no Content-Length: it is read here, at most one byte past the limit (the
    app's MAX_CONTENT_LENGTH), and the rest of a longer one is read and dropped (see _drain).
    """
    seen = requestlog.current_request()  # one lookup of the proxy, not one per use
    if seen.method not in BODY_METHODS:
        return  # a body is never read for other methods
    length = seen.content_length
    limit = services().settings.max_body_bytes
    if length is not None and length > limit:
        raise _too_large(f"The request body has {length} bytes; at most {limit} are accepted.")
    chunked = "chunked" in seen.headers.get("Transfer-Encoding", "").lower()
    if (length or chunked) and not seen.is_json:
        raise errors.ApiError(
            415,
            "unsupported-media-type",
            "Unsupported media type",
            "The request body must be JSON (Content-Type: application/json).",
        )
    if chunked and len(seen.get_data(cache=True)) > limit:
        _drain(seen.environ["wsgi.input"])
        raise _too_large(f"The request body has more than {limit} bytes, the most accepted.")


DRAIN_BYTES = 1 << 20


def _drain(body: IO[bytes]) -> None:
    """Read and drop the rest of a refused body, up to DRAIN_BYTES: a client that sends all of
    its body before it reads the answer gets the 413 and keeps its connection (the server would
    otherwise close it on the unread body, and the client would see a broken pipe)."""
    dropped = 0
    while dropped < DRAIN_BYTES and (chunk := body.read(64 * 1024)):
        dropped += len(chunk)


def _too_large(detail: str) -> errors.ApiError:
    return errors.ApiError(413, "payload-too-large", "Payload too large", detail)
