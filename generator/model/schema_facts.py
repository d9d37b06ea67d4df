"""Facts about one JSON Schema node, without the converter's state: its formats, bounds,
union shape, discriminator tags and enum definition."""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Literal

from ..spec.ecma import Untranslatable, translate
from ..spec.tree import resolve_pointer
from .ir import AliasDef, EnumDef
from .naming import PythonIdentifier, enum_member
from .typeref import Constraints, TypeRef

STRING_FORMATS = {"date-time": "datetime.datetime", "date": "datetime.date",
                  "time": "datetime.time", "uuid": "uuid.UUID", "binary": "bytes",
                  "ipv4": "ipaddress.IPv4Address", "ipv6": "ipaddress.IPv6Address"}
SCHEMA_PREFIX = "#/components/schemas/"


def deref(document: Mapping[str, Any], node: Any) -> dict[str, Any]:
    """`node` with local `$ref`s followed (at most 50 hops); `{}` when one leads nowhere."""
    for _ in range(50):
        if not (isinstance(node, dict) and isinstance(node.get("$ref"), str)):
            break
        try:
            node = resolve_pointer(document, node["$ref"])
        except (LookupError, ValueError):
            return {}
    return node if isinstance(node, dict) else {}


def discriminator_values(document: Mapping[str, Any]) -> dict[tuple[str, str], list[str]]:
    """(component ref, property) -> tag values a discriminator mapping assigns to it."""
    found: dict[tuple[str, str], list[str]] = {}
    for node in walk(document):
        disc = node.get("discriminator")
        members = node.get("oneOf") or node.get("anyOf")
        if not isinstance(disc, dict) or not isinstance(members, list):
            continue
        prop = disc.get("propertyName")
        if not isinstance(prop, str):
            continue
        mapping = disc.get("mapping") or {}
        pairs = [(str(v), str(k)) for k, v in mapping.items()]
        mapped = {ref for ref, _ in pairs}
        for member in members:
            ref = member.get("$ref") if isinstance(member, dict) else None
            if isinstance(ref, str) and ref not in mapped and ref.startswith(SCHEMA_PREFIX):
                pairs.append((ref, ref.rsplit("/", 1)[-1]))
        for ref, value in pairs:
            if not ref.startswith("#"):
                ref = SCHEMA_PREFIX + ref
            values = found.setdefault((ref, prop), [])
            if value not in values:
                values.append(value)
    return found


def enum_definition(name: str, schema: dict[str, Any]) -> EnumDef | None:
    enum = schema.get("enum")
    if not isinstance(enum, list):
        return None
    values = [v for v in enum if v is not None]
    if len(values) < 2 or any(isinstance(v, bool) for v in values):
        return None
    value_type: Literal["str", "int", "float"]
    if all(isinstance(v, str) for v in values):
        value_type = "str"
    elif all(isinstance(v, int) for v in values):
        value_type = "int"
    elif all(isinstance(v, int | float) for v in values):
        value_type = "float"  # typing's Literal takes no floats; a float-valued Enum does
        values = [float(v) for v in values]
    else:
        return None
    members: list[tuple[str, str | int | float]] = []
    used: set[str] = set()
    for value in dict.fromkeys(values):
        member = enum_member(value)
        while member in used:
            member += "_"
        used.add(member)
        members.append((member, value))
    closed = schema.get("x-enum-closed") is True
    return EnumDef(name, described(schema), value_type, tuple(members), closed)


# Names a field annotation or default may print (besides generated classes).
TYPE_NAMES = frozenset({"str", "int", "float", "bool", "bytes", "list", "dict", "datetime", "uuid",
                        "ipaddress", "Decimal", "Any", "Literal", "Annotated", "Field",
                        "ClassVar", "frozenset"})
ANNOTATIONS = frozenset({"description", "title", "example", "examples", "deprecated", "readOnly",
                         "writeOnly", "externalDocs", "xml", "default", "nullable", "$comment"})


def widen_numbers(args: list[TypeRef]) -> list[TypeRef]:
    """`number` beside other kinds is `int | float`: pydantic's union would turn 5 into 5.0 (and
    lose precision past 2**53), changing a value that only passes through."""
    if any(a.kind == "builtin" and a.name == "int" for a in args):
        return args
    out: list[TypeRef] = []
    for arg in args:
        if arg.kind == "builtin" and arg.name == "float":
            constraints = _integer_bounds(arg.constraints)
            if constraints is not None:
                out.append(TypeRef("builtin", "int", constraints=constraints))
        out.append(arg)
    return out


