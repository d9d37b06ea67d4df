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
from judge_proofs import closed, discriminator_tags, never_alone
from judge_strings import NoValue, Unsatisfiable, string
from openapi_schema_validator import (
    OAS30Validator,
    OAS31Validator,
    oas30_format_checker,
    oas31_format_checker,
)

__all__ = ["Contradiction", "NoValue", "Refused", "Unsatisfiable", "Values", "dumps"]

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


class Refused(Exception):
    """A valid value of the contract that the generated client's types refuse."""


class Contradiction(Refused):
    """The contract admits no valid value where the generated code takes one: a disagreement
    (warned when the generator says so), not a value the judge failed to find."""


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
        failure = None
        for depth in (0, _DEPTH):  # every property, else the required ones only
            try:
                made = self.make(schema, depth)
            except Unsatisfiable:  # proved: no value at any depth
                raise
            except NoValue as exc:
                failure = failure or exc
                continue
            if not self.errors(schema, made):
                return made
        if failure is not None:
            raise failure
        return self._drawn(schema)

    def _examples(self, schema: Any) -> list[Any]:
        schema = self.deref(schema)
        if not isinstance(schema, dict):
            return []
        found = [schema["example"]] if "example" in schema else []
        return found + [e for e in schema.get("examples", []) if isinstance(schema["examples"], list)]

    def make(self, schema: Any, depth: int) -> Any:
        """The smallest value the schema's keywords describe (unchecked), made once per schema
        and depth (a derefed contract repeats its schemas inline, many levels deep); NoValue
        (Unsatisfiable when the schema is proved empty) when none can be made."""
        schema = self.deref(schema)
        if not isinstance(schema, dict) or depth > 12:
            return None if schema is False else {}
        key = (id(schema), depth)
        if key not in self._made:  # the schema is kept with its value: its id stays its own
            try:
                self._made[key] = (schema, self._make(schema, depth))
            except NoValue as exc:  # failures too: the same schema is met many times
                self._made[key] = (schema, exc)
        made = self._made[key][1]
        if isinstance(made, NoValue):
            raise made
        return made

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
            if (why := closed(self, schema)) is not None:
                raise Unsatisfiable(why)
            return self.make(self.merged({}, schema), depth + 1)
        for key in ("oneOf", "anyOf"):
            if schema.get(key):
                if isinstance(schema.get("discriminator"), dict):
                    return self._tagged(schema, key, depth)
                return self._either(schema, key, depth)
        return self._typed(schema, depth)

    def _either(self, schema: dict[str, Any], key: str, depth: int) -> Any:
        """The first member's value that is valid for the whole schema (with a property no
        member names, when it is valid under several members of a `oneOf`)."""
        base = {k: v for k, v in schema.items() if k not in ("oneOf", "anyOf")}
        made, failures = None, []
        for member in schema[key]:
            try:
                made = self.make(self.merged(self.merged({}, base), member), depth + 1)
            except NoValue as exc:
                failures.append(exc)
                continue
            widened = {**made, "judge_other": "judge"} if isinstance(made, dict) else made
            for candidate in (made, widened):
                if not self.errors(schema, candidate):
                    return candidate
        if key == "oneOf" and (why := never_alone(self, schema[key])) is not None:
            raise Unsatisfiable(why)
        if len(failures) == len(schema[key]):  # no member has a value
            if all(isinstance(f, Unsatisfiable) for f in failures):
                raise Unsatisfiable(f"no member of `{key}` admits a value: {failures[0]}")
            raise failures[0]
        return made

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
                    k: {"allOf": [before[k], value[k]]} for k in value if k in before}
            elif key == "required":
                into["required"] = [*into.get("required", []), *value]
            elif key == "enum" and isinstance(into.get("enum"), list) and isinstance(value, list):
                into["enum"] = [v for v in into["enum"] if v in value]  # both hold
            else:
                into.setdefault(key, value)
        return into

    def _tagged(self, schema: dict[str, Any], key: str, depth: int) -> Any:
        """A value of a member a discriminator selects, by OpenAPI's rule (as
        openapi-schema-validator reads it): the property's value is a `mapping` key, and
        selects the schema mapped, else it names the component schema it selects."""
        prop = schema["discriminator"].get("propertyName")
        base = {k: v for k, v in schema.items() if k not in ("oneOf", "anyOf", "discriminator")}
        tags = discriminator_tags(schema["discriminator"], schema[key])
        made, refused = None, []
        for tag, ref in tags:
            try:
                target = self.pointer(ref) if ref.startswith("#/") else None
            except (KeyError, IndexError, ValueError, TypeError):
                target = None
            own = (self.merged({}, target).get("properties") or {}).get(prop) if target else None
            if target is None or (own is not None and self.errors(own, tag)):
                refused.append(f"`{tag}` selects {ref}, which "
                               + ("resolves nowhere" if target is None else
                                  f"refuses it as its `{prop}`"))
                continue
            try:
                made = self.make(self.merged(self.merged({}, base), {"$ref": ref}), depth + 1)
            except NoValue:
                continue
            made = {**made, prop: tag} if isinstance(made, dict) else made
            if not self.errors(schema, made):
                return made
        if len(refused) == len(tags):
            raise Unsatisfiable(
                f"discriminator `{prop}` selects no member: "
                + ("; ".join(refused[:3]) + (" ..." if len(refused) > 3 else "") if refused else
                   "its members are inline and no `mapping` names them")
                + " (a value selects the schema its `mapping` gives, else the component it names)")
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
            return self._array(schema, count, depth)
        if kind in ("integer", "number"):
            return _number(schema, kind)
        if kind == "boolean":
            return True
        if kind == "null":
            return None
        return string(schema)

    def _array(self, schema: dict[str, Any], count: int, depth: int) -> list[Any]:
        """`count` items (none when they have no value and none is required), distinct when
        `uniqueItems` says so."""
        try:
            item = self.make(schema.get("items", {}), depth + 1)
        except NoValue:
            if schema.get("minItems", 0) == 0:
                return []
            raise
        if schema.get("uniqueItems") and count > 1:
            return [_nth(item, n) for n in range(count)]
        return [item] * count

    def _object(self, schema: dict[str, Any], depth: int) -> dict[str, Any]:
        required = schema.get("required") or []
        properties = schema.get("properties") or {}
        result = {}
        for name, prop in properties.items():  # `readOnly` too: `writable` drops them from requests
            if name in required:
                result[name] = self.make(prop, depth + 1)
            elif depth < _DEPTH:
                try:  # an optional property without a valid value is left out
                    made = self.make(prop, depth + 1)
                except NoValue:
                    continue
                if not self.errors(prop, made):
                    result[name] = made
        extra = schema.get("additionalProperties")
        for name in required:  # required, and no property says what it is
            if name not in properties:
                if extra is False:
                    raise Unsatisfiable(f"`{name}` is required, and `additionalProperties: "
                                        "false` allows no such property")
                result[name] = self.make(extra if isinstance(extra, dict) else {}, depth + 1)
        for _ in range(max(0, schema.get("minProperties", 0) - len(result))):
            result[f"judge{len(result)}"] = self.make(
                extra if isinstance(extra, dict) else {}, depth + 1)
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
            prop = self.merged({}, properties.get(name, {}))
            if not prop.get("readOnly"):
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


def _nth(item: Any, n: int) -> Any:
    """The n-th of distinct variants of a made item (`uniqueItems`)."""
    if n == 0:
        return item
    if isinstance(item, bool) or item is None:
        return item
    if isinstance(item, (int, float)):
        return item + n
    if isinstance(item, str):
        return f"{item}{n}"
    if isinstance(item, dict):
        return {**item, f"judge{n}": n}
    return [*item, *([item[-1]] * n)] if isinstance(item, list) and item else item


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


def dumps(value: Any) -> str:
    """A value as the one-line JSON a failure message shows (cut short)."""
    text = json.dumps(value, default=repr, sort_keys=True)
    return text if len(text) <= 400 else text[:400] + "..."
