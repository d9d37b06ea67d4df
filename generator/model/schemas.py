"""JSON Schema (OpenAPI 3.0 and 3.1 dialects) to type expressions and model definitions."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, Literal

from ..spec.tree import escape, resolve_pointer, unescape
from .access import AccessMap, Side, access, flagged_apart
from .allof import intersect_all_of
from .contradictions import closed_conflict, twins, unselected
from .distribute import spread
from .hierarchy import hierarchies, hierarchy_tags
from .ir import AliasDef, Definition, FieldDef, ModelDef
from .keywords import (
    Notes,
    array_type,
    excluded_by,
    exclusive,
    string_type,
    unenforced,
)
from .naming import ClassName, pascal_case
from .objects import Discriminators, field_def, is_object_model, member_hint, merged
from .schema_facts import (
    SCHEMA_PREFIX,
    admits_null,
    bounds,
    deref,
    described,
    discriminator_values,
    enum_definition,
    field_names,
    integer_constraints,
    is_null_schema,
    is_nullable,
    is_union,
    json_types,
    number_constraints,
    reaches,
    text,
    widen_numbers,
)
from .typeref import ANY, NONE, TypeRef


class SchemaConverter:
    """Turns schemas into `TypeRef`s, creating named definitions for objects and enums."""

    def __init__(self, document: Mapping[str, Any], *, discriminated: bool = True) -> None:
        # `discriminated`: False when the document holds no discriminator (saves a walk).
        self.document = document
        self.is_31 = str(document.get("openapi", "")).startswith("3.1")
        self.definitions: dict[str, Definition] = {}
        self._claimed: set[str] = set()
        self._component_names: dict[str, str] = {}
        self._building: set[str] = set()
        components = document.get("components") or {}
        schemas = components.get("schemas") or {}
        for key in schemas:
            self._component_names[key] = self.claim(ClassName(key))
        self._hierarchies = hierarchies(document)
        self._discriminator_values = {**hierarchy_tags(self._hierarchies),
                                      **(discriminator_values(document) if discriminated else {})}
        self._disc = Discriminators(document, self._discriminator_values, self.component_name)
        self._unions: dict[tuple[str, Side], TypeRef] = {}
        self.access = AccessMap(document)
        self.notes = Notes(document)
        self.side: Side = "read"  # "write" while converting a request body
        self._request_names: dict[str, str] = {}

    # -- names -------------------------------------------------------------------------------
    def claim(self, wanted: str) -> str:
        """Reserve a unique class name (a clash gets a readable suffix, not a counter first)."""
        name = ClassName(wanted)
        candidates = itertools.chain((name, name + "Model", name + "Schema"),
                                     (f"{name}{i}" for i in range(2, 1000)))
        for candidate in candidates:
            if candidate not in self._claimed:
                self._claimed.add(candidate)
                return candidate
        raise ValueError(f"no free class name for {wanted}")  # pragma: no cover

    def component_name(self, ref: str) -> str | None:
        if ref.startswith(SCHEMA_PREFIX):
            key = unescape(ref[len(SCHEMA_PREFIX):])
            return self._component_names.get(key)
        return None

    @contextmanager
    def on_side(self, side: Side) -> Iterator[None]:
        """Convert as a request (`write`: no readOnly properties) or a response (`read`: no
        writeOnly ones)."""
        previous, self.side = self.side, side
        try:
            yield
        finally:
            self.side = previous

    # -- entry points ------------------------------------------------------------------------
    def convert_components(self) -> None:
        schemas = (self.document.get("components") or {}).get("schemas") or {}
        for key in schemas:
            self.component(SCHEMA_PREFIX + escape(key))

    def component(self, ref: str) -> TypeRef:
        name = self.component_name(ref)
        if name is None:
            raise KeyError(ref)
        if self.side == "write" and ref in self.access.split:
            return self._request_component(ref, name)
        if name not in self.definitions and name not in self._building:
            self._building.add(name)
            try:
                schema = resolve_pointer(self.document, ref)
                with self.on_side("read"):
                    self._define(name, schema if isinstance(schema, dict) else {}, ref)
            finally:
                self._building.discard(name)
        return TypeRef("model", name)

    def _hierarchy_union(self, ref: str) -> TypeRef | None:
        """`<Base>Union`: the models extending `ref`, told apart by its discriminator."""
        name = self.component_name(ref) or ""
        prop, extending = self._hierarchies[ref]
        split = self.side == "write" and any(r in self.access.split for r in extending)
        key: tuple[str, Side] = (ref, "write" if split else "read")
        if key not in self._unions:
            members = [{"$ref": r} for r in extending]  # told apart from the schemas alone
            disc = self._disc.of({"discriminator": {"propertyName": prop}}, members,
                                 [TypeRef("model", r) for r in extending], key[1])
            if disc is None or len(members) < 2:
                self._unions[key] = TypeRef("model", "")  # nothing to tell apart: the base
                self.notes.warn(f"`discriminator` is not enforced: fewer than two schemas "
                                f"extend `{name}` with distinct tags", ref[1:])
            else:
                union = self.claim(name + ("RequestUnion" if split else "Union"))
                self._unions[key] = TypeRef("model", union)
                args = tuple(self.component(r) for r in extending)
                self.definitions[union] = AliasDef(union, None, TypeRef(
                    "union", args=args, discriminator=disc), self.claim(union + "Adapter"))
        result = self._unions[key]
        return result if result.name else None

    def _request_component(self, ref: str, name: str) -> TypeRef:
        """`<Name>Request`: the component as a request carries it (no readOnly properties)."""
        with self.on_side("read"):
            self.component(ref)  # the response model first: its fields are reused
        request = self._request_names.get(ref)
        if request is None:
            request = self._request_names[ref] = self.claim(name + "Request")
            self._building.add(request)
            try:
                schema = resolve_pointer(self.document, ref)
                self._define(request, schema if isinstance(schema, dict) else {}, ref)
            finally:
                self._building.discard(request)
        return TypeRef("model", request)

    def _define(self, name: str, schema: dict[str, Any], ref: str | None) -> None:
        """Give a component schema its named definition: a model, an enum, or an alias."""
        description = described(schema)
        schema = spread(schema, self._deref) or schema
        if isinstance(schema.get("discriminator"), dict) and not is_union(schema) and ref and (
                self.side == "read") and ref not in self._hierarchies:
            self.notes.warn(f"`discriminator` without `oneOf`/`anyOf` is not enforced: a `{name}` "
                            "field takes this model, not the schemas extending it (their own "
                            "fields are kept unchecked)", ref[1:])
        if is_object_model(self.document, schema):
            self._build_model(name, schema, ref)
            return
        if isinstance(schema.get("allOf"), list):
            schema = intersect_all_of(schema, self._deref)
        # A nullable enum stays a Literal alias, so that the name itself accepts null.
        enum_def = None if is_nullable(schema) else enum_definition(name, schema)
        if enum_def is not None:
            self.definitions[name] = enum_def
            return
        type_ref = self.convert(schema, name, named=False)
        self.definitions[name] = AliasDef(name, description, type_ref,
                                          self.claim(name + "Adapter"))

    def named_union(self, schema: Any, hint: str) -> TypeRef:
        """An inline oneOf/anyOf (a request or response body) as a named alias, else as is."""
        if not isinstance(schema, dict) or "$ref" in schema or not is_union(schema):
            return self.convert(schema, hint)
        name = self.claim(hint)
        type_ref = self.convert(schema, name)
        self.definitions[name] = AliasDef(name, text(schema.get("description")), type_ref,
                                          self.claim(name + "Adapter"))
        return TypeRef("model", name, nullable=type_ref.is_nullable)

    def finished(self) -> list[Definition]:
        """Every definition, aliases that reach themselves marked recursive."""
        aliases = {n: d for n, d in self.definitions.items() if isinstance(d, AliasDef)}
        result: list[Definition] = []
        for name, definition in self.definitions.items():
            if isinstance(definition, AliasDef) and reaches(name, aliases):
                definition = replace(definition, recursive=True)
            result.append(definition)
        return result

    # -- conversion --------------------------------------------------------------------------
    def convert(self, schema: Any, hint: str, *, named: bool = True) -> TypeRef:
        """The type of `schema`; `hint` names any class an inline object or enum needs."""
        self.notes.enter(schema)
        try:
            if isinstance(schema, dict):
                for message in unenforced(schema):
                    self.notes.warn(message)
            return self._convert(schema, hint, named)
        finally:
            self.notes.leave()

    def _convert(self, schema: Any, hint: str, named: bool) -> TypeRef:
        if schema is True or schema is None or schema == {}:
            return ANY
        if not isinstance(schema, dict):
            return ANY
        ref = schema.get("$ref")
        if isinstance(ref, str):
            if self.component_name(ref) is not None:
                union = self._hierarchy_union(ref) if ref in self._hierarchies else None
                result = union or self.component(ref)
                target = self.definitions.get(result.name)
                if isinstance(target, AliasDef) and target.type == NONE:
                    return NONE  # `Null | None` would be `None | None`: a TypeError
                if (isinstance(target, AliasDef) and target.type.is_nullable) or admits_null(
                        self._deref(schema), self._deref):
                    result = result.with_nullable()
            else:
                try:
                    target = resolve_pointer(self.document, ref)
                except (LookupError, ValueError):
                    return ANY
                result = self.convert(target, hint, named=named)
            return result.with_nullable(is_nullable(schema)) if is_nullable(schema) else result
        nullable = admits_null(schema, self._deref)
        result = self._convert_inner(schema, hint, named)
        excluded = excluded_by(self._deref(schema.get("not")))
        if excluded is not None:
            result = replace(result, excluded=excluded)
        return result.with_nullable(True) if nullable else result

    def _convert_inner(self, schema: dict[str, Any], hint: str, named: bool) -> TypeRef:
        if "const" in schema:
            const = schema["const"]
            return NONE if const is None else TypeRef("literal", literals=(const,))
        enum = schema.get("enum")
        if isinstance(enum, list) and enum:
            values = [v for v in enum if v is not None]
            if not values:
                return NONE
            if len(values) == 1 or any(isinstance(v, bool) for v in values):
                return TypeRef("literal", literals=tuple(values))
            if named:
                enum_def = enum_definition(self.claim(hint), schema)
                if enum_def is not None:
                    self.definitions[enum_def.name] = enum_def
                    return TypeRef("model", enum_def.name)
            if all(isinstance(v, str | int) for v in values):
                return TypeRef("literal", literals=tuple(values))
            enum_def = enum_definition(self.claim(hint + "Value"), schema)
            if enum_def is not None:  # floats: typing's Literal takes none
                self.definitions[enum_def.name] = enum_def
                return TypeRef("model", enum_def.name)
            return ANY
        schema = spread(schema, self._deref) or schema
        for key in ("oneOf", "anyOf"):
            members = schema.get(key)
            if isinstance(members, list) and members:
                union = self._union(schema, members, hint)
                for why in (unselected(self.document, schema), twins(self.document, schema)):
                    if why is not None:
                        self.notes.warn(why)
                if key == "oneOf" and not (exclusive(members, self._deref, union)
                                           and not (union.is_any and len(members) > 1)):
                    self.notes.warn("`oneOf` exclusivity is not enforced: a value matching "
                                    "several members is accepted (as `anyOf`)")
                return union
        all_of = schema.get("allOf")
        if isinstance(all_of, list) and all_of:
            if is_object_model(self.document, schema):
                return self._model_type(schema, hint)
            return self.convert(intersect_all_of(schema, self._deref), hint, named=named)
        types = json_types(schema)
        if len(types) > 1:
            args = widen_numbers([self._single(schema, t, hint) for t in types])
            return TypeRef("union", args=tuple(args))
        return self._single(schema, types[0] if types else None, hint)

    def _single(self, schema: dict[str, Any], kind: str | None, hint: str) -> TypeRef:
        if kind is None:
            if "properties" in schema or "additionalProperties" in schema:
                kind = "object"
            elif "items" in schema or "prefixItems" in schema:
                kind = "array"
            else:
                return ANY
        if kind == "object":
            if is_object_model(self.document, schema):
                return self._model_type(schema, hint)
            extra = schema.get("additionalProperties")
            value = self.convert(extra, hint + "Value") if isinstance(extra, dict) and extra else ANY
            closed = (("max_length", 0),)  # no properties, none other allowed: only `{}`
            return TypeRef("dict", args=(value,), constraints=closed if extra is False else bounds(
                schema, ("minProperties", "min_length"), ("maxProperties", "max_length")))
        if kind == "array":
            return array_type(schema, hint, self.convert, self.notes.warn)
        if kind == "string":
            return string_type(schema)
        if kind == "integer":
            return TypeRef("builtin", "int", constraints=integer_constraints(schema))
        if kind == "number":
            return TypeRef("builtin", "float", constraints=number_constraints(schema))
        if kind == "boolean":
            return TypeRef("builtin", "bool")
        if kind == "null":
            return TypeRef("builtin", "None")
        return ANY

    # -- unions ------------------------------------------------------------------------------
    def _union(self, schema: dict[str, Any], members: list[Any], hint: str) -> TypeRef:
        real = [m for m in members if not is_null_schema(m)]
        if not real:
            return TypeRef("builtin", "None")
        args = [self.convert(m, member_hint(m, hint, i, self.component_name))
                for i, m in enumerate(real)]
        if any(arg.is_any for arg in args):
            return ANY  # `{}` among the members: any value, null included
        if len(args) == 1:
            return args[0]
        discriminator = self._disc.of(schema, real, args, self.side)
        if discriminator is None and self.side == "write":
            tag = self._disc.of(schema, real, args, "read")
            if tag is not None:  # PagerDuty's contact methods: `type`, readOnly in Tag/allOf/0
                self.notes.warn(f"the members are told apart by `{tag}`, which the contract marks "
                                "readOnly, so a request carries no tag and a value that fits "
                                "several members is read as the first it fits (hint: drop "
                                f"`readOnly` from `{tag}` with an overlay if requests send it)")
        return TypeRef("union", args=tuple(widen_numbers(args)), discriminator=discriminator)

    # -- objects -----------------------------------------------------------------------------
    def _deref(self, schema: Any) -> dict[str, Any]:
        return deref(self.document, schema)

    def _model_type(self, schema: dict[str, Any], hint: str) -> TypeRef:
        name = self.claim(hint)
        self._build_model(name, schema, None)
        return TypeRef("model", name)

    def _build_model(self, name: str, schema: dict[str, Any], ref: str | None) -> None:
        properties, required, extra, owners = merged(self.document, schema)
        if (why := closed_conflict(self.document, schema)) is not None:
            self.notes.warn(why, ref[1:] if ref else None)
        refs = [*owners, ref] if ref else owners
        fields: list[FieldDef] = []
        dropped: list[str] = []
        names = field_names(properties, self.component_name)
        # A request model reuses the response model's fields that read the same both ways.
        response = self.definitions.get(self.component_name(ref) or "") if (
            self.side == "write" and ref) else None
        reusable = {f.wire: f for f in response.fields} if isinstance(response, ModelDef) else {}
        for wire, prop in properties.items():
            side = access(self.document, prop)
            if side is not None and side != self.side:
                dropped.append(wire)
                if wire in required and (why := flagged_apart(self.document, schema, wire, side)):
                    self.notes.warn(why, ref[1:] if ref else None)
                continue
            if wire in reusable and not self.access.splits(prop):
                fields.append(reusable[wire])
                continue
            prop_schema = prop if isinstance(prop, dict) else {}
            type_ref = self.convert(prop_schema, name + pascal_case(wire))
            tags = self._disc.mapped(refs, wire)
            if tags and type_ref.kind != "literal":
                type_ref = TypeRef("literal", literals=tags)
            if (tags and wire not in required and len(type_ref.literals) == 1
                    and "default" not in prop_schema):
                # A discriminator tag must be present to tell the union's members apart.
                prop_schema = {**prop_schema, "default": type_ref.literals[0]}
            fields.append(field_def(prop_schema, self._deref(prop_schema),
                                    name=names[wire], wire=wire, type_ref=type_ref,
                                    required=wire in required))
        extra_type: TypeRef | None = None
        mode: Literal["allow", "forbid"]
        if extra is False:
            mode = "forbid"
        else:
            mode = "allow"
            if isinstance(extra, dict) and extra:
                extra_type = self.convert(extra, name + "Value")
                extra_type = None if extra_type.is_any else extra_type
        undeclared = tuple(r for r in required if r not in properties)  # JSON Schema requires
        self.definitions[name] = ModelDef(name, described(schema), tuple(fields), mode, extra_type,
                                          tuple(dropped), undeclared)