def _integer_bounds(constraints: Constraints) -> Constraints | None:
    """A number's bounds for its integer values (`ge=0.5` -> `ge=1`); None when a fractional
    `multipleOf` has no such form (the member then stays `float` alone)."""
    out: list[tuple[str, Any]] = []
    for key, bound in constraints:
        value = float(bound)
        if value.is_integer():
            out.append((key, int(value)))
        elif key in ("ge", "gt"):
            out.append(("ge", math.floor(value) + 1))
        elif key in ("le", "lt"):
            out.append(("le", math.ceil(value) - 1))
        else:
            return None
    return tuple(out)


def is_union(schema: dict[str, Any]) -> bool:
    for key in ("oneOf", "anyOf"):
        members = schema.get(key)
        if isinstance(members, list) and sum(not is_null_schema(m) for m in members) > 1:
            return True
    return False


def reaches(start: str, aliases: Mapping[str, AliasDef]) -> bool:
    """True when alias `start` refers back to itself through aliases."""
    stack = sorted(aliases[start].dependencies() & aliases.keys())
    seen: set[str] = set()
    while stack:
        current = stack.pop()
        if current == start:
            return True
        if current not in seen:
            seen.add(current)
            stack.extend(sorted(aliases[current].dependencies() & aliases.keys()))
    return False


def is_null_schema(schema: Any) -> bool:
    return isinstance(schema, dict) and (
        schema.get("type") == "null" or schema.get("enum") == [None]
        or ("const" in schema and schema["const"] is None))


def string_constraints(schema: Mapping[str, Any]) -> Constraints:
    out = list(bounds(schema, ("minLength", "min_length"), ("maxLength", "max_length")))
    pattern = schema.get("pattern")
    if isinstance(pattern, str) and pattern:
        with contextlib.suppress(Untranslatable):  # `unenforced` says so
            out.append(("pattern", translate(pattern)))
    return tuple(out)


def array_constraints(schema: dict[str, Any]) -> Constraints:
    return bounds(schema, ("minItems", "min_length"), ("maxItems", "max_length"))


def number_constraints(schema: dict[str, Any]) -> Constraints:
    """pydantic Field arguments for a number's bounds (3.0 boolean exclusives included)."""
    out: list[tuple[str, Any]] = []
    minimum, maximum = schema.get("minimum"), schema.get("maximum")
    exc_min, exc_max = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    if isinstance(exc_min, bool):  # 3.0: a flag on minimum
        exc_min = minimum if exc_min else None
        minimum = None if exc_min is not None else minimum
    if isinstance(exc_max, bool):
        exc_max = maximum if exc_max else None
        maximum = None if exc_max is not None else maximum
    for key, value in (("ge", minimum), ("gt", exc_min), ("le", maximum), ("lt", exc_max),
                       ("multiple_of", schema.get("multipleOf"))):
        if isinstance(value, int | float) and not isinstance(value, bool):
            out.append((key, value))
    return tuple(out)


