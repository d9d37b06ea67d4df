"""Proofs that a schema admits no value, for the judge's values (judge_values.py): each says
why from the schema's text alone, so that what the judge cannot find is never said impossible
without a reason (`Unsatisfiable`), and the discriminator values OpenAPI's rule allows."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from judge_values import Values


def discriminator_tags(discriminator: dict[str, Any], members: list[Any]) -> list[tuple[str, str]]:
    """(value, the reference it selects): the mapping's, then each member component's
    name (the implicit mapping). A mapping to a bare name is spelled as a reference."""
    mapping = discriminator.get("mapping") or {}
    tags = [(str(k), v if "/" in v or "#" in v else f"#/components/schemas/{v}")
            for k, v in mapping.items() if isinstance(v, str)]
    named = {ref for _, ref in tags}
    for member in members:
        ref = member.get("$ref") if isinstance(member, dict) else None
        if isinstance(ref, str) and ref.startswith("#/components/schemas/") and ref not in named:
            name = ref.rsplit("/", 1)[1].replace("~1", "/").replace("~0", "~")
            if name not in mapping:
                tags.append((name, ref))
    return tags


def never_alone(values: Values, members: list[Any]) -> str | None:
    """Why no value is valid under exactly one member of a `oneOf`, when its text proves
    it: two members are the same schema, and every other member's values are theirs too
    (an object whose required typed properties the others require and type alike)."""
    shapes = [json.dumps(_bare(values.deref(m)), sort_keys=True, default=repr) for m in members]
    twin = next((i for i, shape in enumerate(shapes) if shapes.count(shape) > 1), None)
    if twin is None:
        return None
    others = [i for i, shape in enumerate(shapes) if shape != shapes[twin]]
    if all(_covers(values, members[twin], members[i]) for i in others):
        return (f"members {[i for i, s in enumerate(shapes) if s == shapes[twin]]} of `oneOf` "
                "are the same schema, and every other member's values are valid under it too: "
                "no value is valid under exactly one")
    return None


def _covers(values: Values, wide: Any, narrow: Any) -> bool:
    """Every value of `narrow` is valid under `wide` (a plain object of typed properties)."""
    wide, narrow = values.merged({}, wide), values.merged({}, narrow)
    plain = {"type", "properties", "required", "description", "title", "example"}
    if set(wide) - plain or wide.get("type", "object") != "object":
        return False
    if not set(wide.get("required") or ()) <= set(narrow.get("required") or ()):
        return False
    for name, prop in (wide.get("properties") or {}).items():
        prop = values.merged({}, prop)
        own = values.merged({}, (narrow.get("properties") or {}).get(name, {}))
        if set(prop) - {"type", "description", "example", "title"} or own.get("nullable"):
            return False
        if "type" in prop and own.get("type") != prop["type"]:
            return False
    return True


def closed(values: Values, schema: dict[str, Any]) -> str | None:
    """Why an `allOf` admits no value, when a member closed by `additionalProperties:
    false` allows no property of a name the whole requires; None otherwise."""
    required = values.merged({}, schema).get("required") or []
    for member in [schema, *_members(values, schema)]:
        if member.get("additionalProperties") is False and not member.get("patternProperties"):
            allowed = set(member.get("properties") or {})
            missing = [n for n in required if n not in allowed]
            if missing:
                said = member.get("title") or "properties " + ", ".join(sorted(allowed)[:6])
                return (f"`{missing[0]}` is required, and an `allOf` member with "
                        f"`additionalProperties: false` ({said}) allows no such property")
    return None


def _members(values: Values, schema: Any) -> list[dict[str, Any]]:
    """An `allOf`'s members, derefed, the members of theirs too (each member's own
    `additionalProperties` sees its own `properties` only)."""
    found = []
    for member in values.deref(schema).get("allOf") or ():
        member = values.deref(member)
        if isinstance(member, dict):
            found += [member, *_members(values, member)]
    return found


_ANNOTATIONS = {"description", "example", "examples", "title", "externalDocs"}


def _bare(node: Any, names: bool = False) -> Any:
    """A schema without the keywords that do not validate (its `$ref`s as written); `names`:
    a map of names (`properties`), whose keys are kept whatever they are."""
    if isinstance(node, list):
        return [_bare(item) for item in node]
    if not isinstance(node, dict):
        return node
    if names:
        return {k: _bare(v) for k, v in node.items()}
    return {k: _bare(v, k in ("properties", "patternProperties", "$defs", "definitions"))
            for k, v in node.items() if k not in _ANNOTATIONS and not str(k).startswith("x-")}
