"""An Overlay 1.0 document repairing a contract's mechanical mistakes, for review
(`contractgen validate --emit-overlay FILE`), in the manner of specs/tpmjs-executor.overlay.yaml.

Repaired (OpenAPI 3.0 only, where 3.1 habits are the usual cause):
- `{type: 'null'}` in a oneOf/anyOf: the member goes, `nullable: true` goes on the schema and on
  its first typed member (3.0's `nullable` only widens a `type` in the same schema);
- `type: [X, 'null']`: `type: X` with `nullable: true`;
- `type: array` without `items`: `items: {}` (any item);
- `const: v`: `enum: [v]`; a schema's `examples: [a, ...]`: `example: a`.
And in OpenAPI 3.1: `nullable: true` beside `type: X`: `type: [X, 'null']`.
In both: the keywords `repair_keywords` lists, and defaults their schema refuses (`defaults`).
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from .defaults import default_repairs
from .repair_keywords import keyword_repairs
from .tree import Part, walk_objects
from .yamltext import CORE_SCHEMA


class _Dumper(yaml.SafeDumper):
    """Quotes a string that YAML 1.1 or 1.2 would read as another type (`on`, `08`, `1e3`)."""

    yaml_implicit_resolvers = {  # noqa: RUF012 - PyYAML's class attribute, copied
        first: list(resolvers)
        for first, resolvers in yaml.SafeDumper.yaml_implicit_resolvers.items()}


for _tag, _pattern, _first in CORE_SCHEMA:
    _Dumper.add_implicit_resolver("tag:yaml.org,2002:" + _tag, re.compile(_pattern), _first)


def _path(parts: tuple[Part, ...]) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f"[{_quote(p)}]" for p in parts)


def _quote(name: str) -> str:
    return "'" + name.replace("\\", "\\\\").replace("'", "\\'") + "'"


def repair_actions(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Overlay actions for the mechanical problems of `data`."""
    version = str(data.get("openapi", ""))
    if not version.startswith(("3.0", "3.1")):
        return []
    more = [*keyword_repairs(data, _path), *default_repairs(data, _path)]
    if version.startswith("3.1"):
        return _repair_31(data) + more
    return _repair_30(data) + more


def _repair_30(data: dict[str, Any]) -> list[dict[str, Any]]:
    """3.1's forms in a 3.0 contract: null types, type lists, `const`, `examples` lists."""
    updates: list[dict[str, Any]] = []
    removals: list[dict[str, Any]] = []
    for path, obj in walk_objects(data):
        _repair_31_keywords(path, obj, updates, removals)
        kind = obj.get("type")
        if isinstance(kind, list) and kind:
            rest = [k for k in kind if k != "null"]
            removals.append({"target": _path((*path, "type")), "remove": True,
                             "description": "OpenAPI 3.0 `type` takes one string."})
            update: dict[str, Any] = {"type": rest[0] if rest else "object"}
            if "null" in kind:
                update["nullable"] = True
            updates.append({"target": _path(path), "update": update,
                            "description": "One type; null as `nullable: true`."})
        if kind == "array" and "items" not in obj:
            updates.append({"target": _path(path), "update": {"items": {}},
                            "description": "OpenAPI 3.0 requires `items`; `{}` allows any."})
        for key in ("oneOf", "anyOf"):
            members = obj.get(key)
            if not isinstance(members, list):
                continue
            nulls = [m for m in members if isinstance(m, dict) and m.get("type") == "null"]
            if not nulls:
                continue
            removals.append({"target": _path((*path, key)) + "[?(@.type == 'null')]",
                             "remove": True, "description": "OpenAPI 3.0 has no 'null' type."})
            updates.append({"target": _path(path), "update": {"nullable": True},
                            "description": "The value may be null."})
            typed = next((i for i, m in enumerate(members) if isinstance(m, dict)
                          and isinstance(m.get("type"), str) and m["type"] != "null"), None)
            if typed is not None:
                updates.append({"target": _path((*path, key, typed)),
                                "update": {"nullable": True},
                                "description": "Null is accepted by this member."})
    return updates + removals


def _repair_31_keywords(path: tuple[Part, ...], obj: dict[str, Any],
                        updates: list[dict[str, Any]], removals: list[dict[str, Any]]) -> None:
    """A 3.0 schema's `const` and `examples` list, as 3.0 writes them."""
    if "const" in obj:
        updates.append({"target": _path(path), "update": {"enum": [obj["const"]]},
                        "description": "OpenAPI 3.0 has no `const`: a one-value enum."})
        removals.append({"target": _path((*path, "const")), "remove": True,
                         "description": "`const` is OpenAPI 3.1."})
    examples = obj.get("examples")
    if isinstance(examples, list) and "in" not in obj:  # a schema's, not a parameter's map
        if examples and "example" not in obj:
            updates.append({"target": _path(path), "update": {"example": examples[0]},
                            "description": "A 3.0 schema takes one `example`."})
        removals.append({"target": _path((*path, "examples")), "remove": True,
                         "description": "`examples` (a list) is OpenAPI 3.1."})


def _repair_31(data: dict[str, Any]) -> list[dict[str, Any]]:
    """`nullable: true` beside one `type` (3.1 ignores it): the type list with 'null'."""
    updates: list[dict[str, Any]] = []
    removals: list[dict[str, Any]] = []
    for path, obj in walk_objects(data):
        if obj.get("nullable") is True and isinstance(obj.get("type"), str):
            removals.append({"target": _path((*path, "nullable")), "remove": True,
                             "description": "OpenAPI 3.1 ignores `nullable`."})
            updates.append({"target": _path(path), "update": {"type": [obj["type"], "null"]},
                            "description": "Null as a type, as 3.1 writes it."})
    return updates + removals


def repair_overlay(data: dict[str, Any], title: str) -> str | None:
    """The overlay's YAML text, or None when there is nothing mechanical to repair."""
    actions = repair_actions(data)
    if not actions:
        return None
    overlay = {"overlay": "1.0.0", "info": {"title": title, "version": "1.0.0"},
               "actions": actions}
    header = "# Generated by `contractgen validate --emit-overlay`: review before use.\n"
    return header + yaml.dump(overlay, Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                              width=1_000_000)
