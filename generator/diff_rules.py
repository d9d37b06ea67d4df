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

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal
from urllib.parse import unquote

from .tree import escape, resolve_pointer

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
)
# A lower bound of 0 on a length or count is no bound at all.
_ZERO_IS_UNSET = frozenset({"minLength", "minItems", "minProperties"})


@dataclass(frozen=True)
class Change:
    """One difference between two OpenAPI documents, classified for clients."""

    id: str
    breaking: bool
    direction: str
    location: str
    message: str
    pointer: str


def breaks(direction: str, effect: Effect) -> bool:
    """Whether an edit with this effect breaks clients of data flowing in this direction."""
    if effect == "changes":
        return True
    return (direction, effect) in {("request", "narrows"), ("response", "widens")}


def show(value: Json) -> str:
    """Render a JSON value for a message."""
    return json.dumps(value, sort_keys=True)


class Report:
    """The changes found so far, each recorded once."""

    def __init__(self) -> None:
        self.changes: set[Change] = set()

    def add(
        self,
        rule_id: str,
        breaking: bool,
        direction: str,
        location: str,
        message: str,
        *,
        pointer: str,
    ) -> None:
        """Record one change; `message` is a sentence without its capital and full stop."""
        sentence = message[:1].upper() + message[1:] + "."
        self.changes.add(Change(rule_id, breaking, direction, location, sentence, pointer))


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

    def lookup(self, pointer: str) -> Json | None:
        """The node at a JSON pointer, or None."""
        try:
            return resolve_pointer(self.data, pointer)
        except (LookupError, ValueError):
            return None

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
        pointers = {
            name: f"{pointer}/properties/{escape(name)}"
            for name in (props if isinstance(props, Mapping) else {})
        }
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

    def _union_nullability(
        self, schema: Mapping[str, Json], pointer: str, seen: frozenset[str]
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
                types_of(as_mapping(self.resolve(m, p)[0]))[1] for m, p in kept
            )
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
            into["required"] = sorted({*into.get("required", []), *value})
        else:
            into.setdefault(key, value)


def types_of(schema: Mapping[str, Json]) -> tuple[frozenset[str] | None, bool]:
    """The non-null types a schema allows (None: any) and whether it allows null."""
    raw = schema.get("type")
    nullable = schema.get("nullable") is True or None in (schema.get("enum") or ())
    if raw is None:
        return None, nullable
    names = {raw} if isinstance(raw, str) else {str(t) for t in raw}
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


