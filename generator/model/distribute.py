"""A union with object keywords around it, spread over its members (JSON Schema applies every
keyword of a schema, so none may be lost):

- `{properties: P, required: R, oneOf: [A, B]}` is `oneOf: [allOf[{P, R}, A], allOf[{P, R}, B]]`
  (GitHub's check runs: the properties beside the `oneOf` are checked in every member);
- `allOf: [oneOf[A, B], C]` is `oneOf: [allOf[C, A], allOf[C, B]]` (TGI's chat `Message`: the
  union member of an `allOf` is kept, not dropped with the objects merged).

A `$ref` member that already carries every property and required name around it (a base schema
listing the schemas that extend it) is kept as it is, and such a base is not spread into the
schemas that extend it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .allof import merge_properties
from .schema_facts import admits_null, is_null_schema, required_names

Deref = Callable[[Any], dict[str, Any]]

_OBJECT_KEYS = ("type", "properties", "required", "additionalProperties")
_UNIONS = ("oneOf", "anyOf")


def spread(schema: dict[str, Any], deref: Deref) -> dict[str, Any] | None:
    """`schema` as one union whose members carry the object keywords around it; None when no
    object keyword surrounds a union."""
    key = _union_key(schema)
    if key is not None:
        own = {k: v for k, v in schema.items() if k in _OBJECT_KEYS}
        if not own.get("properties") and not own.get("required"):
            return None
        rest = {k: v for k, v in schema.items() if k not in _OBJECT_KEYS and k != key}
        members = [_with(own, m, deref) for m in schema[key]]
        return {**rest, key: members}
    all_of = schema.get("allOf")
    if not isinstance(all_of, list):
        return None
    for index, member in enumerate(all_of):
        target = deref(member)
        inner = _union_key(target)
        if inner is None or _lists_extensions(member, target[inner], deref):
            continue
        union = spread(target, deref) or target
        others = [m for i, m in enumerate(all_of) if i != index]
        rest = {k: v for k, v in schema.items() if k != "allOf"}
        members = [m for m in (_within(others, m, deref) for m in union[inner]) if m is not None]
        if not members:
            continue
        result = {**rest, inner: members}
        if "discriminator" in union and "discriminator" not in result:
            result["discriminator"] = union["discriminator"]
        return spread(result, deref) or result
    return None


def _within(others: list[Any], member: Any, deref: Deref) -> Any:
    """A union's `member` inside the `allOf` of `others`: a null member stays null where every
    other admits null, and is dropped where one refuses it (`allOf: [{anyOf: [A, {type:
    null}]}, {type: object}]` is A and the object: null is no object)."""
    if not is_null_schema(deref(member)):
        return {"allOf": [*others, member]}
    return member if all(admits_null(deref(o), deref) for o in others) else None


def _lists_extensions(member: Any, members: list[Any], deref: Deref) -> bool:
    """`member` is a base schema whose union lists the schemas extending it (`Pet: {oneOf:
    [Cat, Dog]}`, `Cat: {allOf: [Pet, ...]}`): extending it is not choosing among them."""
    ref = member.get("$ref") if isinstance(member, dict) else None
    return isinstance(ref, str) and any(
        isinstance(m, dict) and "$ref" in m and any(
            isinstance(a, dict) and a.get("$ref") == ref for a in deref(m).get("allOf") or [])
        for m in members)


def _union_key(schema: dict[str, Any]) -> str | None:
    for key in _UNIONS:
        members = schema.get(key)
        if isinstance(members, list) and members:
            return key
    return None


def _with(own: dict[str, Any], member: Any, deref: Deref) -> Any:
    """`member` with the object keywords `own` around it, unless it already carries them."""
    if not isinstance(member, dict) or is_null_schema(member):
        return member
    if "$ref" in member and _carries(deref(member), own, deref):
        return member
    return {"allOf": [own, member]}


def _carries(target: dict[str, Any], own: dict[str, Any], deref: Deref) -> bool:
    properties: dict[str, Any] = {}
    required: list[str] = []
    for node in [target, *(deref(m) for m in target.get("allOf") or [])]:
        merge_properties(properties, node.get("properties") or {})
        required.extend(required_names(node))
    return set(own.get("properties") or {}) <= set(properties) and set(
        required_names(own)) <= set(required)
