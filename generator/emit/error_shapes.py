"""What server.py needs to answer its own errors in the contract's shapes: each operation's
body builders and media types, and the app's, for requests that match no operation (404)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence

from ..model.ir import Api, ErrorBody, Operation
from ..model.literal import literal

# The key, in `_ERROR_BODIES` and `_ERROR_MEDIA`, of requests that match no operation.
APP = ""
# What the server fills in (`ErrorBody.fill`), from the arguments of its body builders.
_FILLS = {"message": "message", "code": "code", "status": "status", "errors": "(errors or [])",
          "lines": "error_lines(message, errors)", "detail": '(errors or [{"msg": message}])',
          "errors_or_message": "(errors if errors else message)"}


def body_source(body: ErrorBody) -> str:
    """The Python expression building `body` from `status`, `code`, `message` and `errors`."""
    if body.fill == "object":
        return "{" + ", ".join(f"{literal(k)}: {body_source(v)}" for k, v in body.fields) + "}"
    if body.fill == "value":
        return literal(body.value)
    if body.among:
        return f"(code if code in {literal(body.among)} else {literal(body.value)})"
    return _FILLS[body.fill]


def _bodies(op: Operation) -> dict[str, str]:
    """Each error status's body expression (`*`: any other status), in the operation's order."""
    return {status: body_source(body) for status, body in op.error_bodies}


_WRITTEN = ("json", "text", "events")  # events: one event, its data the body (TGI)


def error_media(op: Operation) -> dict[str, str]:
    """Each declared error status's media type (JSON, text or events) and `*`'s (the `default`
    response's, else the first's), when one of them is not application/json."""
    responses = [e.response for e in op.errors]
    media = {r.status.upper() if r.status != "default" else "default": r.media_type
             for r in responses if r.kind in _WRITTEN and r.media_type}
    fallback = next((r for r in responses if r.status == "default"), None) or (
        responses[0] if responses else None)
    if fallback is not None and fallback.kind in _WRITTEN and fallback.media_type:
        media["*"] = fallback.media_type
    return media if any(m != "application/json" for m in media.values()) else {}


def _most_common(api: Api) -> Operation | None:
    """The operation whose fallback error body most operations share: the app's."""
    fallbacks = [_bodies(op).get("*") for op in api.operations]
    common = Counter(fallbacks).most_common(1)[0][0] if fallbacks else None
    return next((op for op, found in zip(api.operations, fallbacks, strict=True)
                 if found == common), None)


def declared_error_media(api: Api) -> dict[str, dict[str, str]]:
    """Operation id -> its error media types, for operations where one is not JSON's."""
    found = {op.id: media for op in api.operations if (media := error_media(op))}
    common = _most_common(api)
    fallback = found.get(common.id, {}).get("*") if common is not None else None
    if fallback is not None:
        found[APP] = {"*": fallback}
    return found


# The error body builders (name, expression), and each route's (status, builder name).
Builders = tuple[list[tuple[str, str]], dict[str, list[tuple[str, str]]]]


def error_builders(api: Api) -> Builders:
    """The server's error body builders (name, expression), and each operation's (status,
    builder name), the app's under `APP`."""
    builders, per_op = builders_of(api.operations, lambda op: op.id)
    common = _most_common(api)
    fallback = _bodies(common).get("*") if common is not None else None
    if fallback is not None:
        per_op[APP] = [("*", {expr: name for name, expr in builders}[fallback])]
    return builders, per_op


def builders_of(operations: Sequence[Operation], key: Callable[[Operation], str]) -> Builders:
    """The error body builders (name, expression) of `operations`, and each one's (status,
    builder name) under `key(op)` (the name of its route).

    A status whose builder is the operation's `"*"` one is left out: `error_body` falls back to
    `"*"` for a status it does not find."""
    names: dict[str, str] = {}
    per_op: dict[str, list[tuple[str, str]]] = {}
    for op in operations:
        bodies = _bodies(op)
        for (_, body), expression in zip(op.error_bodies, bodies.values(), strict=True):
            if expression not in names:
                names[expression] = _builder_name(body, set(names.values()))
        per_op[key(op)] = [(status, names[expression]) for status, expression in bodies.items()
                           if status == "*" or expression != bodies.get("*")]
    return [(name, expr) for expr, name in names.items()], per_op


def _builder_name(body: ErrorBody, taken: set[str]) -> str:
    """A body builder's name from what the body holds: `_error_body_with_code_message` (its
    first fields), `_error_body_of_lines` (a body that is one value); `_2`... when taken."""
    if body.fill == "object":
        keys = [re.sub(r"\W+", "_", key).strip("_").lower() or "field" for key, _ in body.fields]
        name = "_error_body_with_" + ("_".join(keys[:3]) or "nothing")
    else:
        name = "_error_body_of_" + ("constant" if body.fill == "value" else body.fill)
    return unique(name, taken)


def unique(name: str, taken: set[str]) -> str:
    """`name`, or `name_2`, `name_3`... the first not `taken`."""
    found, number = name, 1
    while found in taken:
        number += 1
        found = f"{name}_{number}"
    return found


def statuses(op: Operation) -> tuple[int, int, int] | None:
    """What `op` answers a request refused before its service (`Statuses`: validation, unknown
    discriminator tag, body too large), where that is not the undeclared (422, 422, 413)."""
    found = (op.validation_status, op.unknown_tag_status, op.too_large_status)
    return None if found == (422, 422, 413) else found


def wire_names(api: Api) -> dict[str, dict[str, str]]:
    """Operation id -> its path parameters' wire names by Python name, where they differ: error
    messages name what the client sent (`eventId`, not `event_id`)."""
    return {op.id: names for op in api.operations
            if (names := {p.name: p.wire for p in op.path_params if p.name != p.wire})}
