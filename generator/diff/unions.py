"""`contractgen diff` on unions: members matched across versions (by discriminator tag, `$ref`,
title or type), then reported removed, added or compared in pairs."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Protocol

from .openness import OPEN_UNION, open_union
from .rules import Effect, Json, Side, Site, View, _union, as_mapping, types_of


class SchemaDiff(Protocol):
    """What of `schema.SchemaDiff` the union rules use (a Protocol: no import circle)."""

    old: Side
    new: Side

    def emit(self, site: Site, rule_id: str, effect: Effect, what: str, pointer: str, *,
             why: str = "", breaking: bool | None = None) -> None: ...

    def compare(self, old: Json, new: Json, old_ptr: str, new_ptr: str, site: Site) -> None: ...


def compare_unions(self: SchemaDiff, raw: tuple[Json, Json], ptrs: tuple[str, str],
                   views: tuple[View, View], site: Site) -> None:
    """Match union members across versions: removed, added, and compared in pairs."""
    o, n = views
    kw = (_union(o) or _union(n) or ("oneOf", []))[0]
    fragment = "one-of" if kw == "oneOf" else "any-of"
    disc = as_mapping(n.schema.get("discriminator") or o.schema.get("discriminator"))
    old_members = dict(_members(self.old, o, raw[0], ptrs[0], disc))
    new_members = dict(_members(self.new, n, raw[1], ptrs[1], disc))
    if _union(o) is None and kw == "oneOf" and not disc and _overlap(self.new, new_members):
        self.emit(site, site.rule("wrapped-in-one-of"), "changes",
                  "the schema was wrapped in a oneOf whose members may overlap", n.pointer,
                  why="a value matching two members, valid before, is now rejected")
    for key in sorted(old_members.keys() - new_members.keys()):
        self.emit(site, site.rule(f"{fragment}-removed"), "narrows",
                  f"the {kw} member {key} was removed", old_members[key][1])
    kept = OPEN_UNION if open_union(site, self.old, o) else {}
    for key in sorted(new_members.keys() - old_members.keys()):
        self.emit(site, site.rule(f"{fragment}-added"), "widens",
                  f"the {kw} member {key} was added", new_members[key][1], **kept)
    for key in sorted(old_members.keys() & new_members.keys()):
        (old_member, old_at), (new_member, new_at) = old_members[key], new_members[key]
        self.compare(old_member, new_member, old_at, new_at, site)
    old_prop = as_mapping(o.schema.get("discriminator")).get("propertyName")
    new_prop = as_mapping(n.schema.get("discriminator")).get("propertyName")
    if old_prop and new_prop and old_prop != new_prop:
        self.emit(site, site.rule("discriminator-property-name-changed"), "changes",
                  f"the discriminator changed from {old_prop} to {new_prop}", n.pointer)


def _overlap(doc: Side, members: Mapping[str, tuple[Json, str]]) -> bool:
    """Whether two members of a union may accept one value: their types meet (or one has none)."""
    kinds = [types_of(doc.view(*member).schema)[0] for member in members.values()]
    return any(a is None or b is None or a & b or ({"integer", "number"} <= a | b)
               for i, a in enumerate(kinds) for b in kinds[i + 1:])


def _members(doc: Side, view: View, raw: Json, pointer: str, disc: Mapping[str, Json]
             ) -> Iterator[tuple[str, tuple[Json, str]]]:
    """The members of a union, keyed so the same member matches across versions.

    A schema that is not a union is its own single member, so `X` -> `oneOf: [X, Y]` reads as
    one member added.
    """
    union = _union(view)
    found = ([(raw, pointer)] if union is None
             else [(m, f"{view.pointer}/{union[0]}/{i}") for i, m in enumerate(union[1])])
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