class SchemaDiff:
    """Compares schemas of two documents and adds what differs to a report."""

    def __init__(self, old: Side, new: Side, report: Report) -> None:
        self.old, self.new, self.report = old, new, report
        self._active: set[tuple[str, str, str, str]] = set()

    def emit(
        self,
        site: Site,
        rule_id: str,
        effect: Effect,
        what: str,
        pointer: str,
        *,
        why: str = "",
        breaking: bool | None = None,
    ) -> None:
        """Record a change at a schema site, its severity derived from effect and direction."""
        if breaking is None:
            breaking = breaks(site.direction, effect)
        if not why:
            why = _CONSEQUENCE.get((site.direction, effect), "what is accepted does not change")
        message = f"{what}, so {why}"
        if site.inert and breaking:
            breaking, message = False, f"{what}, but the property is {site.inert}"
        self.report.add(rule_id, breaking, site.direction, site.location, message, pointer=pointer)

    def compare(self, old: Json, new: Json, old_ptr: str, new_ptr: str, site: Site) -> None:
        """Compare the schema `old` (at `old_ptr`) with `new` (at `new_ptr`)."""
        o, n = self.old.view(old, old_ptr), self.new.view(new, new_ptr)
        key = (o.pointer, n.pointer, site.direction, site.inert)
        if key in self._active or len(self._active) >= _MAX_DEPTH:
            return
        self._active.add(key)
        try:
            if not site.in_union:
                self._nullability(o, n, site)
            if _union(o) or _union(n):
                members = replace(site, in_union=True)
                self._unions((old, new), (old_ptr, new_ptr), o, n, members)
                if not (_union(o) and _union(n)):
                    return
            self._unresolved(o, n, site)
            self._types(o, n, site)
            self._enum(o, n, site)
            self._bounds(o, n, site)
            self._pattern(o, n, site)
            self._default(o, n, site)
            self._object(o, n, site)
            self._items(o, n, site)
        finally:
            self._active.discard(key)

    def _unresolved(self, o: View, n: View, site: Site) -> None:
        old_ref, new_ref = o.schema.get("$ref"), n.schema.get("$ref")
        if (old_ref or new_ref) and old_ref != new_ref:
            self.emit(
                site,
                site.rule("ref-changed"),
                "changes",
                f"the unresolved reference changed from {show(old_ref)} to {show(new_ref)}",
                n.pointer,
            )

    def _nullability(self, o: View, n: View, site: Site) -> None:
        old_null, new_null = types_of(o.schema)[1], types_of(n.schema)[1]
        if old_null != new_null:
            effect: Effect = "widens" if new_null else "narrows"
            became = "nullable" if new_null else "not-nullable"
            self.emit(
                site,
                site.rule(f"became-{became}"),
                effect,
                f"the value became {became.replace('-', ' ')}",
                n.pointer,
            )

    def _types(self, o: View, n: View, site: Site) -> None:
        old_types, new_types = types_of(o.schema)[0], types_of(n.schema)[0]
        old_fmt, new_fmt = o.schema.get("format"), n.schema.get("format")
        fmt_effect: Effect = "none"
        if old_fmt != new_fmt:
            fmt_effect = (
                "narrows" if old_fmt is None else "widens" if new_fmt is None else "changes"
            )
        effect = _combine(_set_effect(old_types, new_types), fmt_effect)
        if effect == "none":
            return
        breaking = breaks(site.direction, effect) and not site.inert
        suffix = "changed" if breaking else "generalized" if effect == "widens" else "specialized"
        self.emit(
            site,
            site.rule(f"type-{suffix}"),
            effect,
            f"the type changed from {_show_type(old_types, old_fmt)} "
            f"to {_show_type(new_types, new_fmt)}",
            n.pointer,
        )

    def _enum(self, o: View, n: View, site: Site) -> None:
        old, new = _enum_values(o.schema), _enum_values(n.schema)
        if old is None and new is None:
            return
        ptr = f"{n.pointer}/enum"
        if old is None:
            self.emit(
                site,
                site.rule("became-enum"),
                "narrows",
                f"the value was restricted to {', '.join(sorted(new or ()))}",
                ptr,
            )
        elif new is None:
            self.emit(
                site,
                site.rule("enum-removed"),
                "widens",
                "its list of allowed values was removed",
                n.pointer,
            )
        else:
            for value in sorted(old.keys() - new.keys()):
                self.emit(
                    site,
                    site.rule("enum-value-removed"),
                    "narrows",
                    f"the enum value {value} was removed",
                    ptr,
                )
            for value in sorted(new.keys() - old.keys()):
                self.emit(
                    site,
                    site.rule("enum-value-added"),
                    "widens",
                    f"the enum value {value} was added",
                    ptr,
                )

    def _bounds(self, o: View, n: View, site: Site) -> None:
        for kw, name, upper in _BOUNDS:
            old, new = _bound(o.schema, kw), _bound(n.schema, kw)
            if old == new:
                continue
            if new is None:
                effect: Effect = "widens"
                action, what = "unset", f"the {kw} of {show(old)} was removed"
            elif old is None:
                effect, action, what = "narrows", "set", f"a {kw} of {show(new)} was set"
            else:
                action = "increased" if new > old else "decreased"
                effect = "widens" if (new > old) == upper else "narrows"
                what = f"the {kw} was {action} from {show(old)} to {show(new)}"
            self.emit(site, site.rule(f"{name}-{action}"), effect, what, n.pointer)

    def _pattern(self, o: View, n: View, site: Site) -> None:
        old, new = o.schema.get("pattern"), n.schema.get("pattern")
        if old == new:
            return
        if old is None:
            self.emit(
                site,
                site.rule("pattern-added"),
                "narrows",
                f"the pattern {show(new)} was added",
                n.pointer,
            )
        elif new is None:
            self.emit(
                site,
                site.rule("pattern-removed"),
                "widens",
                f"the pattern {show(old)} was removed",
                n.pointer,
            )
        else:
            self.emit(
                site,
                site.rule("pattern-changed"),
                "changes",
                f"the pattern changed from {show(old)} to {show(new)}",
                n.pointer,
                why="one pattern cannot be proven to accept everything the other did",
            )

    def _default(self, o: View, n: View, site: Site) -> None:
        old, new = o.schema.get("default"), n.schema.get("default")
        if show(old) == show(new):
            return
        action = (
            "added"
            if "default" not in o.schema
            else ("removed" if "default" not in n.schema else "changed")
        )
        self.emit(
            site,
            site.rule(f"default-value-{action}"),
            "none",
            f"the default value changed from {show(old)} to {show(new)}",
            n.pointer,
            why="payloads stay valid, but an omitted value now means something else",
        )

    def _object(self, o: View, n: View, site: Site) -> None:
        old_props = as_mapping(o.schema.get("properties"))
        new_props = as_mapping(n.schema.get("properties"))
        old_req = set(o.schema.get("required") or ())
        new_req = set(n.schema.get("required") or ())
        for name in sorted(old_props.keys() | new_props.keys()):
            old_ptr = o.property_pointers.get(name, f"{o.pointer}/properties/{escape(name)}")
            new_ptr = n.property_pointers.get(name, f"{n.pointer}/properties/{escape(name)}")
            if name not in new_props:
                self._property_removed(
                    name, old_props[name], old_ptr, n, site, required=name in old_req
                )
            elif name not in old_props:
                self._property_added(name, new_props[name], new_ptr, site, required=name in new_req)
            else:
                views = [
                    self.old.view(old_props[name], old_ptr),
                    self.new.view(new_props[name], new_ptr),
                ]
                child = self._property_site(site, name, views)
                if (name in old_req) != (name in new_req):
                    became = "required" if name in new_req else "optional"
                    effect: Effect = "narrows" if became == "required" else "widens"
                    self.emit(
                        child,
                        f"{site.direction}-property-became-{became}",
                        effect,
                        f"the property {name} became {became}",
                        new_ptr,
                        why=_REQUIREDNESS.get((site.direction, became), ""),
                    )
                self.compare(old_props[name], new_props[name], old_ptr, new_ptr, child)
        self._additional(o, n, site)

    def _property_site(self, site: Site, name: str, views: list[View]) -> Site:
        """The site of a property, inert when its readOnly/writeOnly keeps it out of the flow."""
        child = site.child(f"/{name}")
        if site.inert:
            return child
        flag, reason = (
            ("readOnly", "read-only, which clients never send")
            if site.direction == "request"
            else ("writeOnly", "write-only, which servers never send")
        )
        if any(v.schema.get(flag) is True for v in views):
            return replace(child, inert=reason)
        return child

    def _property_removed(
        self, name: str, prop: Json, ptr: str, n: View, site: Site, *, required: bool
    ) -> None:
        child = self._property_site(site, name, [self.old.view(prop, ptr)])
        if site.direction == "request":
            closed = _extra(n.schema) == "closed"
            why = (
                "requests that still send it are rejected, since additional properties are not allowed"
                if closed
                else "requests that still send it stay valid, since additional properties are allowed"
            )
            self.emit(
                child,
                "request-property-removed",
                "narrows" if closed else "widens",
                f"the property {name} was removed",
                ptr,
                why=why,
            )
            return
        kind = "required" if required else "optional"
        self.emit(
            child,
            f"response-{kind}-property-removed",
            "changes",
            f"the {kind} property {name} was removed",
            ptr,
            why="clients that read it no longer receive it",
        )

    def _property_added(
        self, name: str, prop: Json, ptr: str, site: Site, *, required: bool
    ) -> None:
        child = self._property_site(site, name, [self.new.view(prop, ptr)])
        kind = "required" if required else "optional"
        # A response only gains a guarantee; a request gains a demand only if it is required.
        effect: Effect = "narrows" if required or site.direction == "response" else "widens"
        if site.direction == "request":
            rule_id = f"new-{kind}-request-property"
            why = "requests that omit it are rejected" if required else ""
        else:
            rule_id, why = (
                f"response-{kind}-property-added",
                "clients that do not know it ignore it",
            )
        self.emit(
            child,
            rule_id,
            effect,
            f"the {kind} property {name} was added",
            ptr,
            why=why,
        )

    def _additional(self, o: View, n: View, site: Site) -> None:
        old, new = _extra(o.schema), _extra(n.schema)
        if old == "schema" and new == "schema":
            self.compare(
                o.schema["additionalProperties"],
                n.schema["additionalProperties"],
                f"{o.pointer}/additionalProperties",
                f"{n.pointer}/additionalProperties",
                site.child("/*"),
            )
        elif new == "closed" and old != "closed":
            self.emit(
                site,
                site.rule("additional-properties-disallowed"),
                "narrows",
                "additional properties are no longer allowed",
                n.pointer,
            )
        elif old == "closed" and new != "closed":
            # Generated clients keep or ignore unknown response fields (docs/generated-api.md).
            why = (
                "clients ignore properties they do not know" if site.direction == "response" else ""
            )
            self.emit(
                site,
                site.rule("additional-properties-allowed"),
                "widens",
                "additional properties are now allowed",
                n.pointer,
                why=why,
                breaking=False if why else None,
            )

    def _items(self, o: View, n: View, site: Site) -> None:
        old, new = o.schema.get("items"), n.schema.get("items")
        if isinstance(old, Mapping) or isinstance(new, Mapping):
            self.compare(
                old if isinstance(old, Mapping) else {},
                new if isinstance(new, Mapping) else {},
                f"{o.pointer}/items",
                f"{n.pointer}/items",
                site.child("[]"),
            )

    def _unions(
        self, raw: tuple[Json, Json], ptrs: tuple[str, str], o: View, n: View, site: Site
    ) -> None:
        """Match union members across versions: removed, added, and compared in pairs."""
        kw = (_union(o) or _union(n) or ("oneOf", []))[0]
        fragment = "one-of" if kw == "oneOf" else "any-of"
        disc = as_mapping(n.schema.get("discriminator") or o.schema.get("discriminator"))
        old_members = dict(_members(self.old, o, raw[0], ptrs[0], disc))
        new_members = dict(_members(self.new, n, raw[1], ptrs[1], disc))
        for key in sorted(old_members.keys() - new_members.keys()):
            self.emit(
                site,
                site.rule(f"{fragment}-removed"),
                "narrows",
                f"the {kw} member {key} was removed",
                old_members[key][1],
            )
        for key in sorted(new_members.keys() - old_members.keys()):
            self.emit(
                site,
                site.rule(f"{fragment}-added"),
                "widens",
                f"the {kw} member {key} was added",
                new_members[key][1],
            )
        for key in sorted(old_members.keys() & new_members.keys()):
            (old_member, old_at), (new_member, new_at) = old_members[key], new_members[key]
            self.compare(old_member, new_member, old_at, new_at, site)
        old_prop = as_mapping(o.schema.get("discriminator")).get("propertyName")
        new_prop = as_mapping(n.schema.get("discriminator")).get("propertyName")
        if old_prop and new_prop and old_prop != new_prop:
            self.emit(
                site,
                site.rule("discriminator-property-name-changed"),
                "changes",
                f"the discriminator changed from {old_prop} to {new_prop}",
                n.pointer,
            )


