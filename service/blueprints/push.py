"""Web Push: the service's public key, a player's browsers subscribing, and which notices they
want pushed when (docs/notifications.md)."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from events.push import MOST_SUBSCRIPTIONS, Subscription, TooManySubscriptions
from events.store import iso_time
from play.push import preferences_of
from play.push_send import endpoint_problem
from play.vapid import signer
from service.apidoc import operation, problems
from service.auth import request_device, request_seat_key, require_player
from service.blueprints.base import Blueprint
from service.deps import context
from service.errors import ApiError
from service.ratelimit import rate_limited
from service.schemas.push import (
    NewSubscriptionSchema,
    PreferencesSchema,
    SubscriptionSchema,
    SubscriptionsSchema,
    VapidKeySchema,
)

blp = Blueprint("push", __name__, url_prefix="", description="Web Push notifications")

SUBSCRIPTION_EXAMPLE = {
    "endpoint": "https://fcm.googleapis.com/fcm/send/dXJsLXNhZmUtZW5kcG9pbnQ",
    "keys": {
        "p256dh": "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99"
        "e8QcYP7DkM",
        "auth": "tBHItJI5svbpez7KI4CCXg",
    },
    "expirationTime": None,
}
SUBSCRIBED_EXAMPLE = {
    "id": "3f9a1c0d2b4e6a81",
    "endpoint": SUBSCRIPTION_EXAMPLE["endpoint"],
    "expirationTime": None,
    "device": "5a0c2e9b1d7f4c36",
    "created_at": "2026-12-04T09:30:00.000Z",
    "current": True,
}
PREFERENCES_EXAMPLE = {
    "notices": {"your_turn": True, "game_started": True, "game_over": True,
                "match_found": True, "chat": False},
    "quiet_hours": {"start": "22:00", "end": "08:00", "time_zone": "Asia/Tokyo"},
    "lang": "ja",
}  # fmt: skip


@blp.route("/push/vapid-public-key")
class VapidKey(MethodView):
    """The key browsers subscribe with."""

    @blp.response(200, VapidKeySchema, example={"publicKey": "BEl62iUYgUivxIkv69yViEuiBIa-Ib9"})
    @operation("getVapidPublicKey")
    def get(self) -> dict[str, Any]:
        """The service's VAPID public key (RFC 8292), as `applicationServerKey` takes it."""
        return {"publicKey": signer(context()).public_key}


def subscription_json(found: Subscription, current: str | None) -> dict[str, Any]:
    """A subscription as its player reads it."""
    return {"id": found.id, "endpoint": found.endpoint, "expirationTime": found.expiration_time,
            "device": found.device, "created_at": iso_time(int(found.created_at * 1000)),
            "current": current is not None and found.device == current}  # fmt: skip


@blp.route("/players/me/push-subscriptions")
class Subscriptions(MethodView):
    """The player's browsers that receive pushes."""

    @rate_limited("lobby", seat=request_seat_key)
    @blp.arguments(NewSubscriptionSchema(), example=SUBSCRIPTION_EXAMPLE)
    @blp.response(201, SubscriptionSchema, example=SUBSCRIBED_EXAMPLE)
    @operation("subscribePush", token="player")
    @problems(401, 409, 422)
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Push my notices to this browser (its `PushSubscription` as JSON). It belongs to this
        request's device and ends when that device is revoked or signs out; the same endpoint
        again replaces it. An endpoint must be an https URL of a push service at a public
        address (422 `push-endpoint-refused`); a player holds at most 10 (409)."""
        player, device = require_player(), request_device()
        ctx = context()
        problem = endpoint_problem(ctx, body["endpoint"])
        if problem is not None:
            raise ApiError(422, "push-endpoint-refused", "Push endpoint refused", problem)
        keys = (body["keys"]["p256dh"], body["keys"]["auth"])
        try:
            made = ctx.push.subscribe(player, body["endpoint"], keys, body["expirationTime"],
                                      device)  # fmt: skip
        except TooManySubscriptions:
            raise ApiError(
                409, "too-many-push-subscriptions", "Conflict",
                f"A player has at most {MOST_SUBSCRIPTIONS} push subscriptions: remove one.",
            ) from None  # fmt: skip
        return subscription_json(made, device)

    @blp.response(200, SubscriptionsSchema, example={"subscriptions": [SUBSCRIBED_EXAMPLE]})
    @operation("listPushSubscriptions", token="player")
    @problems(401)
    def get(self) -> dict[str, Any]:
        """My push subscriptions, the oldest first."""
        player, device = require_player(), request_device()
        found = context().push.subscriptions(player)
        return {"subscriptions": [subscription_json(sub, device) for sub in found]}


@blp.route("/players/me/push-subscriptions/<device_id:subscription_id>")
class OneSubscription(MethodView):
    """One of the player's push subscriptions."""

    @rate_limited("lobby", seat=request_seat_key)
    @blp.response(204)
    @operation("unsubscribePush", token="player")
    @problems(401, 404)
    def delete(self, subscription_id: str) -> None:
        """Push nothing more to this subscription's browser."""
        if not context().push.unsubscribe(require_player(), subscription_id):
            raise ApiError(404, "push-subscription-not-found", "Not found",
                           "This player has no such push subscription.")  # fmt: skip


@blp.route("/players/me/notification-preferences")
class Preferences(MethodView):
    """Which notices are pushed to the player, and when not."""

    @blp.response(200, PreferencesSchema, example=PREFERENCES_EXAMPLE)
    @operation("getNotificationPreferences", token="player")
    @problems(401)
    def get(self) -> dict[str, Any]:
        """My notification preferences (the defaults until I set them: every notice but chat,
        no quiet hours, English)."""
        player = require_player()
        return preferences_of(context().push.preferences(player))

    @rate_limited("lobby", seat=request_seat_key)
    @blp.arguments(PreferencesSchema(), example=PREFERENCES_EXAMPLE)
    @blp.response(200, PreferencesSchema, example=PREFERENCES_EXAMPLE)
    @operation("setNotificationPreferences", token="player")
    @problems(401, 422)
    def put(self, body: dict[str, Any]) -> dict[str, Any]:
        """Replace my notification preferences: `notices` (each left out takes its default),
        `quiet_hours` (`start` and `end` as HH:MM in `time_zone`; they may run past midnight;
        null: none), `lang` of the pushes' words."""
        player = require_player()
        context().push.set_preferences(player, body)
        return body
