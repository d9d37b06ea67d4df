"""What errors.py is rendered from: the declared errors and the tree of status classes."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from ..model.ir import Api, ErrorClass
from ..model.literal import literal
from . import source

# The statuses with a class of their own in errors.py (`except errors.NotFound`), and its family.
STATUS_CLASSES = {
    400: ("BadRequest", "ClientError"), 401: ("Unauthorized", "ClientError"),
    403: ("Forbidden", "ClientError"), 404: ("NotFound", "ClientError"),
    408: ("RequestTimeout", "ClientError"), 409: ("Conflict", "ClientError"),
    422: ("UnprocessableEntity", "ClientError"), 429: ("TooManyRequests", "ClientError"),
    500: ("InternalServerError", "ServerError"), 502: ("BadGateway", "ServerError"),
    503: ("ServiceUnavailable", "ServerError"), 504: ("GatewayTimeout", "ServerError"),
}


def _status_base(status: str) -> list[str]:
    """The tree's class a declared error also is: its status's, else its range's family."""
    if status.isdigit() and int(status) in STATUS_CLASSES:
        return [STATUS_CLASSES[int(status)][0]]
    family = {"4": "ClientError", "5": "ServerError"}.get(status[0])
    return [family] if family else []


def _body_argument(error: ErrorClass) -> str:
    """DeclaredError's type argument: in a string where it names models, so that importing
    errors.py imports none (resolved when a client first reads `body_type`; issue 28)."""
    text = source.error_body_type(error)
    uses_models = error.response.type is not None and any(error.response.type.model_names())
    return literal(text) if uses_models else text


def errors_context(api: Api) -> dict[str, Any]:
    errors = api.error_classes
    uses_models = any(any(e.response.type.model_names()) for e in errors
                      if e.response.type is not None)
    example = errors[0].name if errors else "GetItemNotFound"
    return {
        "errors": errors,
        "uses_models": uses_models,
        "example_error": example,
        "error_body_type": _body_argument,
        "status_classes": [(code, name, family, HTTPStatus(code).phrase)
                           for code, (name, family) in STATUS_CLASSES.items()],
        "status_base": _status_base,
    }
