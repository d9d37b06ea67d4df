"""The keyword repairs (`spec.repair_keywords`) as overlay actions, applied: exclusive bounds in
the other version's form (TGI's `minimum: 0, exclusiveMinimum: 0` in 3.0, OpenAI's `minimum: 0,
exclusiveMinimum: true` in 3.1), a name twice in `required`, 2019-09's `$recursiveAnchor`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from contractgen.spec.loader import document_from_data
from contractgen.spec.overlay import apply_actions
from contractgen.spec.repair import repair_actions


def _repaired(version: str, schema: dict[str, Any]) -> dict[str, Any]:
    data = {"openapi": version, "info": {"title": "t", "version": "1"}, "paths": {},
            "components": {"schemas": {"S": schema}}}
    repaired, problems = apply_actions(document_from_data(data, Path("s.yaml"), text=""),
                                       repair_actions(data))
    assert problems == []
    result: dict[str, Any] = repaired["components"]["schemas"]["S"]
    return result


@pytest.mark.parametrize(("schema", "expected"), [
    ({"type": "number", "exclusiveMinimum": 0}, {"minimum": 0, "exclusiveMinimum": True}),
    ({"type": "number", "minimum": 0, "exclusiveMinimum": 0},
     {"minimum": 0, "exclusiveMinimum": True}),
    ({"type": "number", "minimum": 5, "exclusiveMinimum": 0},
     {"minimum": 5, "exclusiveMinimum": False}),
    ({"type": "number", "maximum": 1, "exclusiveMaximum": 2},
     {"maximum": 1, "exclusiveMaximum": False}),
])
def test_numeric_exclusive_bounds_in_30_take_the_stricter(schema: dict[str, Any],
                                                          expected: dict[str, Any]) -> None:
    assert _repaired("3.0.3", schema) == {"type": "number", **expected}


@pytest.mark.parametrize(("schema", "expected"), [
    ({"type": "number", "minimum": 0, "exclusiveMinimum": True}, {"exclusiveMinimum": 0}),
    ({"type": "number", "minimum": 0, "exclusiveMinimum": False}, {"minimum": 0}),
    ({"type": "number", "exclusiveMaximum": True}, {}),
    ({"type": "number", "maximum": 9, "exclusiveMaximum": True}, {"exclusiveMaximum": 9}),
])
def test_boolean_exclusive_bounds_in_31_become_numbers(schema: dict[str, Any],
                                                       expected: dict[str, Any]) -> None:
    assert _repaired("3.1.0", schema) == {"type": "number", **expected}


def test_required_once_and_recursive_anchor() -> None:
    schema = {"$recursiveAnchor": True, "type": "object", "required": ["a", "b", "a"],
              "properties": {"a": {"type": "string"}, "b": {"type": "string"},
                             "more": {"type": "array", "items": {"$recursiveRef": "#"}}}}
    repaired = _repaired("3.1.0", schema)
    assert repaired["required"] == ["a", "b"]
    assert "$recursiveAnchor" not in repaired
    assert repaired["properties"]["more"]["items"] == {"$ref": "#/components/schemas/S"}
