"""Webhooks and callbacks (`ir.Hook`): the contexts of `webhooks.py` (the receiver: a base class
and a FastAPI router) and `webhook_sender.py` (httpx senders), the modules that render them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..model.ir import Api, Hook
from ..model.typeref import TypeRef
from . import error_shapes, source

RECEIVER = "webhooks.py"
SENDER = "webhook_sender.py"
TEMPLATES = {RECEIVER: "webhooks.py.jinja", SENDER: "webhook_sender.py.jinja"}


@dataclass(frozen=True)
class HookView:
    """One hook as the templates print it: every expression computed here."""

    method: str
    http_method: str
    route: str
    doc: str
    body: str | None  # the body's annotation (JSON bodies only)
    body_required: bool
    result: str  # the receiver's return annotation, the sender's result
    parsed: str | None  # the type the sender validates a non-empty answer into
    status: int  # the answer's status when the receiver returns a body
    empty_status: int  # ... when it returns None
    security: tuple[str, ...]  # declared schemes, which the receiver does not check


def _doc(hook: Hook) -> str:
    op = hook.operation
    where = (f"Webhook `{hook.name}`" if hook.kind == "webhook" else
             f"Callback `{hook.name}` of `{hook.owner}`, sent to `{op.path}`")
    text = op.summary or op.description
    parts = [f"{where}: {text.strip()}" if text else where + "."]
    if op.description and op.summary and op.description.strip() != op.summary.strip():
        parts.append(op.description.strip())
    if op.deprecated:
        parts.append("Deprecated: the contract marks this operation `deprecated`.")
    return "\n\n".join(parts)


def _types(hook: Hook) -> list[TypeRef]:
    op = hook.operation
    found = [r.type for r in op.success if r.kind == "json" and r.type is not None]
    if op.body is not None and op.body.kind == "json" and op.body.type is not None:
        found.append(op.body.type)
    return found


def _view(hook: Hook) -> HookView:
    op = hook.operation
    body = None
    if op.body is not None and op.body.kind == "json" and op.body.type is not None:
        body = source.type_source(op.body.type, "models.")
    typed = [source.type_source(r.type, "models.") for r in op.success
             if r.kind == "json" and r.type is not None]
    untyped = not typed or any(r.kind != "json" or r.type is None for r in op.success)
    codes = [r.status_code for r in op.success if r.status_code is not None]
    empty = [r.status_code for r in op.success if r.kind == "empty" and r.status_code is not None]
    status = codes[0] if codes else 200
    return HookView(
        method=op.method_name, http_method=op.http_method, route=hook.route, doc=_doc(hook),
        body=body, body_required=op.body is not None and op.body.required,
        result=" | ".join(dict.fromkeys([*typed, *(["None"] if untyped else [])])),
        parsed=" | ".join(dict.fromkeys(typed)) or None,
        status=status, empty_status=empty[0] if empty else status, security=hook.security)


def hooks_context(api: Api, name: str) -> dict[str, Any]:
    """The template context of `webhooks.py` or `webhook_sender.py`."""
    types = [ref for hook in api.hooks for ref in _types(hook)]
    context = {"hooks": [_view(hook) for hook in api.hooks], "types": types,
               "uses_models": any(any(ref.model_names()) for ref in types)}
    return {**context, **_receiver_errors(api)} if name == RECEIVER else context


def _receiver_errors(api: Api) -> dict[str, Any]:
    """What the receiver needs to answer its errors in each hook's declared shapes."""
    operations = [hook.operation for hook in api.hooks]
    builders, per_hook = error_shapes.builders_of(operations, lambda op: op.method_name)
    return {
        "error_builders": builders,
        "hook_error_builders": {hook: found for hook, found in per_hook.items() if found},
        "hook_error_media": {op.method_name: media for op in operations
                             if (media := error_shapes.error_media(op))},
        "hook_statuses": {op.method_name: found for op in operations
                          if (found := error_shapes.statuses(op))},
    }
