"""What server.py needs to answer its own errors in the contract's shapes: each operation's
body builders and media types, and the app's, for requests that match no operation (404)."""

from __future__ import annotations

from collections import Counter

from ..model.ir import Api, Operation

# The key, in `_ERROR_BODIES` and `_ERROR_MEDIA`, of requests that match no operation.
APP = ""


def error_media(op: Operation) -> dict[str, str]:
    """Each declared error status's media type (JSON or text) and `*`'s (the `default`
    response's, else the first's), when one of them is not application/json."""
    responses = [e.response for e in op.errors]
    media = {r.status.upper() if r.status != "default" else "default": r.media_type
             for r in responses if r.kind in ("json", "text") and r.media_type}
    fallback = next((r for r in responses if r.status == "default"), None) or (
        responses[0] if responses else None)
    if fallback is not None and fallback.kind in ("json", "text") and fallback.media_type:
        media["*"] = fallback.media_type
    return media if any(m != "application/json" for m in media.values()) else {}


def _most_common(api: Api) -> Operation | None:
    """The operation whose fallback error body most operations share: the app's."""
    counts = Counter(dict(op.error_bodies).get("*") for op in api.operations)
    common = counts.most_common(1)[0][0] if counts else None
    return next((op for op in api.operations if dict(op.error_bodies).get("*") == common), None)


def declared_error_media(api: Api) -> dict[str, dict[str, str]]:
    """Operation id -> its error media types, for operations where one is not JSON's."""
    found = {op.id: media for op in api.operations if (media := error_media(op))}
    common = _most_common(api)
    fallback = found.get(common.id, {}).get("*") if common is not None else None
    if fallback is not None:
        found[APP] = {"*": fallback}
    return found


def error_builders(api: Api) -> tuple[list[tuple[str, str]], dict[str, list[tuple[str, str]]]]:
    """The error body builders (name, expression), and each operation's (status, builder name),
    the app's under `APP`.

    A status whose builder is the operation's `"*"` one is left out: `error_body` falls back to
    `"*"` for a status it does not find."""
    names: dict[str, str] = {}
    per_op: dict[str, list[tuple[str, str]]] = {}
    for op in api.operations:
        for _, expression in op.error_bodies:
            if expression not in names:
                names[expression] = f"_error_body_{len(names)}"
        fallback = dict(op.error_bodies).get("*")
        per_op[op.id] = [(status, names[expression]) for status, expression in op.error_bodies
                         if status == "*" or expression != fallback]
    common = _most_common(api)
    fallback = dict(common.error_bodies).get("*") if common is not None else None
    if fallback is not None:
        per_op[APP] = [("*", names[fallback])]
    return [(name, expr) for expr, name in names.items()], per_op


def wire_names(api: Api) -> dict[str, dict[str, str]]:
    """Operation id -> its path parameters' wire names by Python name, where they differ: error
    messages name what the client sent (`eventId`, not `event_id`)."""
    return {op.id: names for op in api.operations
            if (names := {p.name: p.wire for p in op.path_params if p.name != p.wire})}
