"""A test-only blueprint exercising validation, errors and rate limits through the real app."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask import request
from flask.views import MethodView

from service.blueprints.base import Blueprint
from service.deps import services
from service.errors import ApiError
from service.ratelimit import rate_limited
from service.schemas import Schema


class ItemSchema(Schema):
    """A body with a required string and an optional strict integer."""

    name = ma.fields.String(required=True, validate=ma.validate.Length(min=1, max=20))
    count = ma.fields.Integer(strict=True)


def seat_from_header() -> str | None:
    """The seat identity of a probe request: its X-Seat header."""
    return request.headers.get("X-Seat")


def make_blueprint() -> Blueprint:
    """A fresh probe blueprint (one per app)."""
    blp = Blueprint("probe", __name__, url_prefix="/probe")

    @blp.route("/items")
    class Items(MethodView):
        @blp.arguments(ItemSchema)
        @blp.response(201, ItemSchema)
        def post(self, item: dict[str, Any]) -> dict[str, Any]:
            return item

    @blp.route("/limited")
    class Limited(MethodView):
        @rate_limited("probe", seat=seat_from_header)
        @blp.response(200)
        def post(self) -> dict[str, Any]:
            return {"ok": True}

    @blp.route("/teapot")
    class Teapot(MethodView):
        def get(self) -> Any:
            raise ApiError(418, "teapot", "I'm a teapot", "Short and stout.",
                           headers={"X-Tea": "1"}, spout="left")  # fmt: skip

    @blp.route("/boom")
    class Boom(MethodView):
        def get(self) -> Any:
            raise RuntimeError("a bug")

    @blp.route("/raw")
    class Raw(MethodView):
        def post(self) -> Any:
            return {"got": request.get_json()}

    @blp.route("/store")
    class Store(MethodView):
        @blp.response(200)
        def get(self) -> Any:
            return {"version": services().context.games.store.version("probe-game")}

    return blp
