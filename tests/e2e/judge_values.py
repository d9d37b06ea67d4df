"""Valid values drawn from a contract's schemas, for the judge of the wire (judge.py).

A value is the schema's own example when it validates, else one made from the schema's keywords
(the smallest that fits: bounds, formats, required properties), else one hypothesis-jsonschema
draws. Every value is checked with openapi-schema-validator (jsonschema), never trusted.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from openapi_schema_validator import OAS30Validator, OAS31Validator

_FORMATS = {
    "date-time": "2024-01-02T03:04:05Z", "date": "2024-01-02", "time": "03:04:05Z",
    "uuid": "3fa85f64-5717-4562-b3fc-2c963f66afa6", "email": "judge@example.com",
    "uri": "https://example.com/judge", "url": "https://example.com/judge",
    "hostname": "example.com", "ipv4": "192.0.2.1", "ipv6": "2001:db8::1",
    "byte": "anVkZ2U=", "binary": "judge", "duration": "P1D", "uri-reference": "/judge",
}
_DEPTH = 4  # optional properties are filled this deep; required ones at any depth


class NoValue(Exception):
    """No valid value could be made for a schema."""


class Values:
    """Values for the schemas of one contract (`doc`, the whole document, for its `$ref`s)."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self.v31 = str(doc.get("openapi", "3.0")).startswith("3.1")
        self._validator = (OAS31Validator if self.v31 else OAS30Validator)(doc)

    def deref(self, node: Any) -> Any:
        seen = 0
        while isinstance(node, dict) and isinstance(node.get("$ref"), str) and seen < 50:
            node = self.pointer(node["$ref"])
            seen += 1
        return node

    def pointer(self, ref: str) -> Any:
        node: Any = self.doc
        for part in ref.removeprefix("#/").split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            node = node[int(part)] if isinstance(node, list) else node[part]
        return node

    def errors(self, schema: Any, value: Any) -> list[str]:
        """What is wrong with `value` for `schema` (empty when it is valid)."""
        validator = self._validator.evolve(schema=schema)
        return [f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}"[:300]
                for e in validator.iter_errors(value)][:3]

    def value(self, schema: Any, examples: list[Any] = ()) -> Any:  # type: ignore[assignment]
        """A valid value for `schema`: an example, else one made, else one drawn."""
        for example in [*examples, *self._examples(schema)]:
            if not self.errors(schema, example):
                return example
        made = self.make(schema, 0)
        if not self.errors(schema, made):
            return made
        return self._drawn(schema)

    def _examples(self, schema: Any) -> list[Any]:
        schema = self.deref(schema)
        if not isinstance(schema, dict):
            return []
        found = [schema["example"]] if "example" in schema else []
        return found + [e for e in schema.get("examples", []) if isinstance(schema["examples"], list)]

    def make(self, schema: Any, depth: int) -> Any:
        """The smallest value the schema's keywords describe (unchecked)."""
        schema = self.deref(schema)
        if not isinstance(schema, dict) or depth > 12:
            return None if schema is False else {}
        for key in ("const", "example"):
            if key in schema and not self.errors(schema, schema[key]):
                return schema[key]
        if schema.get("enum"):
            valid = [e for e in schema["enum"] if e is not None] or schema["enum"]
            return valid[0]
        for key in ("allOf",):
            if schema.get(key):
                return self._all_of(schema, depth)
        for key in ("oneOf", "anyOf"):
            for member in schema.get(key) or ():
                value = self.make(member, depth + 1)
                if not self.errors(schema, value):
                    return value
        return self._typed(schema, depth)

    def _all_of(self, schema: dict[str, Any], depth: int) -> Any:
        merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
        for member in schema["allOf"]:
            member = self.deref(member)
            if not isinstance(member, dict):
                continue
            for key, value in member.items():
                if key == "properties":
                    merged.setdefault("properties", {}).update(value)
                elif key == "required":
                    merged["required"] = [*merged.get("required", []), *value]
                else:
                    merged.setdefault(key, value)
        made = self.make(merged, depth + 1)
        return made

    def _typed(self, schema: dict[str, Any], depth: int) -> Any:
        kind = schema.get("type")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), "null")
        if kind is None:
            kind = ("object" if "properties" in schema or "additionalProperties" in schema
                    else "array" if "items" in schema else "string")
        if kind == "object":
            return self._object(schema, depth)
        if kind == "array":
            count = max(1, schema.get("minItems", 1)) if depth < _DEPTH else schema.get(
                "minItems", 0)
            items = schema.get("items", {})
            if schema.get("uniqueItems") and count > 1:
                return [self.make(items, depth + 1)]
            return [self.make(items, depth + 1) for _ in range(count)]
        if kind in ("integer", "number"):
            return _number(schema, kind)
        if kind == "boolean":
            return True
        if kind == "null":
            return None
        return _string(schema)

    def _object(self, schema: dict[str, Any], depth: int) -> dict[str, Any]:
        required = set(schema.get("required", []))
        result = {}
        for name, prop in (schema.get("properties") or {}).items():
            prop_schema = self.deref(prop)
            if isinstance(prop_schema, dict) and prop_schema.get("readOnly") and name not in required:
                continue
            if name in required or depth < _DEPTH:
                result[name] = self.make(prop, depth + 1)
        return result

    def _drawn(self, schema: Any) -> Any:
        """One value hypothesis-jsonschema draws from the schema, made self-contained."""
        from hypothesis import HealthCheck, find, settings
        from hypothesis_jsonschema import from_schema

        try:
            strategy = from_schema(self.inline(schema, 0))
            found = find(strategy, lambda v: not self.errors(schema, v),
                         settings=settings(database=None, derandomize=True, max_examples=40,
                                           suppress_health_check=list(HealthCheck)))
        except Exception as exc:  # hypothesis's own refusals: the value is "none"
            raise NoValue(f"{type(exc).__name__}: {str(exc)[:200]}") from None
        return found

    def inline(self, schema: Any, depth: int) -> Any:
        """The schema as plain JSON Schema: refs inlined (cut at a depth), 3.0's keywords
        translated (`nullable`), annotations only it knows dropped."""
        schema = self.deref(schema)
        if isinstance(schema, list):
            return [self.inline(s, depth + 1) for s in schema]
        if not isinstance(schema, dict):
            return schema
        if depth > 8:
            return {}
        out = {k: self.inline(v, depth + 1) if k not in ("enum", "const", "required") else v
               for k, v in schema.items()
               if k not in ("example", "examples", "discriminator", "xml", "externalDocs",
                            "readOnly", "writeOnly", "deprecated", "nullable", "format")
               and not k.startswith("x-")}
        if "properties" in schema:
            out["properties"] = {k: self.inline(v, depth + 1)
                                 for k, v in schema["properties"].items()}
        if schema.get("nullable") and "type" in out:
            out["type"] = [out["type"], "null"] if isinstance(out["type"], str) else out["type"]
        return copy.deepcopy(out)


def _number(schema: dict[str, Any], kind: str) -> int | float:
    low = schema.get("minimum")
    exclusive = schema.get("exclusiveMinimum")
    if isinstance(exclusive, (int, float)) and not isinstance(exclusive, bool):
        low = exclusive + (1 if kind == "integer" else 0.5)
    elif exclusive is True and low is not None:
        low = low + (1 if kind == "integer" else 0.5)
    high = schema.get("maximum")
    value: float = low if low is not None else (min(1, high - 1) if high is not None else 1)
    step = schema.get("multipleOf")
    if step:
        value = step * -(-value // step)
    return int(value) if kind == "integer" else float(value)


def _string(schema: dict[str, Any]) -> str:
    text = _FORMATS.get(schema.get("format", ""), "judge")
    low, high = schema.get("minLength", 0), schema.get("maxLength")
    if len(text) < low:
        text = text + "x" * (low - len(text))
    if high is not None and len(text) > high:
        text = text[:high]
    return text


def dumps(value: Any) -> str:
    """A value as the one-line JSON a failure message shows (cut short)."""
    text = json.dumps(value, default=repr, sort_keys=True)
    return text if len(text) <= 400 else text[:400] + "..."
