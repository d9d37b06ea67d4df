"""Valid values drawn from a contract's schemas, for the judge of the wire (judge.py).

A value is the schema's own example when it validates, else one made from the schema's keywords
(the smallest that fits: bounds, formats, required properties), else one hypothesis-jsonschema
draws. Every value is checked with openapi-schema-validator (jsonschema), never trusted.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from jsonschema import FormatChecker
from openapi_schema_validator import (
    OAS30Validator,
    OAS31Validator,
    oas30_format_checker,
    oas31_format_checker,
)

_FORMATS = {
    "date-time": "2024-01-02T03:04:05Z", "date": "2024-01-02", "time": "03:04:05Z",
    "uuid": "3fa85f64-5717-4562-b3fc-2c963f66afa6", "email": "judge@example.com",
    "uri": "https://example.com/judge", "url": "https://example.com/judge",
    "hostname": "example.com", "ipv4": "192.0.2.1", "ipv6": "2001:db8::1",
    "byte": "anVkZ2U=", "binary": "judge", "duration": "P1D", "uri-reference": "/judge",
}
_DEPTH = 4  # optional properties are filled this deep; required ones at any depth


def _formats(v31: bool) -> FormatChecker:
    """openapi-schema-validator's format checks, and `uri` as absolute (its own check needs
    rfc3987, which is not installed: `""` would pass, and the generated client refuses it)."""
    base = oas31_format_checker if v31 else oas30_format_checker
    checker = FormatChecker(formats=())
    checker.checkers = dict(base.checkers)

    def absolute(value: object) -> bool:
        return not isinstance(value, str) or bool(urlsplit(value).scheme)

    checker.checks("uri")(absolute)
    return checker


class NoValue(Exception):
    """No valid value could be made for a schema."""


class Refused(Exception):
    """A valid value of the contract that the generated client's types refuse."""


