"""Schema rules of `contractgen diff`: how one schema compares with its next version.

Every rule names what an edit does to the set of payloads the schema accepts (its *effect*),
and the direction the payload flows decides whether that breaks a client: narrowing a request
or widening a response breaks, the opposite does not. This is oasdiff's model
(https://github.com/oasdiff/oasdiff/blob/main/docs/CHECKS.md), and rule ids follow its names.

Schemas are compared through local `$ref`s, with `allOf` merged, OpenAPI 3.0 `nullable` read
the same as a 3.1 `type: [X, "null"]` or `anyOf: [X, {type: "null"}]`, and 3.0 boolean
`exclusiveMaximum` read as the 3.1 number. A recursive schema is compared once per pair of
positions on the current path, so the walk always ends.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal
from urllib.parse import unquote

from ..spec.tree import escape, resolve_pointer

Effect = Literal["widens", "narrows", "changes", "none"]
Json = Any

# Deep enough for any hand-written spec; a bound so a pathological document cannot hang us.
_MAX_DEPTH = 200

_CONSEQUENCE: dict[tuple[str, str], str] = {
    ("request", "narrows"): "requests that were valid may now be rejected",
    ("request", "widens"): "every request that was valid stays valid",
    ("request", "changes"): "valid requests may be rejected, as old and new overlap only partly",
    ("response", "widens"): "the server may now send what existing clients do not expect",
    ("response", "narrows"): "responses stay within what clients already handle",
    ("response", "changes"): "clients may misread responses, as old and new overlap only partly",
}

_REQUIREDNESS = {
    ("request", "required"): "requests without it are rejected",
    ("response", "optional"): "responses may now lack it, and clients that read it fail",
}
# (keyword, id fragment, is an upper bound)
_BOUNDS: tuple[tuple[str, str, bool], ...] = (
    ("maxLength", "max-length", True),
    ("minLength", "min-length", False),
    ("maximum", "max", True),
    ("minimum", "min", False),
    ("exclusiveMaximum", "exclusive-max", True),
    ("exclusiveMinimum", "exclusive-min", False),
    ("maxItems", "max-items", True),
    ("minItems", "min-items", False),
    ("maxProperties", "max-properties", True),
    ("minProperties", "min-properties", False),
    ("maxContains", "max-contains", True),
    ("minContains", "min-contains", False),
)
# A lower bound of 0 on a length or count is no bound at all.
_ZERO_IS_UNSET = frozenset({"minLength", "minItems", "minProperties"})


Level = Literal["breaking", "warning", "info"]
LEVELS: tuple[Level, ...] = ("breaking", "warning", "info")

# Not breaking, yet worth a look (oasdiff's WARN): typed clients keep working, but code that read
# or sent the thing silently loses it.
_WARNINGS = frozenset({"response-optional-property-removed", "request-property-removed",
                       "request-parameter-removed", "response-link-removed",
                       "response-link-changed"})


def level_of(rule_id: str, breaking: bool) -> Level:
    """The level of a change: breaking, a warning by its rule, else info."""
    if breaking:
        return "breaking"
    return "warning" if rule_id in _WARNINGS else "info"


@dataclass(frozen=True)
class Change:
    """One difference between two OpenAPI documents, classified for clients.

    A change of a shared schema is one change: `locations` lists every place that uses it
    and `location` is the first of them.
    """

    id: str
    level: Level
    direction: str
    location: str
    message: str
    pointer: str
    locations: tuple[str, ...] = ()
    source: str = ""  # FILE:LINE where it is written (`run_diff` fills it in)

    @property
    def key(self) -> str:
        """A stable id: the same change between other versions of the contract has the same."""
        return hashlib.sha256(f"{self.id} {self.pointer}".encode()).hexdigest()[:12]

    @property
    def breaking(self) -> bool:
        """Whether clients of the old document break."""
        return self.level == "breaking"


def breaks(direction: str, effect: Effect) -> bool:
    """Whether an edit with this effect breaks clients of data flowing in this direction."""
    if effect == "changes":
        return True
    return (direction, effect) in {("request", "narrows"), ("response", "widens")}


def show(value: Json) -> str:
    """Render a JSON value for a message."""
    return json.dumps(value, sort_keys=True)


# What `Report.add` was told: rule id, breaking, direction, location, message, pointer.
Said = tuple[str, bool, str, str, str, str]


class Report:
    """The changes found so far, each recorded once; `said`: every `add`, as it was called
    (`SchemaDiff` says a walk's part again elsewhere)."""

    def __init__(self) -> None:
        self.changes: set[Change] = set()
        self.said: list[Said] = []
        self.prefix = ""  # `webhook-`/`callback-` while those are compared
        self.exempt = ""  # why breaking changes are info here (an operation at alpha), or ''

    def add(self, rule_id: str, breaking: bool, direction: str, location: str, message: str,
            *, at: str) -> None:
        """Record one change at pointer `at`; `message` is a sentence without its capital and
        full stop."""
        self.said.append((rule_id, breaking, direction, location, message, at))
        if breaking and self.exempt:
            breaking, message = False, f"{message}; but {self.exempt}"
        sentence = message[:1].upper() + message[1:] + "."
        rule_id = self.prefix + rule_id
        self.changes.add(Change(rule_id, level_of(rule_id, breaking), direction, location,
                                sentence, at, (location,)))


@dataclass(frozen=True)
class View:
    """A schema with its `$ref`s followed and `allOf` merged, and where it stands."""

    pointer: str
    schema: Mapping[str, Json]
    property_pointers: Mapping[str, str] = field(default_factory=dict)


class Side:
    """One side of the comparison: the raw document and local `$ref` resolution."""

    def __init__(self, data: Mapping[str, Json]) -> None:
        self.data = data
        self._found: dict[str, Json | None] = {}  # pointer -> node: a `$ref` is looked up once

    def lookup(self, pointer: str) -> Json | None:
        """The node at a JSON pointer, or None."""
        if pointer in self._found:
            return self._found[pointer]
        try:
            node = resolve_pointer(self.data, pointer)
        except (LookupError, ValueError, TypeError):
            node = None
        self._found[pointer] = node
        return node

    def resolve(self, node: Json, pointer: str) -> tuple[Json, str]:
        """Follow local `$ref`s to the node they name and its pointer; others stay as written."""
        seen: set[str] = set()
        while isinstance(node, Mapping) and isinstance(ref := node.get("$ref"), str):
            ref = unquote(ref)
            if not ref.startswith("#") or ref in seen:
                break
            seen.add(ref)
            target = self.lookup(ref[1:])
            if target is None:
                break
            node, pointer = target, ref[1:]
        return node, pointer

    def view(self, node: Json, pointer: str, seen: frozenset[str] = frozenset()) -> View:
        """The schema at `node`, normalised for comparison."""
        node, pointer = self.resolve(node, pointer)
        if not isinstance(node, Mapping):
            node = {}  # boolean schemas: `true` accepts anything; `false` is too rare to model
        schema = dict(node)
        props = schema.get("properties")
        pointers = {name: f"{pointer}/properties/{escape(name)}"
                    for name in (props if isinstance(props, Mapping) else {})}
        members = schema.pop("allOf", None)
        if isinstance(members, list):
            for index, member in enumerate(members):
                member_ptr = f"{pointer}/allOf/{index}"
                if self.resolve(member, member_ptr)[1] in seen | {pointer}:
                    continue  # an allOf that includes itself
                part = self.view(member, member_ptr, seen | {pointer})
                _merge(schema, part.schema)
                for name, ptr in part.property_pointers.items():
                    pointers.setdefault(name, ptr)
                if len(members) == 1 and not props:
                    # `allOf: [$ref]` is how 3.0 puts siblings beside a $ref: it *is* the target
                    pointer = part.pointer
        inner, nullable = self._union_nullability(schema, pointer, seen)
        if inner is not None:
            rest = {k: v for k, v in schema.items() if k not in ("oneOf", "anyOf")}
            schema = {**inner.schema, **rest}
            pointer, pointers = inner.pointer, {**inner.property_pointers, **pointers}
        if nullable:
            schema["nullable"] = True
        for kw, bound in (("exclusiveMaximum", "maximum"), ("exclusiveMinimum", "minimum")):
            if isinstance(schema.get(kw), bool):  # OpenAPI 3.0 spelling
                if schema.pop(kw) and bound in schema:
                    schema[kw] = schema.pop(bound)
        if "const" in schema:
            schema["enum"] = [schema.pop("const")]
        return View(pointer, schema, pointers)

    def _union_nullability(self, schema: Mapping[str, Json], pointer: str, seen: frozenset[str]
                           ) -> tuple[View | None, bool]:
        """Whether a union accepts null, and its only other member if it has one.

        A union takes null if a member does, whether that member is `{type: null}` (3.1) or has
        `nullable: true` (3.0), so nullability is read at the union; `anyOf: [X, {type: null}]`
        is then just a nullable X.
        """
        for kw in ("oneOf", "anyOf"):
            members = schema.get(kw)
            if not isinstance(members, list):
                continue
            at = [(m, f"{pointer}/{kw}/{i}") for i, m in enumerate(members)]
            kept = [(m, p) for m, p in at if not self.is_null(m, p)]
            nullable = len(kept) < len(at) or any(
                types_of(as_mapping(self.resolve(m, p)[0]))[1] for m, p in kept)
            if nullable and len(kept) == 1:
                return self.view(*kept[0], seen | {pointer}), True
            return None, nullable
        return None, False

    def is_null(self, node: Json, pointer: str) -> bool:
        """Whether a schema accepts only null."""
        schema = self.resolve(node, pointer)[0]
        if not isinstance(schema, Mapping):
            return False
        kind = schema.get("type")
        return kind in ("null", ["null"]) or schema.get("enum") == [None]


def _merge(into: dict[str, Json], part: Mapping[str, Json]) -> None:
    """Fold one allOf member into the schema that lists it."""
    for key, value in part.items():
        if key == "properties" and isinstance(value, Mapping):
            merged = dict(into.get("properties") or {})
            for name, prop in value.items():
                merged.setdefault(name, prop)
            into["properties"] = merged
        elif key == "required" and isinstance(value, list):
            into["required"] = sorted({*map(str, as_list(into.get("required"))), *map(str, value)})
        else:
            into.setdefault(key, value)


def types_of(schema: Mapping[str, Json]) -> tuple[frozenset[str] | None, bool]:
    """The non-null types a schema allows (None: any) and whether it allows null."""
    raw = schema.get("type")
    nullable = schema.get("nullable") is True or None in as_list(schema.get("enum"))
    if raw is None:
        return None, nullable
    names = {raw} if isinstance(raw, str) else {str(t) for t in as_list(raw)}
    return frozenset(names - {"null"}), nullable or "null" in names


def _accepts(types: frozenset[str] | None, kind: str) -> bool:
    return types is None or kind in types or (kind == "integer" and "number" in types)


def _set_effect(old: frozenset[str] | None, new: frozenset[str] | None) -> Effect:
    """How the set of accepted types moved."""
    widened = new is None if old is None else all(_accepts(new, t) for t in old)
    narrowed = old is None if new is None else all(_accepts(old, t) for t in new)
    if widened and narrowed:
        return "none"
    return "widens" if widened else "narrows" if narrowed else "changes"


def _combine(first: Effect, second: Effect) -> Effect:
    if first in ("none", second):
        return second
    return first if second == "none" else "changes"


def _show_type(types: frozenset[str] | None, fmt: Json) -> str:
    shown = "any type" if types is None else "/".join(sorted(types)) or "null"
    return f"{shown} ({fmt})" if fmt else shown


def _enum_values(schema: Mapping[str, Json]) -> dict[str, Json] | None:
    values = schema.get("enum")
    if not isinstance(values, list):
        return None
    return {show(v): v for v in values if v is not None}


def _union(view: View) -> tuple[str, list[Json]] | None:
    for kw in ("oneOf", "anyOf"):
        members = view.schema.get(kw)
        if isinstance(members, list) and members:
            return kw, members
    return None


def _extra(schema: Mapping[str, Json]) -> str:
    value = schema.get("additionalProperties", True)
    if value is False:
        return "closed"
    return "schema" if isinstance(value, Mapping) and value else "open"


@dataclass(frozen=True)
class Site:
    """Where a schema sits: the way its data flows and how to name its parts."""

    direction: str  # "request" | "response"
    where: str  # e.g. "POST /sessions request body"
    root: str  # "body" | "parameter" | "header": what the top-level schema describes
    path: str = ""  # e.g. "/input/code"
    inert: str = ""  # why nothing under here can break a client (readOnly in a request, ...)
    in_union: bool = False  # a union member, whose nullability is read at the union

    @property
    def subject(self) -> str:
        """The id fragment for the thing at this site."""
        if not self.path:
            return self.root
        return "parameter-property" if self.root == "parameter" else "property"

    @property
    def location(self) -> str:
        """Where this site is, for people."""
        return f"{self.where} {self.path}" if self.path else self.where

    def rule(self, suffix: str) -> str:
        """An oasdiff-style rule id for this site, e.g. `request-property-max-length-decreased`."""
        return f"{self.direction}-{self.subject}-{suffix}"

    def child(self, segment: str) -> Site:
        """The site of a nested schema."""
        return replace(self, path=self.path + segment, in_union=False)


def as_list(value: Json) -> list[Json]:
    """The value if it is a list, else an empty one (a malformed document is still compared)."""
    return value if isinstance(value, list) else []


def as_mapping(value: Json) -> Mapping[str, Json]:
    """The value if it is a mapping, else an empty one."""
    return value if isinstance(value, Mapping) else {}