def as_mapping(value: Json) -> Mapping[str, Json]:
    """The value if it is a mapping, else an empty one."""
    return value if isinstance(value, Mapping) else {}


def _bound(schema: Mapping[str, Json], kw: str) -> float | None:
    value = schema.get(kw)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return None if value == 0 and kw in _ZERO_IS_UNSET else value


def _members(
    doc: Side, view: View, raw: Json, pointer: str, disc: Mapping[str, Json]
) -> Iterator[tuple[str, tuple[Json, str]]]:
    """The members of a union, keyed so the same member matches across versions.

    A schema that is not a union is its own single member, so `X` -> `oneOf: [X, Y]` reads as
    one member added.
    """
    union = _union(view)
    found = (
        [(raw, pointer)]
        if union is None
        else [(m, f"{view.pointer}/{union[0]}/{i}") for i, m in enumerate(union[1])]
    )
    used: set[str] = set()
    for index, (member, at) in enumerate(found):
        if union is not None and doc.is_null(member, at):
            continue  # read as the union's nullability
        key = _member_key(doc, member, at, disc) or f"#{index}"
        if key in used:
            key = f"{key} #{index}"
        used.add(key)
        yield key, (member, at)


def _member_key(doc: Side, member: Json, pointer: str, disc: Mapping[str, Json]) -> str:
    ref = member.get("$ref") if isinstance(member, Mapping) else None
    for value, target in sorted(as_mapping(disc.get("mapping")).items()):
        if isinstance(ref, str) and target in (ref, ref.rsplit("/", 1)[-1]):
            return str(value)
    view = doc.view(member, pointer)
    prop = as_mapping(view.schema.get("properties")).get(str(disc.get("propertyName")))
    if prop is not None:
        values = doc.view(prop, pointer).schema.get("enum")
        if isinstance(values, list) and len(values) == 1:
            return str(values[0])
    if isinstance(ref, str):
        return ref.rsplit("/", 1)[-1]
    if isinstance(title := view.schema.get("title"), str):
        return title
    types = types_of(view.schema)[0]
    return f"of type {'/'.join(sorted(types))}" if types else ""
