"""Schema comparison of `contractgen diff`: `SchemaDiff` applies the rules of `rules` to one
schema and its next version, recursing through properties, items and unions."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ..spec.ecma import same_reading
from ..spec.tree import escape
from .keywords import compare_keywords
from .lifecycle import Lifecycle, deprecation, names_for
from .openness import OPEN_ENUM, open_enum
from .rules import (
    _BOUNDS,
    _CONSEQUENCE,
    _MAX_DEPTH,
    _REQUIREDNESS,
    _ZERO_IS_UNSET,
    Effect,
    Json,
    Report,
    Said,
    Side,
    Site,
    View,
    _combine,
    _enum_values,
    _extra,
    _set_effect,
    _show_type,
    _union,
    as_list,
    as_mapping,
    breaks,
    show,
    types_of,
)
from .same import Unchanged
from .unions import compare_unions


class SchemaDiff:
    """Compares schemas of two documents and adds what differs to a report."""

    def __init__(self, old: Side, new: Side, report: Report,
                 lifecycle: Lifecycle | None = None) -> None:
        self.old, self.new, self.report = old, new, report
        self.lifecycle = lifecycle or Lifecycle()
        self._active: set[tuple[str, str, str, str]] = set()
        self._unchanged = Unchanged(old, new)
        # (old, new, site kind) -> what the walk said there; `_cuts`: walks cut by recursion
        self._memo: dict[tuple[object, ...], list[Said]] = {}
        self._cuts = 0

    def emit(self, site: Site, rule_id: str, effect: Effect, what: str, pointer: str, *,
             why: str = "", breaking: bool | None = None) -> None:
        """Record a change at a schema site, its severity derived from effect and direction."""
        if breaking is None:
            breaking = breaks(site.direction, effect)
        if not why:
            why = _CONSEQUENCE.get((site.direction, effect), "what is accepted does not change")
        message = f"{what}, so {why}"
        if site.inert and breaking and not self._counted(rule_id):
            breaking, message = False, f"{what}, but the property is {site.inert}"
        self.report.add(rule_id, breaking, site.direction, site.location, message, at=pointer)

    def _counted(self, rule_id: str) -> bool:
        """oasdiff's reading (`compat`): a readOnly request property's constraints count, not
        whether it is present."""
        return "read-only" in self.lifecycle.oasdiff and not any(
            word in rule_id for word in ("required", "optional", "property-removed",
                                         "property-added"))

    def compare(self, old: Json, new: Json, old_ptr: str, new_ptr: str, site: Site) -> None:
        """Compare the schema `old` (at `old_ptr`) with `new` (at `new_ptr`).

        A pair of schemas compared at one kind of site is walked once: what it found is kept
        (`_memo`) and said again, at the new site's location, wherever the pair comes back (a
        shared schema of a large contract is reached from hundreds of operations). A walk cut
        short by recursion is not kept, as it depends on where it started.
        """
        if self._unchanged.same(old, new):  # no rule fires on what reads the same
            return
        o, n = self.old.view(old, old_ptr), self.new.view(new, new_ptr)
        memo = (o.pointer, n.pointer, site.direction, site.inert, site.root, bool(site.path),
                site.in_union)
        if (found := self._memo.get(memo)) is not None:
            for rule_id, breaking, direction, suffix, message, at in found:
                self.report.add(rule_id, breaking, direction, site.location + suffix, message,
                                at=at)
            return
        key = (o.pointer, n.pointer, site.direction, site.inert)
        if key in self._active or len(self._active) >= _MAX_DEPTH:
            self._cuts += 1
            return
        self._active.add(key)
        cuts, start = self._cuts, len(self.report.said)
        try:
            self._walk((old, new), (old_ptr, new_ptr), (o, n), site)
        finally:
            self._active.discard(key)
        if self._cuts == cuts:
            here = len(site.location)
            self._memo[memo] = [(r, b, d, where[here:], m, at) for r, b, d, where, m, at
                                in self.report.said[start:]]

    def _walk(self, raw: tuple[Json, Json], ptrs: tuple[str, str], views: tuple[View, View],
              site: Site) -> None:
        """Every rule on one pair of schema views (`compare` without its bookkeeping)."""
        o, n = views
        if not site.in_union:
            self._nullability(o, n, site)
        if _union(o) or _union(n):
            members = replace(site, in_union=True)
            compare_unions(self, raw, ptrs, views, members)
            if not (_union(o) and _union(n)):
                return
        self._unresolved(o, n, site)
        if "all-of" in self.lifecycle.oasdiff:
            self._all_of(raw, ptrs, site)
        self._types(o, n, site)
        self._enum(o, n, site)
        self._bounds(o, n, site)
        self._pattern(o, n, site)
        self._default(o, n, site)
        self._object(o, n, site)
        self._items(o, n, site)
        compare_keywords(self, o, n, site)

    def _unresolved(self, o: View, n: View, site: Site) -> None:
        old_ref, new_ref = o.schema.get("$ref"), n.schema.get("$ref")
        if (old_ref or new_ref) and old_ref != new_ref:
            self.emit(site, site.rule("ref-changed"), "changes",
                      f"the unresolved reference changed from {show(old_ref)} to {show(new_ref)}",
                      n.pointer)

    def _all_of(self, raw: tuple[Json, Json], ptrs: tuple[str, str], site: Site) -> None:
        """oasdiff's reading (`compat`): an `allOf` member added or removed, whatever it adds."""
        old, old_ptr = self.old.resolve(raw[0], ptrs[0])
        new, new_ptr = self.new.resolve(raw[1], ptrs[1])
        olds, news = _members(old), _members(new)
        for key in sorted(news.keys() - olds.keys()):
            index, notes = news[key]
            self.emit(site, site.rule("all-of-added" + notes), "changes",
                      "an allOf member was added", f"{new_ptr}/allOf/{index}", why="oasdiff "
                      "reads any member added as a new constraint",
                      breaking=site.direction == "request" and not notes)
        for key in sorted(olds.keys() - news.keys()):
            index, notes = olds[key]
            self.emit(site, site.rule("all-of-removed" + notes), "changes",
                      "an allOf member was removed", f"{old_ptr}/allOf/{index}",
                      why="what it required no longer holds", breaking=False)

    def _nullability(self, o: View, n: View, site: Site) -> None:
        old_null, new_null = types_of(o.schema)[1], types_of(n.schema)[1]
        if old_null != new_null:
            became = "nullable" if new_null else "not-nullable"
            self.emit(site, site.rule(f"became-{became}"), "widens" if new_null else "narrows",
                      f"the value became {became.replace('-', ' ')}", n.pointer)

    def _types(self, o: View, n: View, site: Site) -> None:
        old_types, new_types = types_of(o.schema)[0], types_of(n.schema)[0]
        old_fmt, new_fmt = o.schema.get("format"), n.schema.get("format")
        fmt_effect: Effect = "none"
        if old_fmt != new_fmt:
            fmt_effect = ("narrows" if old_fmt is None else "widens" if new_fmt is None
                          else "changes")
        effect = _combine(_set_effect(_on_wire(old_types, site), _on_wire(new_types, site)),
                          fmt_effect)
        if effect == "none":
            return
        breaking = breaks(site.direction, effect) and not site.inert
        suffix = "changed" if breaking else "generalized" if effect == "widens" else "specialized"
        self.emit(site, site.rule(f"type-{suffix}"), effect,
                  f"the type changed from {_show_type(old_types, old_fmt)} "
                  f"to {_show_type(new_types, new_fmt)}", n.pointer)

    def _enum(self, o: View, n: View, site: Site) -> None:
        old, new = _enum_values(o.schema), _enum_values(n.schema)
        if old is None and new is None:
            return
        ptr = f"{n.pointer}/enum"
        if old is None:
            self.emit(site, site.rule("became-enum"), "narrows",
                      f"the value was restricted to {', '.join(sorted(new or ()))}", ptr)
        elif new is None:
            self.emit(site, site.rule("enum-removed"), "widens",
                      "its list of allowed values was removed", n.pointer)
        else:
            for value in sorted(old.keys() - new.keys()):
                self.emit(site, site.rule("enum-value-removed"), "narrows",
                          f"the enum value {value} was removed", ptr)
            kept = OPEN_ENUM if open_enum(site, n.schema) else {}
            for value in sorted(new.keys() - old.keys()):
                self.emit(site, site.rule("enum-value-added"), "widens",
                          f"the enum value {value} was added", ptr, **kept)

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
        # An empty pattern matches every string: no pattern at all.
        old, new = o.schema.get("pattern") or None, n.schema.get("pattern") or None
        if old == new or (isinstance(old, str) and isinstance(new, str)
                          and same_reading(old, new)):  # read as ECMA-262
            return
        if old is None:
            self.emit(site, site.rule("pattern-added"), "narrows",
                      f"the pattern {show(new)} was added", n.pointer)
        elif new is None:
            self.emit(site, site.rule("pattern-removed"), "widens",
                      f"the pattern {show(old)} was removed", n.pointer)
        else:
            self.emit(site, site.rule("pattern-changed"), "changes",
                      f"the pattern changed from {show(old)} to {show(new)}", n.pointer,
                      why="one pattern cannot be proven to accept everything the other did")

    def _default(self, o: View, n: View, site: Site) -> None:
        old, new = o.schema.get("default"), n.schema.get("default")
        if show(old) == show(new):
            return
        action = ("added" if "default" not in o.schema
                  else "removed" if "default" not in n.schema else "changed")
        # A parameter's default is what the server does when a request omits it (oasdiff: ERR);
        # a property's default only documents a value.
        omitted = site.direction == "request" and site.root == "parameter" and not site.path
        self.emit(site, site.rule(f"default-value-{action}"), "none",
                  f"the default value changed from {show(old)} to {show(new)}", n.pointer,
                  why="requests that omit the parameter now ask for something else" if omitted
                  else "payloads stay valid, but an omitted value now means something else",
                  breaking=omitted)

    def _object(self, o: View, n: View, site: Site) -> None:
        old_props = as_mapping(o.schema.get("properties"))
        new_props = as_mapping(n.schema.get("properties"))
        old_req = {str(name) for name in as_list(o.schema.get("required"))}
        new_req = {str(name) for name in as_list(n.schema.get("required"))}
        for name in sorted(old_props.keys() | new_props.keys()):
            old_ptr = o.property_pointers.get(name, f"{o.pointer}/properties/{escape(name)}")
            new_ptr = n.property_pointers.get(name, f"{n.pointer}/properties/{escape(name)}")
            if name not in new_props:
                self._property_removed(name, old_props[name], old_ptr, n, site,
                                       required=name in old_req)
            elif name not in old_props:
                self._property_added(name, new_props[name], new_ptr, site, required=name in new_req)
            else:
                views = [self.old.view(old_props[name], old_ptr),
                         self.new.view(new_props[name], new_ptr)]
                child = self._property_site(site, name, views)
                self._deprecation(views, child, new_ptr)
                if (name in old_req) != (name in new_req):
                    became = "required" if name in new_req else "optional"
                    self.emit(child, f"{site.direction}-property-became-{became}",
                              "narrows" if became == "required" else "widens",
                              f"the property {name} became {became}", new_ptr,
                              why=_REQUIREDNESS.get((site.direction, became), ""))
                self.compare(old_props[name], new_props[name], old_ptr, new_ptr, child)
        self._additional(o, n, site)

    def _deprecation(self, views: list[View], site: Site, pointer: str) -> None:
        """A property's deprecation and `x-sunset`, read as an operation's (`lifecycle`)."""
        names = names_for(f"{site.direction}-property")
        for rule, breaking, message in deprecation(views[0].schema, views[1].schema,
                                                   self.lifecycle, names):
            self.report.add(rule, breaking, site.direction, site.location, message, at=pointer)

    def _property_site(self, site: Site, name: str, views: list[View]) -> Site:
        """The site of a property, inert when its readOnly/writeOnly keeps it out of the flow."""
        child = site.child(f"/{name}")
        if site.inert:
            return child
        flag, reason = (("readOnly", "read-only, which clients never send")
                        if site.direction == "request"
                        else ("writeOnly", "write-only, which servers never send"))
        if any(v.schema.get(flag) is True for v in views):
            return replace(child, inert=reason)
        return child

    def _property_removed(self, name: str, prop: Json, ptr: str, n: View, site: Site, *,
                          required: bool) -> None:
        child = self._property_site(site, name, [self.old.view(prop, ptr)])
        if site.direction == "request":
            closed = _extra(n.schema) == "closed"
            why = ("requests that still send it are rejected, since additional properties are "
                   "not allowed" if closed else "requests that still send it stay valid, since "
                   "additional properties are allowed")
            self.emit(child, "request-property-removed", "narrows" if closed else "widens",
                      f"the property {name} was removed", ptr, why=why)
            return
        kind = "required" if required else "optional"
        # typed clients still parse an optional field's absence; its readers lose it
        self.emit(child, f"response-{kind}-property-removed", "changes",
                  f"the {kind} property {name} was removed", ptr,
                  why="clients that read it no longer receive it",
                  breaking=None if required else False)

    def _property_added(self, name: str, prop: Json, ptr: str, site: Site, *,
                        required: bool) -> None:
        child = self._property_site(site, name, [self.new.view(prop, ptr)])
        kind = "required" if required else "optional"
        # A response only gains a guarantee; a request gains a demand only if it is required.
        effect: Effect = "narrows" if required or site.direction == "response" else "widens"
        if site.direction == "request":
            rule_id = f"new-{kind}-request-property"
            why = "requests that omit it are rejected" if required else ""
        else:
            rule_id = f"response-{kind}-property-added"
            why = "clients that do not know it ignore it"
        self.emit(child, rule_id, effect, f"the {kind} property {name} was added", ptr, why=why)

    def _additional(self, o: View, n: View, site: Site) -> None:
        old, new = _extra(o.schema), _extra(n.schema)
        if old == "schema" and new == "schema":
            self.compare(o.schema["additionalProperties"], n.schema["additionalProperties"],
                         f"{o.pointer}/additionalProperties", f"{n.pointer}/additionalProperties",
                         site.child("/*"))
        elif new == "closed" and old != "closed":
            self.emit(site, site.rule("additional-properties-disallowed"), "narrows",
                      "additional properties are no longer allowed", n.pointer)
        elif old == "closed" and new != "closed":
            # Generated clients keep or ignore unknown response fields (docs/generated-api.md).
            why = ("clients ignore properties they do not know" if site.direction == "response"
                   else "")
            self.emit(site, site.rule("additional-properties-allowed"), "widens",
                      "additional properties are now allowed", n.pointer, why=why,
                      breaking=False if why else None)

    def _items(self, o: View, n: View, site: Site) -> None:
        old, new = o.schema.get("items"), n.schema.get("items")
        if isinstance(old, Mapping) or isinstance(new, Mapping):
            self.compare(old if isinstance(old, Mapping) else {},
                         new if isinstance(new, Mapping) else {},
                         f"{o.pointer}/items", f"{n.pointer}/items", site.child("[]"))


