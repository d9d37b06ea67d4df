"""Defaults that break their own schema (`default: 'false'` on a boolean: TGI, Xero; `default:
null` on an object that is not nullable: OpenAI), judged by openapi-schema-validator (the
dialect of the document's version, its `$ref`s resolved in the document), not by us.

`validate` reports each at the default itself (`lint`); `validate --emit-overlay` and
`generate --lenient` repair it (`repair`): a string that is the JSON text of a valid value
becomes that value (`'false'` -> false, `'1024'` -> 1024), any other default is dropped.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..problems import Level, Problem
from .loader import Document
from .tree import Part, make_pointer, walk_objects

SCHEMA_KEYS = frozenset({"type", "enum", "const", "properties", "items", "$ref", "allOf",
                          "oneOf", "anyOf", "format", "nullable", "additionalProperties"})
_NO_VALUE = object()


@dataclass(frozen=True)
class BadDefault:
    """A schema's `default` its schema refuses: where, why, and the value it stands for
    (`repaired`; `None` is a value here, so `dropped` says there is none)."""

    path: tuple[Part, ...]
    default: Any
    reason: str
    repaired: Any
    dropped: bool

    @property
    def pointer(self) -> str:
        return make_pointer((*self.path, "default"))

    def hint(self) -> str:
        if not self.dropped:
            return (f"write the JSON value `default: {json.dumps(self.repaired)}`, not a string "
                    "(`contractgen validate --emit-overlay FILE` writes the repair)")
        return ("drop the default, or give one its schema accepts (`contractgen validate "
                "--emit-overlay FILE` drops it)")


def default_problems(doc: Document) -> list[Problem]:
    """An ERROR at each default its schema refuses, with the fix (an overlay applies to the
    entry file only: a default written in another file is repaired by `--lenient`)."""
    problems = []
    for bad in bad_defaults(doc.data):
        problem = doc.problem(Level.ERROR, bad.pointer, f"default value is invalid: {bad.reason}",
                              bad.hint())
        if Path(problem.file).resolve() != doc.path.resolve():
            problem = replace(problem, hint=bad.hint().split(" (`")[0] + " in this file; "
                              "`generate --lenient` repairs it (an overlay applies to the "
                              "entry file only)")
        problems.append(problem)
    return problems


def default_repairs(data: dict[str, Any], path_of: Callable[[tuple[Part, ...]], str]
                    ) -> list[dict[str, Any]]:
    """Overlay actions (targets spelled by `path_of`): each bad default read as JSON, or gone."""
    actions: list[dict[str, Any]] = []
    for bad in bad_defaults(data):
        said = f"`default: {json.dumps(bad.default)}` {bad.reason}"
        actions.append({"target": path_of((*bad.path, "default")), "remove": True,
                        "description": f"{said}: dropped." if bad.dropped else
                        f"{said}: read as `{json.dumps(bad.repaired)}`."})
        if not bad.dropped:
            actions.append({"target": path_of(bad.path), "update": {"default": bad.repaired},
                            "description": "The value its JSON text stands for."})
    return actions


def bad_defaults(data: dict[str, Any]) -> Iterator[BadDefault]:
    """Every schema default of `data` its own schema refuses, in document order (the judge,
    and its imports, only for those a glance cannot clear)."""
    judge: _Judge | None = None
    for path, obj in walk_objects(data):
        if "default" not in obj or not SCHEMA_KEYS & obj.keys() or _in_servers(path):
            continue
        if obj["default"] is None and obj.get("nullable") is True:
            continue  # 3.1 ignores `nullable`: its own warning and repair say so
        if plainly_valid(obj, obj["default"]):
            continue
        judge = judge or _Judge(data)
        reason = judge.refusal(path, obj["default"])
        if reason is None:
            continue
        repaired = _from_text(judge, path, obj["default"])
        yield BadDefault(path, obj["default"], reason, None if repaired is _NO_VALUE
                         else repaired, repaired is _NO_VALUE)


_PLAIN_KEYS = frozenset({"type", "default", "enum", "minimum", "maximum", "minLength",
                         "maxLength", "description", "title", "example", "examples", "nullable",
                         "readOnly", "writeOnly", "deprecated", "externalDocs", "xml"})
_PLAIN_TYPES: dict[str, type | tuple[type, ...]] = {
    "string": str, "boolean": bool, "integer": int, "number": (int, float)}


# The string formats openapi-schema-validator checks (the others say nothing it can judge).
_CHECKED = frozenset({"binary", "byte", "date", "date-time", "email", "idn-email",
                      "idn-hostname", "ipv4", "ipv6", "password", "regex", "time", "uuid"})


def plainly_valid(schema: dict[str, Any], value: Any) -> bool:
    """A scalar schema of plain keywords that plainly accepts `value` (False: judge it): also
    3.1's `type: [T, "null"]` (None, or what T accepts) and a `const` equal to `value`
    (`type: X, const: a, default: a`, as otari's result types write them)."""
    kind = schema.get("type")
    if isinstance(kind, list) and all(isinstance(k, str) for k in kind):
        if value is None:
            return "null" in kind and set(schema) <= _NULL_KEYS
        return any(plainly_valid({**schema, "type": k}, value) for k in kind if k != "null")
    if "const" in schema:
        rest = {k: v for k, v in schema.items() if k != "const"}
        if kind is None:
            return _same(schema["const"], value) and set(rest) <= _PLAIN_KEYS
        return _same(schema["const"], value) and plainly_valid(rest, value)
    keys = [k for k in schema if k not in _PLAIN_KEYS and not k.startswith("x-")]
    if kind == "array" and isinstance(value, list) and keys == ["items"]:
        items = schema["items"]
        return isinstance(items, dict) and all(plainly_valid(items, v) for v in value)
    if keys == ["format"] and ((kind in ("integer", "number") and abs(_number(value)) < 2**31)
                               or (kind == "string" and schema["format"] not in _CHECKED)):
        keys = []
    if not isinstance(kind, str) or kind not in _PLAIN_TYPES or keys:
        return False
    if isinstance(value, bool) != (kind == "boolean") or not isinstance(value, _PLAIN_TYPES[kind]):
        return False
    enum = schema.get("enum")
    if enum is not None and (not isinstance(enum, list) or value not in enum):
        return False
    size = len(value) if isinstance(value, str) else _number(value)
    for key, low in (("minimum", True), ("maximum", False), ("minLength", True),
                     ("maxLength", False)):
        bound = schema.get(key)
        if bound is None or key.endswith("Length") != isinstance(value, str):
            continue
        if isinstance(bound, bool) or not isinstance(bound, int | float):
            return False
        if (size < bound) if low else (size > bound):
            return False
    return True


# The keywords beside `type: [..., "null"]` that a None default passes whatever they say.
_NULL_KEYS = frozenset({"type", "default", "description", "title", "example", "examples",
                        "readOnly", "writeOnly", "deprecated", "minimum", "maximum",
                        "minLength", "maxLength", "format", "items"})


def _same(const: Any, value: Any) -> bool:
    """`value` is the scalar `const` (JSON's: `1` is not `true`)."""
    return (isinstance(const, str | int | float | bool) and type(const) is type(value)
            and const == value)


def _number(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def _in_servers(path: tuple[Part, ...]) -> bool:
    return "variables" in path  # a server variable's default is a string, not a schema's


def _from_text(judge: _Judge, path: tuple[Part, ...], value: Any) -> Any:
    if not isinstance(value, str):
        return _NO_VALUE
    try:
        read = json.loads(value)
    except ValueError:
        return _NO_VALUE
    if isinstance(read, str) or judge.refusal(path, read) is not None:
        return _NO_VALUE
    return read


class _Judge:
    """openapi-schema-validator's verdict on a value for the schema at a path of `data`."""

    _BASE = "urn:contractgen:document"

    def __init__(self, data: dict[str, Any]) -> None:
        from jsonschema import Draft4Validator, validators
        from openapi_schema_validator import (
            OAS30Validator,
            OAS31Validator,
            oas30_format_checker,
            oas31_format_checker,
        )
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT4, DRAFT202012

        is_30 = str(data.get("openapi", "")).startswith("3.0")
        # JSON Schema's own oneOf/anyOf: a discriminator is a hint for picking the member, not
        # a keyword of its own (openapi-schema-validator 0.8 resolves its value as a schema
        # name without a mapping, and refuses `kind: b` for a member whose `kind` enum is b).
        plain = {key: Draft4Validator.VALIDATORS[key] for key in ("oneOf", "anyOf")}
        self.cls = validators.extend(OAS30Validator if is_30 else OAS31Validator, plain)
        self.formats = oas30_format_checker if is_30 else oas31_format_checker
        resource = Resource.from_contents(data, default_specification=(
            DRAFT4 if is_30 else DRAFT202012))
        self.registry: Any = Registry().with_resource(self._BASE, resource)

    def refusal(self, path: tuple[Part, ...], value: Any) -> str | None:
        """Why the schema at `path` refuses `value`, or None when it accepts it."""
        from jsonschema.exceptions import best_match

        from .phrasing import human

        schema = {"$ref": self._BASE + "#" + make_pointer(path)}
        try:
            error = best_match(self.cls(schema, registry=self.registry, format_checker=self.formats
                                         ).iter_errors(value))
        except Exception:  # a schema the validator cannot read: the validator reports that
            return None
        return None if error is None else human(error)
