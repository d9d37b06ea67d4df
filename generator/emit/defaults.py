"""A spec `default` (the JSON value the IR holds) as Python source of the type it is declared
with: enum members rather than their values, models built from their data, numbers of the
declared kind (so `mypy --strict` accepts the generated code and the default is the same value
a request would carry)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..model.allof import is_number
from ..model.ir import AliasDef, Api, Definition, EnumDef, FieldDef, ModelDef, Parameter
from ..model.literal import literal
from ..model.typeref import ANY, TypeRef

Spell = Callable[[Parameter], str]  # a parameter's default as source: `parameter_defaults`
_JSON_KINDS: dict[str, Any] = {"str": str, "int": int, "float": int | float, "bool": bool}


class Defaults:
    """Spells defaults against the contract's definitions."""

    def __init__(self, definitions: Iterable[Definition]) -> None:
        self.definitions = {d.name: d for d in definitions}

    def source(self, value: Any, type_ref: TypeRef, prefix: str = "") -> str:
        """Source for `value` as a `type_ref`; `prefix` goes before generated names (`models.`)."""
        if value is None:
            return "None"
        if type_ref.kind == "union":
            chosen = self._member_for(value, type_ref.args)
            return self.source(value, chosen, prefix) if chosen else literal(value)
        definition = self.definitions.get(type_ref.name) if type_ref.kind == "model" else None
        if isinstance(definition, EnumDef):
            for member_name, member in definition.members:  # as written: 1 is not 1.0, nor True
                spelled = literal(member)
                if spelled == literal(value) or (is_number(value) and spelled == repr(float(value))):
                    return f"{prefix}{definition.name}.{member_name}"
        if isinstance(definition, AliasDef):
            return self.source(value, definition.type, prefix)
        if isinstance(definition, ModelDef) and isinstance(value, dict):
            return f"{prefix}{definition.name}.model_validate({literal(value)})"
        if type_ref.kind == "list" and isinstance(value, list):
            item = type_ref.args[0] if type_ref.args else ANY
            return "[" + ", ".join(self.source(v, item, prefix) for v in value) + "]"
        if type_ref.kind == "dict" and isinstance(value, dict):
            item = type_ref.args[0] if type_ref.args else ANY
            entries = (f"{literal(k)}: {self.source(v, item, prefix)}" for k, v in value.items())
            return "{" + ", ".join(entries) + "}"
        if type_ref.kind == "builtin" and type_ref.name == "float" and isinstance(value, int):
            return repr(float(value))
        return literal(value)

    def _member_for(self, value: Any, args: tuple[TypeRef, ...]) -> TypeRef | None:
        """The union member a default belongs to: by enum values and tags, then JSON kind."""
        for arg in args:
            definition = self.definitions.get(arg.name) if arg.kind == "model" else None
            target = definition.type if isinstance(definition, AliasDef) else arg
            if isinstance(definition, EnumDef):
                if any(literal(member) == literal(value) for _, member in definition.members):
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


def fresh(field: FieldDef) -> bool:
    """The field's default is a list or an object: built afresh per use (`default_factory`)."""
    return isinstance(field.default, list | dict)


def parameter_defaults(api: Api) -> Spell:
    """Spells a parameter's default as the server and client write it (`models.`-prefixed):
    what they read of the definitions besides `client_source.definition_facts`."""
    spelling = Defaults(api.definitions)
    return lambda param: spelling.source(param.default, param.type, "models.")


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
