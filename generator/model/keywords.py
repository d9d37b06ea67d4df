"""JSON Schema keywords pydantic has no keyword for (`uniqueItems`, string `format`s, tuples
from `prefixItems` and `items: false`), and located warnings for those the generated models
do not enforce: nothing a contract declares is dropped silently."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from ..spec.ecma import Untranslatable, ecma_mode, translate
from ..spec.tree import make_pointer, walk_objects
from .schema_facts import STRING_FORMATS, array_constraints, string_constraints
from .typeref import ANY, Check, TypeRef

# Formats checked by a `check_<name>` validator of models.py, the value kept as a string.
CHECKED_FORMATS: dict[str, Check] = {"email": "email", "uri": "uri"}
# Formats that describe the value's encoding or use, not a syntax to check.
_NOT_SYNTAX = frozenset({"byte", "binary", "password"})
# Keywords the models do not enforce, and what is lost.
_UNENFORCED = {
    "if": "`if`/`then`/`else` is not enforced: values are checked against the other keywords only",
    "dependentRequired": "`dependentRequired` is not enforced",
    "dependentSchemas": "`dependentSchemas` is not enforced",
    "dependencies": "`dependencies` is not enforced",
    "patternProperties": "`patternProperties` is not enforced: other properties are kept unchecked",
    "propertyNames": "`propertyNames` is not enforced",
    "contains": "`contains` (and `minContains`/`maxContains`) is not enforced",
    "unevaluatedItems": "`unevaluatedItems` is not enforced",
}

Convert = Callable[[Any, str], TypeRef]


def string_type(schema: Mapping[str, Any]) -> TypeRef:
    """A string schema's type: a datetime, date, UUID... for the formats pydantic parses,
    `str` with a check for email and uri, else `str` with its length and pattern bounds."""
    fmt = schema.get("format")
    name = STRING_FORMATS.get(fmt, "str") if isinstance(fmt, str) else "str"
    if schema.get("contentEncoding") == "base64" or fmt == "byte":
        name = "str"
    if name != "str":
        return _plain(name)
    checks = (CHECKED_FORMATS[fmt],) if isinstance(fmt, str) and fmt in CHECKED_FORMATS else ()
    constraints = string_constraints(schema)
    if not constraints and not checks:
        return _plain("str")  # most strings of a contract: one immutable value for all
    return TypeRef("builtin", "str", constraints=constraints, checks=checks)


@functools.cache
def _plain(name: str) -> TypeRef:
    return TypeRef("builtin", name)


def unchecked_format(schema: Any) -> str | None:
    """The `format` of a string schema that is kept as a plain, unchecked string."""
    if not isinstance(schema, Mapping):
        return None
    fmt = schema.get("format")
    kind = schema.get("type")
    if not isinstance(fmt, str) or (kind != "string" and not (
            isinstance(kind, list) and "string" in kind)):
        return None
    if fmt in STRING_FORMATS or fmt in CHECKED_FORMATS or fmt in _NOT_SYNTAX:
        return None
    return fmt


def array_type(schema: Mapping[str, Any], hint: str, convert: Convert,
               warn: Callable[[str], None]) -> TypeRef:
    """`list[X]` (with `uniqueItems` checked), or a tuple for `prefixItems` closed by
    `items: false` and a `minItems` asking for all of them; `items: false` alone is `tuple[()]`."""
    items = schema.get("items")
    prefix = schema.get("prefixItems")
    if isinstance(prefix, list):
        closed = items is False or schema.get("maxItems") == len(prefix)
        if closed and schema.get("minItems", 0) >= len(prefix):
            return TypeRef("tuple", args=tuple(
                convert(p, f"{hint}Item{i + 1}") for i, p in enumerate(prefix)))
        warn("`prefixItems` is not enforced (a tuple needs `items: false` and `minItems` equal "
             "to the number of prefixItems): items are any values")
        items = None
    elif items is False:
        return TypeRef("tuple")
    item = convert(items, hint + "Item") if isinstance(items, dict) else ANY
    checks: tuple[Check, ...] = ("unique_items",) if schema.get("uniqueItems") is True else ()
    return TypeRef("list", args=(item,), constraints=array_constraints(dict(schema)),
                   checks=checks)


def unenforced(schema: Mapping[str, Any]) -> list[str]:
    """What the models leave unchecked of `schema`'s own keywords."""
    # Asked of every schema converted, and almost always none: one set intersection first.
    found = ([message for key, message in _UNENFORCED.items() if key in schema]
             if not _UNENFORCED.keys().isdisjoint(schema.keys()) else [])
    extra = schema.get("unevaluatedProperties")
    if extra is not None and extra is not False:
        found.append("`unevaluatedProperties` with a schema is not enforced")
    pattern = schema.get("pattern")
    fmt = schema.get("format")
    parsed = STRING_FORMATS.get(fmt, "str") if isinstance(fmt, str) else "str"
    if isinstance(pattern, str) and pattern and parsed != "str" and fmt != "byte":
        found.append(f"`pattern` {pattern!r} is not enforced beside `format: {fmt}`: the value "
                     f"is read as a {parsed}, whatever its text")
    elif isinstance(pattern, str) and pattern and ecma_mode(pattern) is not None:
        try:
            translate(pattern)
        except Untranslatable as exc:
            found.append(f"`pattern` {pattern!r} is not enforced: {exc}")
    return found


