"""Webhooks (OpenAPI 3.1 `webhooks`) and callbacks: their schemas become models, named like an
operation's (`<Name>WebhookRequest`, `<OperationId><Callback>CallbackRequest`), and each becomes
a `Hook`: a receiver method and route (`webhooks.py`) and a sender method (`webhook_sender.py`).
What of them is not generated (parameters, bodies other than JSON, declared security) gets a
located warning."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from ..spec.paths import HTTP_METHODS, iter_operations
from ..spec.tree import escape
from .ir import Hook, Operation
from .keywords import Notes
from .operations import OperationBuilder
from .schema_facts import deref


def _methods(item: Any) -> list[tuple[str, dict[str, Any]]]:
    return [(m, op) for m, op in item.items() if m in HTTP_METHODS and isinstance(op, dict)]


def _schemes(raw: Mapping[str, Any]) -> tuple[str, ...]:
    """The security schemes a hook operation (`raw`, as declared) names."""
    security = raw.get("security")
    return tuple(sorted({str(name) for requirement in security if isinstance(requirement, Mapping)
                         for name in requirement})) if isinstance(security, list) else ()


def _unsupported(op: Operation, raw: Mapping[str, Any]) -> list[str]:
    """What the generated receiver and sender leave out of `op` (`raw`, as declared)."""
    schemes = _schemes(raw)
    missing = [f"its security ({', '.join(schemes)}: not checked on receipt, so "
               "create_webhook_router refuses to build without insecure_no_auth=True; not sent)"
               ] if schemes else []
    missing += [f"{p.location} parameter `{p.wire}`" for p in
               (*op.path_params, *op.query_params, *op.header_params, *op.cookie_params)]
    if op.body is not None and op.body.kind != "json":
        missing.append(f"its {op.body.media_type} body")
    missing += [f"its {r.status} {r.media_type} answer" for r in op.success
                if r.kind not in ("json", "empty")]
    return missing


def _hook(kind: Literal["webhook", "callback"], name: str, op: Operation, raw: Mapping[str, Any],
          *, owner: str | None, pointer: str, notes: Notes) -> Hook:
    missing = _unsupported(op, raw)
    if missing:
        notes.warn(f"{kind} `{name}` ({op.http_method}): the generated receiver and sender leave "
                   f"out {', '.join(missing)}", pointer)
    folder = "webhooks" if kind == "webhook" else "callbacks"
    return Hook(kind, name, op, owner, f"/{folder}/{op.method_name}", _schemes(raw))


def hook_models(document: Mapping[str, Any], builder: OperationBuilder, notes: Notes) -> list[Hook]:
    """Every webhook and callback, with its models; warn for what is not generated of them."""
    hooks: list[Hook] = []
    webhooks = document.get("webhooks")
    for name, item in webhooks.items() if isinstance(webhooks, Mapping) else ():
        item = deref(document, item)
        for method, op in _methods(item):
            operation = builder.model_only(str(name), method, op, item.get("parameters") or [],
                                           f"{name} webhook")
            hooks.append(_hook("webhook", str(name), operation, op, owner=None,
                               pointer=f"/webhooks/{escape(name)}/{method}", notes=notes))
    for site in iter_operations(document, lambda item, at: (deref(document, item), at)):
        callbacks = site.operation.get("callbacks")
        for name, callback in callbacks.items() if isinstance(callbacks, Mapping) else ():
            callback = deref(document, callback)
            for expression, item in callback.items():
                item = deref(document, item)
                for method, op in _methods(item):
                    operation = builder.model_only(
                        str(expression), method, op, item.get("parameters") or [],
                        f"{site.operation_id} {name} callback")
                    hooks.append(_hook(
                        "callback", str(name), operation, op, owner=site.operation_id,
                        pointer=f"{site.pointer}/callbacks/{escape(name)}/{escape(expression)}/"
                        f"{method}", notes=notes))
    return hooks
