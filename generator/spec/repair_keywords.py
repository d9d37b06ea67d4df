"""Keywords of the other OpenAPI version, or repeated, that a machine repairs without guessing
(`validate --emit-overlay`, `generate --lenient`; OpenAI's and TGI's published contracts):

- a boolean `exclusiveMinimum`/`exclusiveMaximum` in 3.1 (3.0's form): the bound it qualifies
  becomes the exclusive bound (`minimum: 0, exclusiveMinimum: true` -> `exclusiveMinimum: 0`);
  `false`, or `true` with no bound beside it, says nothing and goes;
- a numeric one in 3.0 (3.1's form): `exclusiveMinimum: 0` -> `minimum: 0, exclusiveMinimum:
  true` (beside a `minimum` already there: the stricter of the two);
- a name listed twice in `required`: listed once;
- 2019-09's `$recursiveAnchor: true` in 3.1: dropped, and `$recursiveRef: '#'` beneath it refers
  to the component that held the anchor.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .tree import Part, make_pointer, walk_objects

Action = dict[str, Any]
_BOUNDS = (("exclusiveMinimum", "minimum", 1), ("exclusiveMaximum", "maximum", -1))


def keyword_repairs(data: dict[str, Any], path_of: Callable[[tuple[Part, ...]], str]
                    ) -> list[Action]:
    """Overlay actions (targets spelled by `path_of`) for the keywords above."""
    is_30 = str(data.get("openapi", "")).startswith("3.0")
    actions: list[Action] = []
    anchored: tuple[Part, ...] | None = None
    for path, obj in walk_objects(data):
        actions += _required_once(path, obj, path_of)
        actions += _bounds_30(path, obj, path_of) if is_30 else _bounds_31(path, obj, path_of)
        if is_30:
            continue
        if obj.get("$recursiveAnchor") is True:
            anchored = path
            actions.append({"target": path_of((*path, "$recursiveAnchor")), "remove": True,
                            "description": "`$recursiveAnchor` is JSON Schema 2019-09."})
        if obj.get("$recursiveRef") == "#" and anchored and path[:len(anchored)] == anchored:
            actions += [{"target": path_of((*path, "$recursiveRef")), "remove": True,
                         "description": "`$recursiveRef` is JSON Schema 2019-09: a `$ref` to the "
                                        "schema that held `$recursiveAnchor`."},
                        {"target": path_of(path), "update": {"$ref": _pointer(anchored)},
                         "description": "The schema that held `$recursiveAnchor`."}]
    return actions


def _pointer(path: tuple[Part, ...]) -> str:
    return "#" + make_pointer(path)


def _required_once(path: tuple[Part, ...], obj: dict[str, Any],
                   path_of: Callable[[tuple[Part, ...]], str]) -> list[Action]:
    required = obj.get("required")
    if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
        return []
    once = list(dict.fromkeys(required))
    if len(once) == len(required):
        return []
    return [{"target": path_of((*path, "required")), "remove": True,
             "description": "`required` lists a name twice."},
            {"target": path_of(path), "update": {"required": once},
             "description": "Each required name once."}]


def _bounds_31(path: tuple[Part, ...], obj: dict[str, Any],
               path_of: Callable[[tuple[Part, ...]], str]) -> list[Action]:
    actions: list[Action] = []
    for exclusive, bound, _ in _BOUNDS:
        flag = obj.get(exclusive)
        if not isinstance(flag, bool):
            continue
        value = obj.get(bound)
        if flag and _is_number(value):
            actions += [{"target": path_of((*path, bound)), "remove": True,
                         "description": f"`{bound}` is exclusive: 3.1 says so in `{exclusive}`."},
                        {"target": path_of(path), "update": {exclusive: value},
                         "description": f"A boolean `{exclusive}` is OpenAPI 3.0's form."}]
        else:
            actions.append({"target": path_of((*path, exclusive)), "remove": True,
                            "description": f"A boolean `{exclusive}` without `{bound}` bounds "
                            "nothing."})
    return actions


def _bounds_30(path: tuple[Part, ...], obj: dict[str, Any],
               path_of: Callable[[tuple[Part, ...]], str]) -> list[Action]:
    actions: list[Action] = []
    for exclusive, bound, sign in _BOUNDS:
        if not _is_number(obj.get(exclusive)):
            continue
        value: float = obj[exclusive]
        current: Any = obj.get(bound)
        stricter = _is_number(current) and current * sign > value * sign
        limit = current if stricter else value
        update = {bound: limit, exclusive: limit == value}
        actions.append({"target": path_of(path), "update": update,
                        "description": f"A numeric `{exclusive}` is OpenAPI 3.1's form."})
    return actions


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
