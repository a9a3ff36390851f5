"""OpenAPI notes on views that cost nothing per request."""

from __future__ import annotations

import copy
import http
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def problems(*statuses: int) -> Callable[[F], F]:
    """Document these problem responses by their components, as flask-smorest's `alt_response`
    does, but on the view itself: each of its wrappers would cost every request a call."""

    def decorate(view: F) -> F:
        apidoc = copy.deepcopy(getattr(view, "_apidoc", {}))
        responses = apidoc.setdefault("response", {}).setdefault("responses", {})
        for status in reversed(statuses):  # the order stacked alt_response decorators give
            responses.setdefault(status, []).append(http.HTTPStatus(status).name)
        view._apidoc = apidoc  # type: ignore[attr-defined]
        return view

    return decorate