class Values:
    """Values for the schemas of one contract (`doc`, the whole document, for its `$ref`s)."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self.v31 = str(doc.get("openapi", "3.0")).startswith("3.1")
        self._validator = (OAS31Validator if self.v31 else OAS30Validator)(
            doc, format_checker=_formats(self.v31))
        self._made: dict[tuple[int, int], tuple[Any, Any]] = {}

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
        try:
            return [f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}"[:300]
                    for e in validator.iter_errors(value)][:3]
        except Exception as exc:  # a `$ref` that resolves nowhere (TGI's): no value is valid
            return [f"cannot validate: {type(exc).__name__}: {exc}"[:300]]

    def value(self, schema: Any, examples: list[Any] = ()) -> Any:  # type: ignore[assignment]
        """A valid value for `schema`: an example, else one made, else one drawn."""
        for example in [*examples, *self._examples(schema)]:
            if not self.errors(schema, example):
                return example
        for depth in (0, _DEPTH):  # every property, else the required ones only
            made = self.make(schema, depth)
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
        """The smallest value the schema's keywords describe (unchecked), made once per schema
        and depth (a derefed contract repeats its schemas inline, many levels deep)."""
        schema = self.deref(schema)
        if not isinstance(schema, dict) or depth > 12:
            return None if schema is False else {}
        key = (id(schema), depth)
        if key not in self._made:  # the schema is kept with its value: its id stays its own
            self._made[key] = (schema, self._make(schema, depth))
        return self._made[key][1]

    def _make(self, schema: dict[str, Any], depth: int) -> Any:
        for key in ("const", "example"):
            if key in schema and not self.errors(schema, schema[key]):
                return schema[key]
        if schema.get("enum"):
            # a member with text: OpenAPI gives an empty query value no meaning without
            # `allowEmptyValue`
            valid = [e for e in schema["enum"] if e not in (None, "")] or schema["enum"]
            return valid[0]
        if schema.get("allOf"):
            return self.make(self.merged({}, schema), depth + 1)
        for key in ("oneOf", "anyOf"):
            if schema.get(key):
                base = {k: v for k, v in schema.items() if k not in ("oneOf", "anyOf")}
                made = None
                for member in schema[key]:
                    made = self.make(self.merged(self.merged({}, base), member), depth + 1)
                    if not self.errors(schema, made):
                        break
                return made
        return self._typed(schema, depth)

    def merged(self, into: dict[str, Any], schema: Any) -> dict[str, Any]:
        """`schema` (its `allOf` members flattened) merged into `into`: properties and
        `required` joined, other keywords kept from the first that says them."""
        schema = self.deref(schema)
        if not isinstance(schema, dict):
            return into
        for key, value in schema.items():
            if key == "allOf":
                for member in value:
                    into = self.merged(into, member)
            elif key == "properties":  # a property several members define takes them all
                before = into.get("properties", {})
                into["properties"] = {**value, **before} | {
                    k: {**self.deref(value[k]), **self.deref(before[k])} for k in value
                    if k in before and isinstance(self.deref(value[k]), dict)
                    and isinstance(self.deref(before[k]), dict)}
            elif key == "required":
                into["required"] = [*into.get("required", []), *value]
            else:
                into.setdefault(key, value)
        return into

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
        extra = schema.get("additionalProperties")
        if not result and extra not in (None, False) and depth < _DEPTH:
            # a map with one entry: an empty one has no spelling in a query (deepObject, form)
            result["judge"] = self.make(extra if isinstance(extra, dict) else {}, depth + 1)
        return result

    def writable(self, schema: Any, value: Any) -> Any:
        """`value` without the properties its schema marks `readOnly` (at any depth): what a
        request carries (OpenAPI: a read-only property is not sent)."""
        schema = self.merged({}, schema) if isinstance(self.deref(schema), dict) else {}
        for key in ("oneOf", "anyOf"):
            member = next((m for m in schema.get(key) or () if not self.errors(m, value)), None)
            if member is not None:
                return self.writable({**{k: v for k, v in schema.items() if k != key},
                                      "allOf": [member]}, value)
        if isinstance(value, list):
            return [self.writable(schema.get("items", {}), item) for item in value]
        if not isinstance(value, dict):
            return value
        properties = schema.get("properties") or {}
        kept = {}
        for name, item in value.items():
            prop = self.deref(properties.get(name, {}))
            if not (isinstance(prop, dict) and prop.get("readOnly")):
                kept[name] = self.writable(prop, item)
        return kept

    def _drawn(self, schema: Any) -> Any:
        raise NoValue(f"none made fits {dumps(self.inline(schema, 0))[:300]}")

    def inline(self, schema: Any, depth: int) -> Any:
        """The schema with its `$ref`s inlined (cut at a depth), for a failure's message."""
        schema = self.deref(schema)
        if isinstance(schema, list):
            return [self.inline(s, depth + 1) for s in schema]
        if not isinstance(schema, dict) or depth > 3:
            return schema if not isinstance(schema, dict) else "..."
        return {k: self.inline(v, depth + 1) for k, v in schema.items()
                if k not in ("description", "example", "examples") and not k.startswith("x-")}


def _patterned(schema: dict[str, Any]) -> str:
    """A string matching the schema's `pattern` (and lengths), drawn by hypothesis-jsonschema:
    the simplest one it finds, the same on every run. Only strings: its objects and arrays fail
    under the hypothesis this project uses (`'many' object has no attribute 'more'`)."""
    from hypothesis import HealthCheck, Phase, find, settings
    from hypothesis_jsonschema import from_schema

    leaf = {k: schema[k] for k in ("pattern", "minLength", "maxLength", "format")
            if k in schema}
    key = json.dumps(leaf, sort_keys=True)
    if key in _PATTERNED:
        return _PATTERNED[key]
    try:  # not shrunk: the first string drawn (shrinking one took seconds)
        found: str = find(from_schema({"type": "string", **leaf}), lambda v: True,
                          settings=settings(database=None, derandomize=True, max_examples=50,
                                            phases=[Phase.generate],
                                            suppress_health_check=list(HealthCheck)))
    except Exception as exc:  # hypothesis's own refusal (an unsupported pattern): no value
        raise NoValue(f"no string matches {schema.get('pattern')!r}: {exc}"[:300]) from None
    _PATTERNED[key] = found
    return found


_PATTERNED: dict[str, str] = {}


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
    if "pattern" in schema:
        return _patterned(schema)
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