# OpenAPI's integer formats: a value outside is refused, as openapi-schema-validator refuses it.
_INTEGER_RANGES = {"int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1)}


def integer_constraints(schema: dict[str, Any]) -> Constraints:
    """`number_constraints`, and the range of an `int32`/`int64` format where no bound is
    as tight."""
    out = list(number_constraints(schema))
    span = _INTEGER_RANGES.get(str(schema.get("format")))
    if span is not None:
        keys = {key for key, _ in out}
        if not keys & {"ge", "gt"}:
            out.append(("ge", span[0]))
        if not keys & {"le", "lt"}:
            out.append(("le", span[1]))
    return tuple(out)


def json_types(schema: dict[str, Any]) -> list[str]:
    """The JSON types a schema names, `null` left out unless it is the only one."""
    kind = schema.get("type")
    if isinstance(kind, list):
        return [t for t in kind if t != "null"] or (["null"] if "null" in kind else [])
    return [kind] if isinstance(kind, str) else []


def is_nullable(schema: dict[str, Any]) -> bool:
    """The schema admits null: `nullable`, a type list or enum holding null, a null member;
    not when an enum leaves null out (JSON Schema checks `enum` beside `type`)."""
    enum = schema.get("enum")
    if isinstance(enum, list) and enum and None not in enum:
        return False
    if schema.get("nullable") is True:
        return True
    kind = schema.get("type")
    if isinstance(kind, list) and "null" in kind and len(kind) > 1:
        return True
    if isinstance(enum, list) and None in enum and len(enum) > 1:
        return True
    for key in ("oneOf", "anyOf"):
        members = schema.get(key)
        if isinstance(members, list) and any(is_null_schema(m) for m in members):
            return len(members) > 1
    return False


# The keywords that can refuse `null`; a schema with none of them admits it (3.0 and 3.1).
_REFUSING_NULL = frozenset({"type", "enum", "const", "allOf", "anyOf", "oneOf", "not", "$ref"})


def admits_null(schema: dict[str, Any], follow: Callable[[Any], dict[str, Any]],
                depth: int = 0) -> bool:
    """`is_nullable`, or an `allOf` whose members all admit null, one of them by saying so:
    3.0's `nullable` stays where it is written, so `allOf: [{$ref: X}, {description: ...}]`
    (the usual way to describe a reference) admits null when `X` is nullable. `follow`
    follows a member's `$ref`."""
    if is_nullable(schema):
        return True
    all_of = schema.get("allOf")
    if not isinstance(all_of, list) or not all_of or depth > 20:
        return False
    if any(key in _REFUSING_NULL for key in schema if key != "allOf"):
        return False
    found = False
    for member in all_of:
        target = follow(member)
        if not _REFUSING_NULL & target.keys():
            continue  # annotations, or keywords of other types only: null passes them
        if not admits_null(target, follow, depth + 1):
            return False
        found = True
    return found


def bounds(schema: Mapping[str, Any], *pairs: tuple[str, str]) -> Constraints:
    """pydantic Field arguments for integer bounds (`minItems` -> `min_length=...`)."""
    out: list[tuple[str, Any]] = []
    for key, name in pairs:
        value = schema.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            out.append((name, value))
    return tuple(out)


def required_names(schema: Any) -> list[str]:
    """A schema's `required` names; a value that is not a list of strings is the validator's
    to report, and is read here as far as it is one."""
    found = schema.get("required") if isinstance(schema, dict) else None
    return [r for r in found if isinstance(r, str)] if isinstance(found, list) else []


def text(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


def described(schema: Mapping[str, Any]) -> str | None:
    """A schema's own description, saying so when the schema is `deprecated`."""
    own = text(schema.get("description"))
    if schema.get("deprecated") is not True:
        return own
    return f"Deprecated. {own}" if own else "Deprecated."


def all_of_parts(document: Mapping[str, Any], schema: dict[str, Any],
                 seen: frozenset[int] = frozenset()) -> Iterator[dict[str, Any]]:
    """`schema`, then its `allOf` members at any depth, through `$ref`s."""
    yield schema
    for member in schema.get("allOf") or ():
        target = deref(document, member)
        if isinstance(target, dict) and id(target) not in seen:
            yield from all_of_parts(document, target, seen | {id(target)})


def walk(node: Any) -> Iterator[dict[str, Any]]:
    """Every mapping in a document, depth first, in document order."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, dict):
            yield current
            stack.extend(reversed(list(current.values())))
        elif isinstance(current, list):
            stack.extend(reversed(current))


def field_names(properties: dict[str, Any],
                component_name: Callable[[str], str | None]) -> dict[str, str]:
    """Wire name -> Python name for a model's fields, decided from the schemas alone.

    A field may not take a name its class's annotations or defaults use (`list: list[str]`,
    `winner: winner | None = None`): with postponed annotations pydantic would resolve the
    name to the field's default. Such fields get a suffix and keep the wire name as alias.
    """
    shadowed = set(TYPE_NAMES)
    for prop in properties.values():
        for node in walk(prop):
            ref = node.get("$ref")
            name = component_name(ref) if isinstance(ref, str) else None
            if name is not None:
                shadowed.add(name)
    names: dict[str, str] = {}
    used: set[str] = set()
    for wire in properties:
        py_name = PythonIdentifier(wire)
        while py_name in used or py_name in shadowed:
            py_name = PythonIdentifier(py_name + "_")
        used.add(py_name)
        names[wire] = py_name
    return names


def example_json(document: Mapping[str, Any], node: Mapping[str, Any]) -> str | None:
    """The `example`, else the first of `examples`, of a parameter or media type, as JSON."""
    if "example" in node:
        value = node["example"]
    else:
        examples = node.get("examples")
        first = next(iter(examples.values()), None) if isinstance(examples, dict) else None
        first = deref(document, first) if isinstance(first, dict) else None
        if not first or "value" not in first:
            return None
        value = first["value"]
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return text if len(text) <= 200 else text[:197] + "..."
