"""A form body's `encoding` as the generated code honours it: the fields in
deepObject style (Stripe: `metadata[key]=v`, `expand[0]=x`, `items[0][price]=p`), and a
located warning for each style it does not write."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..spec.tree import escape
from .schema_facts import deref, required_names

Warn = Callable[[str, str], None]


def deep_fields(media: Any, kind: str, at: str, warn: Warn,
                document: Mapping[str, Any] | None = None) -> frozenset[str]:
    """The wire names of a form body's fields whose `encoding` says `style: deepObject` (`at`:
    the media type object's pointer): in a multipart body too (as OpenAPI 3.1 reads `style`,
    and Stripe's file upload means it), each key its own text part. Any other style, or
    `explode: false`, is warned about: such a field is sent as repeated keys (`a=1&a=2`)."""
    encoding = media.get("encoding") if isinstance(media, dict) else None
    if kind not in ("form", "multipart") or not isinstance(encoding, dict):
        return frozenset()
    deep = set()
    for wire, spec in encoding.items():
        if not isinstance(spec, dict):
            continue
        style = spec.get("style", "form")
        if style == "deepObject":
            deep.add(str(wire))
            if document is not None:
                _required_empties(document, media, str(wire), f"{at}/encoding/{escape(str(wire))}",
                                  warn)
        elif style != "form" or spec.get("explode") is False:
            warn(f"form field `{wire}`: encoding style `{style}` (explode "
                 f"{str(spec.get('explode', style == 'form')).lower()}) is not written: the "
                 "field is sent as `form` explodes it (repeated keys)",
                 f"{at}/encoding/{escape(str(wire))}")
    return frozenset(deep)


def _required_empties(document: Mapping[str, Any], media: Any, wire: str, at: str,
                      warn: Warn) -> None:
    """Warn of the required lists and objects inside a deepObject field that may be empty:
    bracket notation has no spelling for `[]` or `{}` (nor has Stripe's own encoder), so an
    empty one is not sent and the server refuses the request as missing it."""
    schema = deref(document, deref(document, media.get("schema")).get("properties", {}).get(wire))
    found = _emptiable(document, schema, wire, set())
    if found:
        shown = ", ".join(f"`{path}`" for path in found[:3]) + (" ..." if len(found) > 3 else "")
        warn(f"form field `{wire}` (deepObject): {shown} {'is' if len(found) == 1 else 'are'} "
             "required, but an empty list or object has no spelling in bracket notation: an "
             "empty one is not sent, and the server refuses the request as missing it (hint: "
             "`minItems: 1` or `minProperties: 1`, if the API means it)", at)


def _emptiable(document: Mapping[str, Any], schema: dict[str, Any], path: str,
               seen: set[int]) -> list[str]:
    """The paths of the required properties under `schema` that may be `[]` or `{}`."""
    if id(schema) in seen:
        return []
    seen.add(id(schema))
    found: list[str] = []
    for key in ("anyOf", "oneOf", "allOf"):
        for member in schema.get(key) or []:
            found += _emptiable(document, deref(document, member), path, seen)
    if isinstance(schema.get("items"), dict):
        found += _emptiable(document, deref(document, schema["items"]), f"{path}[]", seen)
    required = set(required_names(schema))
    for name, prop in (schema.get("properties") or {}).items():
        prop = deref(document, prop)
        if name in required and _may_be_empty(document, prop):
            found.append(f"{path}.{name}")
        found += _emptiable(document, prop, f"{path}.{name}", seen)
    return found


def _may_be_empty(document: Mapping[str, Any], schema: dict[str, Any]) -> bool:
    members = [deref(document, m) for m in schema.get("anyOf") or schema.get("oneOf") or []]
    if members:
        return any(_may_be_empty(document, m) for m in members)
    if schema.get("type") == "array" or "items" in schema:
        return not schema.get("minItems")
    if schema.get("type") == "object" or "properties" in schema:
        return not required_names(schema) and not schema.get("minProperties")
    return False
