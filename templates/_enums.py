"""Open enums and unions: what a response carries that the client does not know is kept.

Copied verbatim into every package. An enum generated open (every enum the contract does not
mark `x-enum-closed: true`) accepts, while `responses()` is active, any value of its type as a
pseudo-member named `UNKNOWN` whose `.value` is the value received; `is_unknown` tells it
apart. A union of models generated open (`OpenUnion`) takes, likewise, a value that matches
none of its members (a discriminator value it does not know) as an `UnknownMember` holding
the data as received. The client parses responses inside `responses()`; everywhere else (a
server reading a request, `Color("x")` in code) enums and unions stay closed.
"""

import contextlib
import contextvars
import dataclasses
import enum
from collections.abc import Iterator
from typing import Annotated, Any, Union, get_args

from pydantic import Field, GetCoreSchemaHandler, PrivateAttr, RootModel
from pydantic_core import CoreSchema, ValidationError, core_schema

_OPEN = contextvars.ContextVar("contractgen_open_enums", default=False)
_READING = contextvars.ContextVar("contractgen_reading_response", default=False)


@contextlib.contextmanager
def responses(open_enums: bool = True) -> Iterator[None]:
    """Open enums and unions (or, with False, keep them closed) while parsing a response."""
    token, reading = _OPEN.set(open_enums), _READING.set(True)
    try:
        yield
    finally:
        _READING.reset(reading)
        _OPEN.reset(token)


def reading_response() -> bool:
    """Whether a response is being parsed (some checks are lenient there: `check_uri`)."""
    return _READING.get()


def unknown_member(cls: type[enum.Enum], value: object) -> Any:
    """`_missing_` of an open enum: a pseudo-member for a value of its type, or None."""
    kind: Any = getattr(cls, "_member_type_", object)
    if kind is float and isinstance(value, int):
        value = float(value)
    if not _OPEN.get() or isinstance(value, bool) or not isinstance(value, kind):
        return None
    member: Any = kind.__new__(cls, value)
    member._name_ = "UNKNOWN"
    member._value_ = value
    return member


class UnknownMember(RootModel[Any]):
    """A value of a response union that none of its members matches (a member added to the
    contract after this client was generated): the data as received, in `root`, and the
    discriminator's value in `tag` (None when the union has no discriminator)."""

    _discriminator: str | None = PrivateAttr(default=None)

    @property
    def discriminator(self) -> str | None:
        """The union's discriminator property (wire name), or None."""
        return self._discriminator

    @property
    def tag(self) -> Any:
        """The value the data carries under the union's discriminator, or None."""
        if self._discriminator is None or not isinstance(self.root, dict):
            return None
        return self.root.get(self._discriminator)


@dataclasses.dataclass(frozen=True)
class OpenUnion:
    """`Annotated` metadata of a union generated open: `Annotated[A | B | UnknownMember,
    OpenUnion("kind")]` validates as `A | B` (discriminated by `kind`, when given), and a
    value neither takes as an `UnknownMember` while a response is read, with open enums.
    With a discriminator, only a tag no member declares is unknown: a known member's invalid
    data is still an error. The JSON schema is `A | B`'s."""

    discriminator: str | None = None

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        members = tuple(m for m in get_args(source) if m is not UnknownMember)
        closed: Any = Union[members]  # noqa: UP007  (built at run time)
        if self.discriminator is not None:
            closed = Annotated[closed, Field(discriminator=self.discriminator)]
        schema = handler.generate_schema(closed)
        wire = _wire(members[0], self.discriminator)

        def validate(
            value: Any, inner: core_schema.ValidatorFunctionWrapHandler
        ) -> Any:
            if isinstance(value, UnknownMember):
                return value
            try:
                return inner(value)
            except ValidationError as exc:
                if not _OPEN.get() or not self._unknown(exc):
                    raise
            member = UnknownMember(value)
            member._discriminator = wire
            return member

        return core_schema.no_info_wrap_validator_function(
            validate,
            schema,
            serialization=core_schema.wrap_serializer_function_ser_schema(
                _serialize, schema=schema
            ),
        )

    def _unknown(self, error: ValidationError) -> bool:
        """Whether the error says no member matched (with a discriminator: its value is
        one no member declares), not that a known member's data is wrong."""
        if self.discriminator is None:
            return True
        return all(
            e["type"] == "union_tag_invalid" and not e["loc"] for e in error.errors()
        )


def _wire(member: Any, field: str | None) -> str | None:
    """The wire name (alias) of a member's field, e.g. the discriminator `petType`."""
    fields = getattr(member, "model_fields", {})
    info = fields.get(field) if field is not None else None
    return (info.alias or field) if info is not None else field


def _serialize(value: Any, inner: core_schema.SerializerFunctionWrapHandler) -> Any:
    return value.root if isinstance(value, UnknownMember) else inner(value)


def is_unknown(member: object) -> bool:
    """Whether `member` is a value the contract did not list (kept from a response): an
    enum's pseudo-member or a union's `UnknownMember`."""
    if isinstance(member, UnknownMember):
        return True
    if not isinstance(member, enum.Enum):
        return False
    return type(member).__members__.get(member.name) is not member
