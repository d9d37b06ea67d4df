"""`allOf` as the intersection of its members, for members that are not objects (strings, enums,
numbers, arrays) and for a property that several object members define."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .schema_facts import ANNOTATIONS

_STRICTER_MIN = ("minimum", "minLength", "minItems", "minProperties", "exclusiveMinimum")
_STRICTER_MAX = ("maximum", "maxLength", "maxItems", "maxProperties", "exclusiveMaximum")
_REPEATABLE = ANNOTATIONS | {"type", "format"}


def intersect_all_of(schema: dict[str, Any], deref: Callable[[Any], dict[str, Any]]
                     ) -> dict[str, Any]:
    """One schema equivalent to `schema` and its allOf members, when none is an object.

    A member that is a `$ref` stays a reference when the others only annotate it (or repeat its
    `type`), so the referenced model or enum is reused; otherwise the members' keywords are
    intersected: the stricter bound, the common enum values, both `items`.
    """
    own = {k: v for k, v in schema.items() if k != "allOf"}
    members = [own, *(m for m in schema.get("allOf") or [] if isinstance(m, dict))]
    refs = [m for m in members if "$ref" in m]
    rest = [m for m in members if "$ref" not in m]
    if len(refs) == 1 and all(set(m) <= _REPEATABLE for m in rest):
        notes = {k: v for m in rest for k, v in m.items() if k in ANNOTATIONS}
        return {**notes, "$ref": refs[0]["$ref"]}
    result: dict[str, Any] = {}
    for member in members:
        target = deref(member)
        if isinstance(target.get("allOf"), list):
            target = intersect_all_of(target, deref)
        result = _intersect(result, target, member is own)
    return result


def _intersect(first: dict[str, Any], second: dict[str, Any], own: bool) -> dict[str, Any]:
    result = dict(first)
    for key, value in second.items():
        if key not in result:
            result[key] = value
        elif key in ANNOTATIONS and key != "nullable" and not own:
            continue  # the schema's own annotation, else the first member's, stays
        elif key in _STRICTER_MIN and is_number(value) and is_number(result[key]):
            result[key] = max(result[key], value)
        elif key in _STRICTER_MAX and is_number(value) and is_number(result[key]):
            result[key] = min(result[key], value)
        elif key == "enum" and isinstance(value, list) and isinstance(result[key], list):
            result[key] = [v for v in result[key] if v in value]
        elif key == "type":
            result[key] = _common_types(result[key], value)
        elif key == "items" and result[key] != value:
            result[key] = {"allOf": [result[key], value]}
        elif key == "required" and isinstance(value, list) and isinstance(result[key], list):
            result[key] = [*result[key], *(v for v in value if v not in result[key])]
        elif key == "nullable":
            result[key] = bool(result[key]) and bool(value)
    return result


def _common_types(first: Any, second: Any) -> Any:
    """The JSON types both `type`s allow (a string or 3.1's list; an integer is a number);
    the first as it was when they have none in common."""
    theirs = _types(second)
    common: list[str] = []
    for kind in _types(first):
        if kind in theirs:
            common.append(kind)
        elif {kind, "integer", "number"} == {"integer", "number"} and (
                {"integer", "number"} & set(theirs)):
            common.append("integer")
    common = list(dict.fromkeys(common))
    if not common:
        return first
    return common[0] if len(common) == 1 else common


def _types(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [t for t in value if isinstance(t, str)] if isinstance(value, list) else []


def is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def merge_properties(properties: dict[str, Any], more: Mapping[str, Any]) -> None:
    """Add `more` to `properties`; a property both define must satisfy both schemas (a later
    member's `id: {description: ...}` keeps the earlier `id: {type: string}`)."""
    for key, value in more.items():
        earlier = properties.get(key)
        if earlier is None or earlier == value or not isinstance(value, dict):
            properties[key] = value
        elif not isinstance(earlier, dict):
            properties[key] = value
        elif set(value) <= ANNOTATIONS:
            properties[key] = {"allOf": [earlier], **value}
        elif set(earlier) <= ANNOTATIONS:
            properties[key] = {"allOf": [value], **earlier}
        else:
            notes = {k: v for k, v in {**earlier, **value}.items()
                     if k in ("description", "default", "title")}
            properties[key] = {"allOf": [earlier, value], **notes}
