"""Error bodies the generated server builds itself (401, 422/400, 500, 501).

The generated server must answer its own errors in the shape the contract declares, so for each
declared error schema we derive an `ErrorBody` filling it from `status`, `code`, `message` and
`errors`: `{"detail": ...}` for Otari's `Error`, `{"success": False, "error": {"code": ...,
"message": ...}}` for TPMJS's `ErrorResponse` (`emit.error_shapes` spells it). A service may
override `error_body` instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .response_shape import ErrorBody
from .schema_facts import required_names

_MESSAGE = ("message", "msg", "title", "reason", "description", "error_description")
_CODE = ("code", "error_code", "errorcode", "type", "kind", "error_type")
_STATUS = ("status", "status_code", "statuscode", "http_status")
_FALLBACK_CODES = ("INTERNAL_ERROR", "UNKNOWN", "ERROR")
MESSAGE, STATUS, CODE = ErrorBody("message"), ErrorBody("status"), ErrorBody("code")
FALSE = ErrorBody("value", False)


def _merged(schema: dict[str, Any], deref: Callable[[Any], dict[str, Any]]) -> dict[str, Any]:
    """`schema` with the properties and required names of its `allOf` members merged in."""
    members = [deref(m) for m in schema.get("allOf") or [] if isinstance(m, dict)]
    if not members:
        return schema
    merged = {k: v for k, v in schema.items() if k != "allOf"}
    properties = dict(schema.get("properties") or {})
    required = required_names(schema)
    for member in members:
        member = _merged(member, deref)
        properties = {**(member.get("properties") or {}), **properties}
        required += [r for r in required_names(member) if r not in required]
        if "type" in member:
            merged.setdefault("type", member["type"])
    return {**merged, "properties": properties, "required": required}


def error_body(schema: Any, deref: Callable[[Any], dict[str, Any]], depth: int = 0) -> ErrorBody:
    """The body the server builds for `schema`."""
    schema = _merged(deref(schema), deref)
    if depth > 4:
        return MESSAGE
    if (fixed := _fixed(schema)) is not None:
        return fixed
    properties = schema.get("properties") or {}
    if not properties:
        kind = schema.get("type")
        if kind == "object" or "additionalProperties" in schema:
            return ErrorBody("object", fields=(("detail", MESSAGE),))
        return _scalar(schema)
    required = set(required_names(schema))
    entries: list[tuple[str, ErrorBody]] = []
    for name, prop in properties.items():
        key = name.lower()
        interesting = key in _MESSAGE or key in _CODE or key in _STATUS or key in (
            "detail", "details", "error", "errors")
        if name not in required and not interesting:
            continue
        entries.append((name, _property(key, deref(prop), deref, depth)))
    return ErrorBody("object", fields=tuple(entries))


def _property(key: str, schema: dict[str, Any], deref: Callable[[Any], dict[str, Any]],
              depth: int) -> ErrorBody:
    if (fixed := _fixed(schema)) is not None:
        return fixed
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    if "object" in kinds or schema.get("properties"):
        return error_body(schema, deref, depth + 1)
    if kinds == ["array"] and deref(schema.get("items") or {}).get("type") == "string":
        return ErrorBody("lines")  # Conduit's `{errors: {body: [string]}}`
    if key in ("detail", "errors", "details") and kinds == ["array"]:
        return ErrorBody("detail" if key == "detail" else "errors")
    if key == "detail" and ("string" not in kinds or len(kinds) > 1):
        return ErrorBody("errors_or_message")
    if key in _STATUS and ("integer" in kinds or "number" in kinds):
        return STATUS
    if key in _CODE and "string" in kinds:
        return CODE
    return _scalar(schema)  # an integer code: the status


def _scalar(schema: dict[str, Any]) -> ErrorBody:
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    if "string" in kinds or kind is None:
        return MESSAGE
    if "integer" in kinds or "number" in kinds:
        return STATUS
    if "boolean" in kinds:
        return FALSE
    if "array" in kinds:
        items = schema.get("items")
        string_items = isinstance(items, dict) and items.get("type") == "string"
        return ErrorBody("lines" if string_items else "errors")
    return MESSAGE


def _fixed(schema: dict[str, Any]) -> ErrorBody | None:
    """A `const`'s value, or one of an `enum`'s: the code when they are strings."""
    values = [schema["const"]] if "const" in schema else schema.get("enum")
    if not isinstance(values, list) or not values:
        return None
    if len(values) > 1 and all(isinstance(v, str) for v in values):
        fallback = next((c for c in _FALLBACK_CODES if c in values), values[0])
        return ErrorBody("code", fallback, among=tuple(values))
    if len(values) > 1 and all(isinstance(v, bool) for v in values):
        return FALSE
    return ErrorBody("value", values[0])
