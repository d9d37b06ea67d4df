"""A form body's `encoding` as the generated code honours it: the fields in
deepObject style (Stripe: `metadata[key]=v`, `expand[0]=x`, `items[0][price]=p`), and a
located warning for each style it does not write; and, for those fields and deepObject query
parameters, a warning of the empty lists and objects bracket notation cannot spell."""

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
                _form_empties(document, media, str(wire), f"{at}/encoding/{escape(str(wire))}",
                              warn)
        elif style != "form" or spec.get("explode") is False:
            warn(f"form field `{wire}`: encoding style `{style}` (explode "
                 f"{str(spec.get('explode', style == 'form')).lower()}) is not written: the "
                 "field is sent as `form` explodes it (repeated keys)",
                 f"{at}/encoding/{escape(str(wire))}")
    return frozenset(deep)


def _form_empties(document: Mapping[str, Any], media: Any, wire: str, at: str,
                  warn: Warn) -> None:
    body = deref(document, media.get("schema"))
    schema = deref(document, (body.get("properties") or {}).get(wire))
    unspellable_empties(document, schema, f"form field `{wire}`", wire,
                        required=wire in required_names(body),
                        warn=lambda message: warn(message, at))


def unspellable_empties(document: Mapping[str, Any], schema: dict[str, Any], what: str,
                        wire: str, *, required: bool, warn: Callable[[str], None]) -> None:
    """Warn of the lists and objects in a deepObject value (`what`: a form field or a query
    parameter, named `wire`) that may be empty: bracket notation has no spelling for `[]` or
    `{}` (nor has Stripe's own encoder), so the client sends nothing for an empty one. A
    required one: the server refuses the request as missing it; an optional one inside the
    value (Stripe's `items[].tax_rates`): the server reads it as absent."""
    needed: list[str] = [wire] if required and _may_be_empty(document, schema) else []
    optional: list[str] = []
    _emptiable(document, schema, wire, set(), needed=needed, optional=optional)
    if needed:
        warn(f"{what} (deepObject): {_shown(needed)} {'is' if len(needed) == 1 else 'are'} "
             "required, but an empty list or object has no spelling in bracket notation: an "
             "empty one is not sent, and the server refuses the request as missing it (hint: "
             "`minItems: 1` or `minProperties: 1`, if the API means it)")
    if optional:
        warn(f"{what} (deepObject): {_shown(optional)} may be an empty list or object, which "
             "has no spelling in bracket notation: the client sends nothing for an empty one "
             "(as Stripe's own encoder does), and the server reads it as absent")


def _shown(paths: list[str]) -> str:
    return ", ".join(f"`{path}`" for path in paths[:3]) + (" ..." if len(paths) > 3 else "")


def _emptiable(document: Mapping[str, Any], schema: dict[str, Any], path: str,
               seen: set[int], *, needed: list[str], optional: list[str]) -> None:
    """The paths of the properties under `schema` that may be `[]` or `{}`: the required ones
    into `needed`, the others into `optional`."""
    if id(schema) in seen:
        return
    seen.add(id(schema))
    for key in ("anyOf", "oneOf", "allOf"):
        for member in schema.get(key) or []:
            _emptiable(document, deref(document, member), path, seen, needed=needed,
                       optional=optional)
    if isinstance(schema.get("items"), dict):
        _emptiable(document, deref(document, schema["items"]), f"{path}[]", seen,
                   needed=needed, optional=optional)
    required = set(required_names(schema))
    for name, prop in (schema.get("properties") or {}).items():
        prop = deref(document, prop)
        if _may_be_empty(document, prop):
            (needed if name in required else optional).append(f"{path}.{name}")
        _emptiable(document, prop, f"{path}.{name}", seen, needed=needed, optional=optional)


def _may_be_empty(document: Mapping[str, Any], schema: dict[str, Any]) -> bool:
    members = [deref(document, m) for m in schema.get("anyOf") or schema.get("oneOf") or []]
    if members:
        return any(_may_be_empty(document, m) for m in members)
    if schema.get("type") == "array" or "items" in schema:
        return not schema.get("minItems")
    if schema.get("type") == "object" or "properties" in schema:
        return not required_names(schema) and not schema.get("minProperties")
    return False
