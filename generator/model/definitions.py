"""The IR's model definitions: a pydantic class (`ModelDef` of `FieldDef`s), an enum, a type
alias. `ir` re-exports them with the operations and the `Api` that hold them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .typeref import TypeRef


@dataclass(frozen=True)
class FieldDef:
    """A model field."""

    name: str
    wire: str
    type: TypeRef
    required: bool
    # the spec's default as JSON (`emit.defaults` spells it); None when there is none or it is
    # `null` (which made the type nullable)
    default: Any = None
    description: str | None = None
    comment: str | None = None  # printed above the field: what its type does not check

    @property
    def has_alias(self) -> bool:
        return self.name != self.wire

    @property
    def nullable(self) -> bool:
        return self.type.nullable

    @property
    def has_default(self) -> bool:
        return self.default is not None

    @property
    def rejects_null(self) -> bool:
        """Optional, not nullable, no default: may be absent, may not be `null` (unless the
        type is any value, or any a `not` leaves: `null` is one of them)."""
        return (not self.required and not self.type.is_nullable and not self.has_default
                and not self.type.admits_null)


@dataclass(frozen=True)
class ModelDef:
    """A pydantic model class for an object schema."""

    name: str
    description: str | None
    fields: tuple[FieldDef, ...]
    extra: Literal["allow", "forbid"]
    extra_type: TypeRef | None = None
    # wire names this model never carries (readOnly in a request, writeOnly in a response)
    dropped: tuple[str, ...] = ()
    # `required` names that are not among `properties`: present, whatever their value
    required_extra: tuple[str, ...] = ()

    def dependencies(self) -> set[str]:
        deps = {n for f in self.fields for n in f.type.model_names()}
        if self.extra_type:
            deps.update(self.extra_type.model_names())
        return deps

    @property
    def non_nullable(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields if f.rejects_null)


@dataclass(frozen=True)
class EnumDef:
    """A named enum of strings (`StrEnum`), integers (`IntEnum`) or numbers (`float, Enum`)."""

    name: str
    description: str | None
    value_type: Literal["str", "int", "float"]
    members: tuple[tuple[str, str | int | float], ...]  # (member name, value)
    closed: bool = False  # `x-enum-closed: true`: no unknown value is kept from responses

    def dependencies(self) -> set[str]:
        return set()


@dataclass(frozen=True)
class AliasDef:
    """A type alias for a schema that is not an object: a union, an array, a primitive.

    `adapter` names the `TypeAdapter` generated beside it; `recursive` aliases (that reach
    themselves through other aliases) are spelled with `TypeAliasType` and a forward reference.
    """

    name: str
    description: str | None
    type: TypeRef
    adapter: str = ""
    recursive: bool = False

    def dependencies(self) -> set[str]:
        return set(self.type.model_names())


Definition = ModelDef | EnumDef | AliasDef
