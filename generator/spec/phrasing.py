"""How a validation error is said: a short message and, for the usual mistakes, a hint.

`validate` finds the most specific jsonschema error of a problem and where it is; this module
phrases it (`human`) and suggests the fix (`hint`), e.g. the 3.0/3.1 mix-ups.
"""

from __future__ import annotations

import difflib
import re
from typing import Any

from .lint import NULLABLE_31_HINT

_NULL_HINT = (
    "OpenAPI 3.0 has no 'null' type; use `nullable: true` on the parent schema "
    "(3.1 allows type: 'null')"
)
_TYPE_LIST_HINT = (
    "OpenAPI 3.0 `type` takes one string; use oneOf for several types and `nullable: true` "
    "for null (3.1 allows type lists)"
)
_ONLY_31 = {
    "const": "`const` is OpenAPI 3.1; in 3.0 write `enum: [value]`",
    "examples": "3.0 schemas take one `example`; `examples` (a list) is OpenAPI 3.1",
}
_JSON_SCHEMA_ONLY = frozenset({
    "$schema", "$id", "$defs", "$anchor", "$comment", "prefixItems", "if", "then", "else",
    "dependentRequired", "dependentSchemas", "unevaluatedProperties", "unevaluatedItems",
    "contentMediaType", "contentEncoding", "propertyNames", "contains", "minContains",
    "maxContains", "patternProperties",
})
WEAK = frozenset({"anyOf", "oneOf"})
UNKNOWN_KEYS = frozenset({"additionalProperties", "unevaluatedProperties"})


def human(error: Any) -> str:
    """A short message for one jsonschema error."""
    kind = error.validator
    value = error.instance
    if kind == "enum":
        allowed = ", ".join(str(v) for v in error.validator_value)
        return f"must be one of {allowed}, not {value!r}"
    if kind == "type":
        expected = error.validator_value
        expected = " or ".join(expected) if isinstance(expected, list) else expected
        return f"must be {_article(expected)} {expected}, not {_json_kind(value)}"
    if kind == "required":
        missing = [k for k in error.validator_value if isinstance(value, dict) and k not in value]
        return f"missing required field {_ticks(missing)}"
    if kind in UNKNOWN_KEYS:
        extras = _extras(error)
        return f"unknown field{'s' if len(extras) > 1 else ''} {_ticks(extras)}"
    if kind == "pattern":
        return f"{value!r} does not match {error.validator_value}"
    if kind == "oneOf" and not error.context:
        return "matches more than one of the allowed forms"
    if kind in WEAK:
        return "is not any of the allowed forms"
    if kind == "not" and isinstance(error.validator_value, dict):
        required = error.validator_value.get("required")
        if required:
            return f"{_ticks(required)} cannot be used together"
    return str(error.message)


def hint(leaf: Any, is_30: bool) -> str | None:
    path = list(leaf.absolute_path)
    key = path[-1] if path else None
    kind = leaf.validator
    if is_30 and key == "type":
        if leaf.instance == "null":
            return _NULL_HINT
        if isinstance(leaf.instance, list):
            return _TYPE_LIST_HINT
    if kind in UNKNOWN_KEYS:
        extras = _extras(leaf)
        if is_30 and path and "nullable" not in extras:
            for extra in extras:
                if extra in _ONLY_31:
                    return _ONLY_31[extra]
                if extra in _JSON_SCHEMA_ONLY:
                    return f"`{extra}` is JSON Schema 2020-12, usable in OpenAPI 3.1 only"
        if path == ["paths"]:
            return "path keys start with '/'"
        if "responses" in path[-1:]:
            return "response keys are status codes such as '200' or '4XX', or 'default'"
        if "nullable" in extras and not is_30:
            return NULLABLE_31_HINT
    if kind == "not" and "example" in str(leaf.validator_value):
        return "use either `example` (one value) or `examples` (named Example objects)"
    if key == "examples" and kind == "type":
        return "`examples` here maps names to Example objects ({name: {value: ...}}); for one value use `example`"
    if key == "required" and isinstance(leaf.instance, bool):
        return "in a schema, `required` is a list of property names on the object that holds them"
    if kind == "required" and "description" in leaf.validator_value and "responses" in path[-2:-1]:
        return "every response needs a `description`"
    if kind == "required" and "responses" in leaf.validator_value:
        return "every operation needs `responses`"
    if kind == "required" and isinstance(leaf.instance, dict) and leaf.instance.get("in") == "path":
        return "path parameters need `required: true`"
    if kind in UNKNOWN_KEYS:
        known = [k for k in leaf.schema.get("properties", {}) if k not in leaf.instance]
        close = [difflib.get_close_matches(e, known, n=1) for e in _extras(leaf)]
        if any(close):
            return "did you mean " + ", ".join(f"`{c[0]}`" for c in close if c) + "?"
    return None


def _extras(error: Any) -> list[str]:
    schema = error.schema
    allowed = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    if not isinstance(error.instance, dict):
        return []
    return [k for k in error.instance
            if k not in allowed and not any(re.search(p, k) for p in patterns)]


def _ticks(keys: list[str]) -> str:
    return ", ".join(f"`{k}`" for k in keys)


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return f"the string {value!r}"
    return "a list" if isinstance(value, list) else "an object"