def _on_wire(types: frozenset[str] | None, site: Site) -> frozenset[str] | None:
    """The types a parameter's value takes as sent: a string parameter accepts every number or
    boolean, which travel as their text (`?limit=10`), so number -> string does not narrow."""
    if types is None or "string" not in types or site.root != "parameter" or site.path:
        return types
    return types | {"number", "integer", "boolean"}


def _bound(schema: Mapping[str, Json], kw: str) -> float | None:
    value = schema.get(kw)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return None if value == 0 and kw in _ZERO_IS_UNSET else value


_ANNOTATIONS = frozenset({"description", "title", "example", "examples", "deprecated",
                          "externalDocs", "$comment"})


def _members(schema: Json) -> dict[str, tuple[int, str]]:
    """A schema's `allOf` members, by their `$ref` (inline ones by their place), with their
    index and `-annotation-only` for those that only annotate (oasdiff's info rule)."""
    members = schema.get("allOf") if isinstance(schema, Mapping) else None
    if not isinstance(members, list):
        return {}
    found = {}
    for index, member in enumerate(members):
        ref = member.get("$ref") if isinstance(member, Mapping) else None
        notes = isinstance(member, Mapping) and not isinstance(ref, str) and all(
            k in _ANNOTATIONS or k.startswith("x-") for k in member)
        found[ref if isinstance(ref, str) else f"#{index}"] = (
            index, "-annotation-only" if notes else "")
    return found
