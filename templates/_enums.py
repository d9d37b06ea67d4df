"""Open enums: an enum value a response carries that the client does not know is kept.

Copied verbatim into every package. An enum generated open (every enum the contract does not
mark `x-enum-closed: true`) accepts, while `responses()` is active, any value of its type as a
pseudo-member named `UNKNOWN` whose `.value` is the value received; `is_unknown` tells it
apart. The client parses responses inside `responses()`; everywhere else (a server reading a
request, `Color("x")` in code) enums stay closed.
"""

import contextlib
import contextvars
import enum
from collections.abc import Iterator
from typing import Any

_OPEN = contextvars.ContextVar("contractgen_open_enums", default=False)


@contextlib.contextmanager
def responses(open_enums: bool = True) -> Iterator[None]:
    """Open enums (or, with False, keep them closed) while parsing a response."""
    token = _OPEN.set(open_enums)
    try:
        yield
    finally:
        _OPEN.reset(token)


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


def is_unknown(member: enum.Enum) -> bool:
    """Whether `member` is a value the contract did not list (kept from a response)."""
    return type(member).__members__.get(member.name) is not member
