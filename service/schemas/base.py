"""The base of every request/response schema, and the problem+json schema of every error."""

from __future__ import annotations

from typing import Any

import marshmallow as ma

from events.players import is_entry_id
from service.schemas.problems import PROBLEM_SLUGS

MAX_SEATS = 8  # the most seats of any edition's table
SEAT_RULE = (
    "a seat of the table, 0 to its number of seats - 1 (the document allows 0-7, the most seats"
    " of any edition; a seat beyond this table is refused with 422 `unknown-seat`)"
)


# A message or inbox entry id as documented: 19 digits a part at most, all below 2**64 (the
# range check stays for the Last-Event-ID header, read by events.players.is_entry_id).
ENTRY_ID_PATTERN = "^[0-9]{1,19}-[0-9]{1,19}$"


def entry_id_in_range(text: str) -> None:
    """A validator: a message or inbox entry id whose parts Redis can hold (below 2**64)."""
    if not is_entry_id(text):
        raise ma.ValidationError("Each part of the id must be below 2**64.")


def entry_id_rules() -> list[Any]:
    """The validators of a message or inbox entry id: its documented pattern, then its range."""
    return [ma.validate.Regexp(ENTRY_ID_PATTERN), entry_id_in_range]


class Schema(ma.Schema):
    """Base schema: unknown fields are an error (and `additionalProperties: false` in OpenAPI)."""

    class Meta:
        unknown = ma.RAISE


class ProblemSchema(ma.Schema):
    """An RFC 9457 problem: the body of every error response (members beyond these allowed)."""

    class Meta:
        unknown = ma.INCLUDE

    type = ma.fields.String(
        required=True,
        metadata={
            "description": "Stable URI of the problem kind: "
            "https://loveletter.example/problems/<slug>; `x-slugs` lists every slug with its "
            "meaning (a client may meet a newer one: show `detail` then)",
            "example": "https://loveletter.example/problems/not-found",
            "x-slugs": dict(PROBLEM_SLUGS),
        },
    )
    title = ma.fields.String(required=True, metadata={"description": "Short summary of the kind"})
    status = ma.fields.Integer(required=True, metadata={"description": "The HTTP status code"})
    detail = ma.fields.String(
        required=True, metadata={"description": "What went wrong with this request"}
    )
    code = ma.fields.String(
        metadata={
            "description": "a command refused by the rules (and idempotency-key-reused): the "
            "same slug as `type`'s",
            "example": "target-protected",
        }
    )
    errors = ma.fields.Dict(
        metadata={"description": "validation-error only: messages by location and field"}
    )
    request_id = ma.fields.String(
        metadata={"description": "The request's id (as in X-Request-ID and the server's log)"}
    )


class HealthSchema(Schema):
    """The body of a healthy /healthz."""

    status = ma.fields.String(required=True, metadata={"example": "ok"})


class StrictBoolean(ma.fields.Boolean):
    """A JSON true or false, nothing else ("yes" or 1 are refused)."""

    def _deserialize(self, value: object, attr: str | None, data: object, **kwargs: object) -> bool:
        if not isinstance(value, bool):
            raise ma.ValidationError("Not a JSON boolean.")
        return value


class WholeNumber(ma.fields.Integer):
    """A JSON number with no fractional part (`3` or `3.0`, as JSON Schema's `integer` allows);
    strings, booleans and fractions are refused."""

    def _validated(self, value: Any) -> int:
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.make_error("invalid")
        return value


def seat_number(description: str, **options: Any) -> ma.fields.Integer:
    """A seat number field (a JSON integer, 0 to 7: the rest is checked against the table)."""
    return WholeNumber(
        validate=ma.validate.Range(min=0, max=MAX_SEATS - 1),
        metadata={"description": f"{description}: {SEAT_RULE}"},
        **options,
    )
