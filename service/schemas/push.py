"""Schemas of Web Push: the service's public key, a browser's subscription, and a player's
notification preferences."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import marshmallow as ma
from marshmallow import fields, validate

from play.push import LANGUAGES, NOTICES, WANTED_AT_FIRST
from service.schemas.base import Schema

BASE64URL = "^[A-Za-z0-9_-]+={0,2}$"
CLOCK = "^([01][0-9]|2[0-3]):[0-5][0-9]$"


class VapidKeySchema(Schema):
    """The application server key a browser subscribes with (`applicationServerKey`)."""

    publicKey = fields.String(
        required=True,
        metadata={"description": "the VAPID public key: an uncompressed P-256 point, base64url"},
    )


class SubscriptionKeysSchema(Schema):
    """The browser's keys for encrypting pushes (RFC 8291)."""

    p256dh = fields.String(
        required=True,
        validate=[validate.Length(min=86, max=88), validate.Regexp(BASE64URL)],
        metadata={"description": "the browser's P-256 public key, base64url"},
    )
    auth = fields.String(
        required=True,
        validate=[validate.Length(min=22, max=24), validate.Regexp(BASE64URL)],
        metadata={"description": "the 16-byte authentication secret, base64url"},
    )


class NewSubscriptionSchema(Schema):
    """A browser's PushSubscription, as `JSON.stringify(subscription)` writes it."""

    endpoint = fields.String(
        required=True,
        validate=validate.Length(min=12, max=2000),
        metadata={"description": "the push service's https URL for this browser"},
    )
    keys = fields.Nested(SubscriptionKeysSchema, required=True)
    expirationTime = fields.Integer(
        load_default=None, allow_none=True, validate=validate.Range(min=0),
        metadata={"description": "when the subscription ends (Unix ms), if the browser knows"},
    )  # fmt: skip


class SubscriptionSchema(Schema):
    """One of the player's push subscriptions (its keys are not shown again)."""

    id = fields.String(required=True, metadata={"description": "the subscription's id"})
    endpoint = fields.String(required=True)
    expirationTime = fields.Integer(allow_none=True, required=True)
    device = fields.String(
        allow_none=True, required=True,
        metadata={"description": "the device (player token) that made it; it ends with it"},
    )  # fmt: skip
    created_at = fields.String(required=True, metadata={"format": "date-time"})
    current = fields.Boolean(
        required=True, metadata={"description": "made by this request's device"}
    )


class SubscriptionsSchema(Schema):
    """The player's push subscriptions."""

    subscriptions = fields.List(fields.Nested(SubscriptionSchema), required=True)


TIME_ZONE_FORMAT = "iana-time-zone"  # the OpenAPI format of a time zone's name


def _time_zone(name: str) -> None:
    """A validator: an IANA time zone name."""
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as error:
        raise ma.ValidationError("Not an IANA time zone (such as Asia/Tokyo).") from error


class QuietHoursSchema(Schema):
    """Hours in which nothing is pushed, in the player's time zone (they may run past midnight)."""

    start = fields.String(required=True, validate=validate.Regexp(CLOCK),
                          metadata={"description": "HH:MM, 24-hour clock"})  # fmt: skip
    end = fields.String(required=True, validate=validate.Regexp(CLOCK),
                        metadata={"description": "HH:MM, 24-hour clock"})  # fmt: skip
    time_zone = fields.String(
        required=True,
        validate=[validate.Length(min=1, max=64), validate.Regexp(r"^[A-Za-z0-9_+/-]+$"),
                  _time_zone],
        metadata={"description": "an IANA time zone, such as Asia/Tokyo",
                  "format": TIME_ZONE_FORMAT},
    )  # fmt: skip


def _notice_field(name: str) -> fields.Boolean:
    return fields.Boolean(load_default=WANTED_AT_FIRST[name],
                          metadata={"description": f"push `{name}` notices"})  # fmt: skip


NoticesSchema = Schema.from_dict(
    {name: _notice_field(name) for name in NOTICES}, name="NotificationNotices"
)


class PreferencesSchema(Schema):
    """Which notices are pushed, when not, and in which language (a PUT replaces them all;
    a notice left out takes its default: every one but chat)."""

    notices = fields.Nested(NoticesSchema, load_default=lambda: dict(WANTED_AT_FIRST))
    quiet_hours = fields.Nested(QuietHoursSchema, load_default=None, allow_none=True)
    lang = fields.String(load_default="en", validate=validate.OneOf(LANGUAGES),
                         metadata={"description": "the language of the pushes' words"})  # fmt: skip

    @ma.post_load
    def _whole(self, data: dict[str, Any], **_: Any) -> dict[str, Any]:
        return {"notices": {**WANTED_AT_FIRST, **data["notices"]},
                "quiet_hours": data["quiet_hours"], "lang": data["lang"]}  # fmt: skip