class Notes:
    """Located warnings of the model builder: (JSON pointer, message), the pointer being the
    innermost node of the document under conversion."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        self.document = document
        # The path of every node, found on the first warning that needs one (a walk of the whole
        # document, ~15 ms on a large contract: most conversions warn nothing).
        self._paths: dict[int, tuple[str | int, ...]] | None = None
        # The nodes under conversion, innermost last: nodes of the document, and schemas made
        # on the way (a merged allOf), which have no path.
        self._stack: list[Any] = []
        self.found: dict[tuple[str, str], None] = {}

    def enter(self, node: Any) -> None:
        """Make `node` the current place (until `leave`); a node that is not the document's
        leaves the place where it was."""
        self._stack.append(node)

    def leave(self) -> None:
        self._stack.pop()

    def warn(self, message: str, pointer: str | None = None) -> None:
        if pointer is None:
            pointer = make_pointer(self._place())
        self.found[(pointer, message)] = None

    def _place(self) -> tuple[str | int, ...]:
        if self._paths is None:
            self._paths = {id(obj): path for path, obj in walk_objects(self.document)}
        for node in reversed(self._stack):
            path = self._paths.get(id(node))
            if path is not None:
                return path
        return ()


def excluded_by(target: Mapping[str, Any]) -> tuple[tuple[str, ...], tuple[object, ...]] | None:
    """What a `not` rules out, when it is a type, an enum or a const (else not enforced)."""
    kind = target.get("type")
    types = tuple(kind) if isinstance(kind, list) else (kind,) if isinstance(kind, str) else ()
    values = tuple(target.get("enum") or ()) + ((target["const"],) if "const" in target else ())
    if not types and not values:
        return None
    return tuple(str(t) for t in types), values


def exclusive(members: list[Any], deref: Callable[[Any], dict[str, Any]], union: TypeRef) -> bool:
    """No value can match two members of this `oneOf`: the union is discriminated, or its
    members are of different JSON types (integer and number overlap) or different consts."""
    if union.kind != "union" or union.discriminator:
        return True
    seen: set[str] = set()
    for member in members:
        target = deref(member)
        kind = target.get("type")
        if "const" in target:
            kind = f"const {target['const']!r}"
        elif not isinstance(kind, str):
            return False
        kind = "number" if kind == "integer" else kind
        if kind in seen:
            return False
        seen.add(kind)
    return True
