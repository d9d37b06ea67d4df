"""Object schemas as the models read them: `allOf` flattened (`merged`), whether a schema makes
a class (`is_object_model`), a property as a field (`field_def`), and the property telling a
union's members apart (`Discriminators`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .access import Side, access
from .allof import intersect_all_of, merge_properties
from .ir import FieldDef
from .keywords import unchecked_format
from .naming import pascal_case
from .schema_facts import ANNOTATIONS, deref, described, field_names, is_nullable, required_names
from .typeref import TypeRef


def merged(document: Mapping[str, Any], schema: dict[str, Any], seen: frozenset[int] = frozenset()
           ) -> tuple[
    dict[str, Any], list[str], Any, list[str]
]:
    """Properties, required names, additionalProperties and owning refs, allOf flattened."""
    properties: dict[str, Any] = {}
    required: list[str] = []
    extra: Any = schema.get("additionalProperties", None)
    owners: list[str] = []
    for member in schema.get("allOf") or []:
        ref = member.get("$ref") if isinstance(member, dict) else None
        target = deref(document, member)
        if id(target) in seen:
            continue
        props, req, member_extra, member_owners = merged(document, target, seen | {id(target)})
        if isinstance(ref, str):
            member_owners = [*member_owners, ref]
        merge_properties(properties, props)
        required.extend(r for r in req if r not in required)
        owners.extend(member_owners)
        if member_extra is False and extra is None:
            extra = False
    merge_properties(properties, schema.get("properties") or {})
    required.extend(r for r in required_names(schema) if r not in required)
    if schema.get("unevaluatedProperties") is False:
        extra = False
    return properties, required, extra, owners


def is_object_model(document: Mapping[str, Any], schema: dict[str, Any]) -> bool:
    """The schema makes a pydantic class: properties of its own or through `allOf`."""
    if schema.get("properties"):
        return True
    all_of = schema.get("allOf")
    if isinstance(all_of, list) and len(all_of) > 1:
        return any(is_object_model(document, deref(document, m)) for m in all_of)
    if isinstance(all_of, list) and len(all_of) == 1:
        own = {k for k in schema if k not in ANNOTATIONS and k != "allOf"}
        return bool(own) and is_object_model(document, deref(document, all_of[0]))
    return False


def member_hint(member: Any, hint: str, index: int,
                component_name: Callable[[str], str | None] = lambda ref: None) -> str:
    """The name hint of a union's member: its title, its tag, its type, else its index (a
    member `model.distribute` wrapped in an `allOf`: that of the member it wraps)."""
    all_of = member.get("allOf") if isinstance(member, dict) else None
    if isinstance(all_of, list) and set(member) == {"allOf"} and all_of:
        wrapped = all_of[-1]
        ref = wrapped.get("$ref") if isinstance(wrapped, dict) else None
        name = component_name(ref) if isinstance(ref, str) else None
        return hint + name if name else member_hint(wrapped, hint, index)
    if isinstance(member, dict):
        title = member.get("title")
        if isinstance(title, str) and title.strip():
            return hint + pascal_case(title)
        for prop in (member.get("properties") or {}).values():
            if isinstance(prop, dict) and "const" in prop and isinstance(prop["const"], str):
                return hint + pascal_case(prop["const"])
        kind = member.get("type")
        if isinstance(kind, str) and kind != "object":
            return hint + pascal_case(kind)
    return f"{hint}Variant{index + 1}"


def field_def(schema: dict[str, Any], target: dict[str, Any], *, name: str, wire: str,
              type_ref: TypeRef, required: bool) -> FieldDef:
    """A model field for property `schema` (`target` is it with its `$ref` followed): its
    default as the JSON value (`emit.defaults` spells it; `null` makes the type nullable),
    description, and comment."""
    default = schema.get("default", target.get("default") if "$ref" in schema else None)
    has_default = "default" in schema or ("$ref" in schema and "default" in target)
    if not has_default or required:
        default = None
    elif default is None:
        type_ref = type_ref.with_nullable()
    # Only the property's own description: a `$ref` target's describes the target, not every
    # field that refers to it (its class docstring says it once).
    description = described(schema)
    fmt = unchecked_format(target)
    return FieldDef(name, wire, type_ref, required, default, description,
                    f"format {fmt!r} is not checked: any string" if fmt else None)


class Discriminators:
    """The discriminator of a union of models, from the members' schemas and the contract's
    mappings (`values`: (owning ref, property) -> tag values)."""

    def __init__(self, document: Mapping[str, Any],
                 values: Mapping[tuple[str, str], list[str]],
                 component_name: Callable[[str], str | None]) -> None:
        self.document, self.values, self.component_name = document, values, component_name

    def _deref(self, schema: Any) -> dict[str, Any]:
        return deref(self.document, schema)

    def of(self, schema: dict[str, Any], members: list[Any], args: list[TypeRef],
           side: Side = "read") -> str | None:
        """The field telling the members apart, read from the schemas (members may still be
        under construction when a union is recursive). A request (`side` "write") has none
        where the tag is readOnly: its models leave the tag out (PagerDuty's contact methods)."""
        if any(arg.kind != "model" or arg.nullable for arg in args):
            return None
        infos: list[tuple[dict[str, Any], list[str], list[str], dict[str, str]]] = []
        for member in members:
            target = self._deref(member)
            if not is_object_model(self.document, target):
                return None
            ref = member.get("$ref") if isinstance(member, dict) else None
            properties, required, _, owners = merged(self.document, target)
            refs = [*owners, ref] if isinstance(ref, str) else owners
            infos.append((properties, required, refs, field_names(properties, self.component_name)))
        disc = schema.get("discriminator")
        wanted = disc.get("propertyName") if isinstance(disc, dict) else None
        candidates = [wanted] if isinstance(wanted, str) else list(infos[0][0])
        for wire in candidates:
            seen: set[object] = set()
            names: set[str] = set()
            for properties, required, refs, wire_names in infos:
                hidden = access(self.document, properties.get(wire)) not in (None, side)
                tags = () if hidden else self._tags(properties, required, refs, wire)
                if not tags or seen & set(tags):
                    break
                seen.update(tags)
                names.add(wire_names[wire])
            else:
                if len(names) == 1:
                    return names.pop()
        return None

    def _tags(self, properties: dict[str, Any], required: list[str], refs: list[str],
              wire: str) -> tuple[object, ...]:
        """The tag values a member's `wire` property is typed to (a Literal), or ()."""
        if wire not in properties:
            return ()
        prop = self._deref(properties[wire])
        if isinstance(prop.get("allOf"), list) and not is_object_model(self.document, prop):
            prop = self._deref(intersect_all_of(prop, self._deref))
        if is_nullable(prop) or is_nullable(properties[wire]):
            return ()
        mapped = self.mapped(refs, wire)
        tags: tuple[object, ...] = ()
        enum = prop.get("enum")
        if "const" in prop:
            tags = (prop["const"],)
        elif isinstance(enum, list) and enum and None not in enum and (
                len(enum) == 1 or all(isinstance(v, bool) for v in enum)):
            tags = tuple(enum)
        elif mapped:
            tags = mapped
        has_default = "default" in prop or (bool(mapped) and len(tags) == 1)
        return tags if wire in required or has_default else ()

    def mapped(self, refs: list[str], wire: str) -> tuple[str, ...]:
        found = [v for r in refs for v in self.values.get((r, wire), [])]
        return tuple(dict.fromkeys(found))
