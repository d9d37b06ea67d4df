"""Type expressions of the intermediate model: what a field, parameter or body is typed as."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Literal

TypeKind = Literal["builtin", "model", "list", "tuple", "dict", "literal", "union", "any"]
# After-validators models.py defines (`check_<name>`): what pydantic has no keyword for.
Check = Literal["unique_items", "email", "uri"]
# pydantic Field keyword arguments and their values (`("max_length", 10)`, `("pattern", "^a")`):
# values, spelled as Python by `emit.source`.
Constraints = tuple[tuple[str, int | float | str], ...]


@dataclass(frozen=True)
class TypeRef:
    """A Python type expression: a builtin, a generated model, or a container of them."""

    kind: TypeKind
    name: str = ""
    args: tuple[TypeRef, ...] = ()
    literals: tuple[object, ...] = ()
    constraints: Constraints = ()  # pydantic Field keyword arguments and their values
    discriminator: str | None = None
    nullable: bool = False
    excluded: tuple[tuple[str, ...], tuple[object, ...]] | None = None  # `not`: types, values
    checks: tuple[Check, ...] = ()
    # A union of models that a response may extend (`unions.open_unions`): `| UnknownMember`.
    open: bool = False

    # Both are called for nearly every type of a contract (thousands): most calls change
    # nothing and return the value itself (it is immutable), the others build it directly
    # (`dataclasses.replace` reads the fields' definitions on every call).
    def with_nullable(self, nullable: bool = True) -> TypeRef:
        if self.nullable == nullable:
            return self
        return TypeRef(self.kind, self.name, self.args, self.literals, self.constraints,
                       self.discriminator, nullable, self.excluded, self.checks, self.open)

    def bare(self) -> TypeRef:
        """The same type without constraints and nullability (for parameters and unions)."""
        if not self.constraints and not self.nullable and self.excluded is None:
            return self
        return TypeRef(self.kind, self.name, self.args, self.literals, (), self.discriminator,
                       False, None, self.checks, self.open)

    def closed(self) -> TypeRef:
        """The same type with its unions closed: as the server, which sends it, spells it."""
        if not self.args:
            return self
        return replace(self, args=tuple(a.closed() for a in self.args), open=False)

    @property
    def is_nullable(self) -> bool:
        """Accepts None: marked so, or a union with a nullable member."""
        return self.nullable or (self.kind == "union" and any(a.nullable for a in self.args))

    @property
    def is_any(self) -> bool:
        return self.kind == "any" and self.excluded is None

    @property
    def admits_null(self) -> bool:
        """Any value, or any a `not` leaves (`{not: {type: number}}`): null among them unless
        the `not` names the null type or value."""
        if self.kind != "any":
            return False
        return self.excluded is None or not ("null" in self.excluded[0]
                                             or None in self.excluded[1])

    def names(self) -> Iterable[str]:
        """Names this expression uses, for imports and dependency order."""
        if self.kind == "any":
            yield "Any"
        elif self.kind in ("builtin", "model"):
            yield self.name
        elif self.kind == "literal":
            yield "Literal"
        for arg in self.args:
            yield from arg.names()
        if self.open:
            yield from ("Annotated", "OpenUnion", "UnknownMember")
        if self.constraints or (self.discriminator and not self.open):
            yield "Annotated"
            yield "Field"
        if self.excluded is not None or self.checks:
            yield "Annotated"
            yield "AfterValidator"
        if self.excluded is not None:
            yield "Excluding"
        for check in self.checks:
            yield f"check_{check}"

    def model_names(self) -> Iterable[str]:
        """Names this expression takes from models.py (generated classes, `Excluding`)."""
        if self.kind == "model":
            yield self.name
        if self.excluded is not None:
            yield "Excluding"
        for check in self.checks:
            yield f"check_{check}"
        for arg in self.args:
            yield from arg.model_names()


ANY = TypeRef("any")
# `{enum: [null]}`, `{const: null}`: None, which accepts null (an optional field takes it too)
NONE = TypeRef("builtin", "None", nullable=True)
