"""Schemas that admit no value by the contract's letter, which the models read as the authors
meant: each gets a located warning that says so (the judge of the wire, issue 37, finds no
valid value for them, and openapi-core refuses every value the generated code sends).

- A property that is required, where an object closed by `additionalProperties: false` (the
  schema itself, or one of its `allOf` members, whose keyword sees its own `properties` only)
  allows no property of that name (Linode's `managed/credentials`: `password`). The model
  takes the members' properties together.
- A discriminator that selects no member: OpenAPI's rule (openapi-schema-validator's reading)
  is that a value selects the schema its `mapping` gives, else the component schema it names;
  when every such schema refuses the value as its own property (OpenAI's messages: `role:
  system` selects no schema named `system`), or the mapping refers to nothing, no value is
  valid. The model tells the members apart by their own values of the property.
- A `oneOf` with two members that are the same schema (PagerDuty's invocation `agent`, once
  by `$ref`, once inline): a value valid under one is valid under both, so no value of theirs
  is valid by the contract; the model accepts it (as `anyOf`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..spec.tree import resolve_pointer
from .objects import merged
from .schema_facts import all_of_parts, deref

_PREFIX = "#/components/schemas/"


def closed_conflict(document: Mapping[str, Any], schema: dict[str, Any]) -> str | None:
    """Why no object is valid for `schema` (a required name a closed part forbids), or None."""
    _, required, _, _ = merged(document, schema)
    for part in all_of_parts(document, schema):
        if part.get("additionalProperties") is not False or part.get("patternProperties"):
            continue
        own = part.get("properties")
        allowed: dict[str, Any] = own if isinstance(own, dict) else {}
        missing = [name for name in required if name not in allowed]
        if missing:
            shown = ", ".join(sorted(allowed)[:6]) or "none"
            return (f"`{missing[0]}` is required, but `additionalProperties: false` beside "
                    f"properties {shown} allows no property of that name (it sees only the "
                    "`properties` beside it), so no value is valid by the contract; the model "
                    "takes the properties of every `allOf` member together (hint: drop "
                    "`additionalProperties: false` there, or say `unevaluatedProperties: "
                    "false` on the whole, OpenAPI 3.1)")
    return None


def unselected(document: Mapping[str, Any], schema: dict[str, Any]) -> str | None:
    """Why no value selects a member of a discriminated `oneOf`/`anyOf`, or None."""
    disc = schema.get("discriminator")
    members = schema.get("oneOf") or schema.get("anyOf")
    if not isinstance(disc, dict) or not isinstance(members, list):
        return None
    prop = disc.get("propertyName")
    if not isinstance(prop, str):
        return None
    tags = _tags(disc, members)
    for tag, ref in tags:
        allowed = _allowed(document, ref, prop)
        if allowed is not None and (allowed == () or tag in allowed):
            return None
    shown = ", ".join(f"`{tag}`: {ref}" for tag, ref in tags[:3]) + (" ..." if len(tags) > 3 else "")
    return (f"discriminator `{prop}` selects no member: by OpenAPI's rule a value selects the "
            "schema its `mapping` gives, else the component schema it names, and none of those "
            f"({shown or 'the members are inline, and no mapping names them'}) takes its own "
            f"value as `{prop}` or exists, so validators that follow the rule (openapi-core) "
            f"refuse every value; the models tell the members apart by their own `{prop}` values "
            "(hint: map each value to its member in `mapping`)")


def _tags(disc: dict[str, Any], members: list[Any]) -> list[tuple[str, str]]:
    """(value, the reference it selects): the mapping's, then each member component's name."""
    given = disc.get("mapping")
    mapping: dict[str, Any] = given if isinstance(given, dict) else {}
    tags = [(str(k), v if "/" in v or "#" in v else _PREFIX + v)
            for k, v in mapping.items() if isinstance(v, str)]
    named = {ref for _, ref in tags}
    for member in members:
        ref = member.get("$ref") if isinstance(member, dict) else None
        if isinstance(ref, str) and ref.startswith(_PREFIX) and ref not in named:
            name = ref[len(_PREFIX):].replace("~1", "/").replace("~0", "~")
            if name not in mapping:
                tags.append((name, ref))
    return tags


def _allowed(document: Mapping[str, Any], ref: str, prop: str) -> tuple[Any, ...] | None:
    """The values `ref`'s schema allows as `prop` (`()`: any), None when `ref` is nowhere."""
    if not ref.startswith("#"):
        return None
    try:
        target = resolve_pointer(document, ref)
    except (LookupError, ValueError, TypeError):
        return None
    if not isinstance(target, dict):
        return None
    properties, _, _, _ = merged(document, target)
    own = deref(document, properties.get(prop, {}))
    if not isinstance(own, dict):
        return ()
    if "const" in own:
        return (own["const"],)
    enum = own.get("enum")
    return tuple(enum) if isinstance(enum, list) and enum else ()


_ANNOTATIONS = frozenset({"description", "example", "examples", "title", "externalDocs"})


def twins(document: Mapping[str, Any], schema: dict[str, Any]) -> str | None:
    """Why the values of two members of a `oneOf` are never valid (they are the same schema,
    annotations aside), or None."""
    members = schema.get("oneOf")
    if not isinstance(members, list):
        return None
    shapes = [json.dumps(_bare(deref(document, m)), sort_keys=True, default=repr)
              for m in members]
    same = [i for i, shape in enumerate(shapes) if shapes.count(shape) > 1]
    if not same:
        return None
    return (f"`oneOf` members {same[0]} and {same[1]} are the same schema: a value valid under "
            "one is valid under both, so by the contract no value of theirs is valid (the models "
            "accept it, as `anyOf`; hint: list the schema once)")


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
