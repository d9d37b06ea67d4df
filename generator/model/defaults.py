"""A spec `default` as Python source of the field's own type: enum members rather than their
values, models built from their data, numbers of the declared kind (so `mypy --strict` accepts
the generated code and the default is the same value a request would carry)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .allof import is_number
from .ir import AliasDef, Definition, EnumDef, FieldDef, ModelDef
from .keywords import unchecked_format
from .literal import literal
from .schema_facts import described, py_literal
from .typeref import ANY, TypeRef

_JSON_KINDS: dict[str, Any] = {"str": str, "int": int, "float": int | float, "bool": bool}


class DefaultWriter:
    """Writes defaults against the definitions built so far."""

    def __init__(self, definitions: Mapping[str, Definition]) -> None:
        self.definitions = definitions

    def source(self, value: Any, type_ref: TypeRef, prefix: str = "") -> tuple[str, bool]:
        """Source for `value` as a `type_ref`, and whether it must be built afresh per use
        (a list, a dict, a model); `prefix` goes before generated names (`models.`)."""
        if value is None:
            return "None", False
        if type_ref.kind == "union":
            member = self._member_for(value, type_ref.args)
            return self.source(value, member, prefix) if member else (py_literal(value), False)
        definition = self.definitions.get(type_ref.name) if type_ref.kind == "model" else None
        if isinstance(definition, EnumDef):
            for member_name, source in definition.members:
                if source == literal(value) or (is_number(value) and source == repr(float(value))):
                    return f"{prefix}{definition.name}.{member_name}", False
        if isinstance(definition, AliasDef):
            return self.source(value, definition.type, prefix)
        if isinstance(definition, ModelDef) and isinstance(value, dict):
            return f"{prefix}{definition.name}.model_validate({literal(value)})", True
        if type_ref.kind == "list" and isinstance(value, list):
            item = type_ref.args[0] if type_ref.args else ANY
            return "[" + ", ".join(self.source(v, item, prefix)[0] for v in value) + "]", True
        if type_ref.kind == "dict" and isinstance(value, dict):
            item = type_ref.args[0] if type_ref.args else ANY
            entries = (f"{literal(k)}: {self.source(v, item, prefix)[0]}" for k, v in value.items())
            return "{" + ", ".join(entries) + "}", True
        if type_ref.kind == "builtin" and type_ref.name == "float" and isinstance(value, int):
            return repr(float(value)), False
        return py_literal(value), isinstance(value, dict | list)

    def _member_for(self, value: Any, args: tuple[TypeRef, ...]) -> TypeRef | None:
        """The union member a default belongs to: by enum values and tags, then JSON kind."""
        for arg in args:
            definition = self.definitions.get(arg.name) if arg.kind == "model" else None
            target = definition.type if isinstance(definition, AliasDef) else arg
            if isinstance(definition, EnumDef):
                if any(source == literal(value) for _, source in definition.members):
                    return arg
            elif target.kind == "literal":
                if value in target.literals:
                    return arg
            elif isinstance(definition, ModelDef):
                if isinstance(value, dict) and _takes(definition, value):
                    return arg
            elif _kind_matches(value, target):
                return arg
        return None


def _takes(model: ModelDef, value: dict[str, Any]) -> bool:
    """False when a field typed to literals (a discriminator tag) rules `value` out."""
    return not any(field.type.kind == "literal" and field.wire in value
                   and value[field.wire] not in field.type.literals for field in model.fields)


def _kind_matches(value: Any, type_ref: TypeRef) -> bool:
    if type_ref.kind == "any":
        return True
    if type_ref.kind in ("list", "dict"):
        return isinstance(value, list if type_ref.kind == "list" else dict)
    kind = _JSON_KINDS.get(type_ref.name)
    if kind is None:  # datetime, uuid...: written as strings
        return isinstance(value, str) and type_ref.kind == "builtin"
    if isinstance(value, bool):
        return type_ref.name == "bool"
    return isinstance(value, kind)


def field_def(definitions: Mapping[str, Definition], schema: dict[str, Any], target: dict[str, Any],
              *, name: str, wire: str, type_ref: TypeRef, required: bool) -> FieldDef:
    """A model field for property `schema` (`target` is it with its `$ref` followed): its
    default as source (a factory for values built afresh), description, and comment."""
    default = schema.get("default", target.get("default") if "$ref" in schema else None)
    has_default = "default" in schema or ("$ref" in schema and "default" in target)
    default_src: str | None = None
    factory: str | None = None
    if has_default and not required:
        if default is None:
            type_ref = type_ref.with_nullable()
        else:
            source, fresh = DefaultWriter(definitions).source(default, type_ref)
            if not fresh:
                default_src = source
            elif source in ("[]", "{}"):
                factory = "list" if source == "[]" else "dict"
            else:
                factory = f"lambda: {source}"
    # Only the property's own description: a `$ref` target's describes the target, not every
    # field that refers to it (its class docstring says it once).
    description = described(schema)
    fmt = unchecked_format(target)
    return FieldDef(name, wire, type_ref, required, default_src, factory, description,
                    f"format {fmt!r} is not checked: any string" if fmt else None)
