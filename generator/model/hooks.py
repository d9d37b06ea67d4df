"""Webhooks (OpenAPI 3.1 `webhooks`) and callbacks: their schemas become models, named like an
operation's (`<Name>WebhookRequest`, `<OperationId><Callback>CallbackRequest`), and each gets a
located warning that no receiver or sender is generated for it: nothing is dropped silently."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..spec.paths import HTTP_METHODS, iter_operations
from ..spec.tree import escape
from .keywords import Notes
from .operations import OperationBuilder
from .schema_facts import deref


def _methods(item: Any) -> list[tuple[str, dict[str, Any]]]:
    return [(m, op) for m, op in item.items() if m in HTTP_METHODS and isinstance(op, dict)]


def hook_models(document: Mapping[str, Any], builder: OperationBuilder, notes: Notes) -> None:
    """Build the models of every webhook and callback; warn once for each of them."""
    webhooks = document.get("webhooks")
    for name, item in webhooks.items() if isinstance(webhooks, Mapping) else ():
        item = deref(document, item)
        for method, op in _methods(item):
            builder.model_only(str(name), method, op, item.get("parameters") or [],
                               f"{name} webhook")
            notes.warn(f"webhook `{name}` ({method.upper()}): no receiver is generated; its "
                       "request and response schemas are models in models.py",
                       f"/webhooks/{escape(name)}/{method}")
    for site in iter_operations(document, lambda item, at: (deref(document, item), at)):
        callbacks = site.operation.get("callbacks")
        for name, callback in callbacks.items() if isinstance(callbacks, Mapping) else ():
            callback = deref(document, callback)
            for expression, item in callback.items():
                item = deref(document, item)
                for method, op in _methods(item):
                    builder.model_only(str(expression), method, op, item.get("parameters") or [],
                                       f"{site.operation_id} {name} callback")
                    notes.warn(
                        f"callback `{name}` of `{site.operation_id}` ({method.upper()} "
                        f"{expression}): the server does not send it and no receiver is "
                        "generated; its request and response schemas are models in models.py",
                        f"{site.pointer}/callbacks/{escape(name)}/{escape(expression)}/{method}")
