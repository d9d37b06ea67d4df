"""What an operation answers, as the IR carries it: its responses, their media types and headers,
the typed exceptions of its errors, and the error bodies the generated server builds itself
(`responses` reads them from the contract, `errorbodies` derives the bodies); re-exported by `ir`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .typeref import TypeRef

ResponseKind = Literal["json", "binary", "text", "empty", "events"]
# A constant, an object of `fields`, or what the server fills in (`emit.error_shapes` spells it):
# the message, code, status, the validation errors as they are, as lines of text, as FastAPI's
# `detail` list (the message's one item without errors), or else the message.
Fill = Literal["value", "object", "message", "code", "status", "errors", "lines", "detail",
               "errors_or_message"]


@dataclass(frozen=True)
class ErrorBody:
    """An error body the generated server builds itself, in the shape the contract declares."""

    fill: Fill
    value: object = None  # the constant; for a code `among` an enum's values, the fallback
    fields: tuple[tuple[str, ErrorBody], ...] = ()  # (wire name, what it holds)
    among: tuple[str, ...] = ()

    @property
    def says_message(self) -> bool:
        """Whether the body carries the error's message somewhere."""
        return self.fill in ("message", "lines", "detail", "errors_or_message") or any(
            body.says_message for _, body in self.fields)


@dataclass(frozen=True)
class ResponseHeader:
    """A header a response declares: its Python name, wire name, type, whether required."""

    name: str
    wire: str
    type: TypeRef
    required: bool
    description: str | None = None


@dataclass(frozen=True)
class Representation:
    """One media type a response declares: its kind and (JSON, events) the body or event type."""

    media_type: str
    kind: ResponseKind
    type: TypeRef | None = None  # json: the body; events: each event's `data` (None: text)


_EMPTY = Representation("", "empty")


@dataclass(frozen=True)
class Response:
    """A declared response: status, headers and every media type it declares; its kind, media
    type and body type are those of its `primary` media type."""

    status: str
    description: str | None = None
    headers: tuple[ResponseHeader, ...] = ()
    representations: tuple[Representation, ...] = ()
    # `x-contractgen-retryable: true`: the service did nothing, the call may be sent again
    retryable: bool = False

    @property
    def primary(self) -> Representation:
        """Its first JSON media type, else its first (`empty` when it declares none)."""
        reps = self.representations
        return next((r for r in reps if r.kind == "json"), reps[0] if reps else _EMPTY)

    @property
    def kind(self) -> ResponseKind:
        return self.primary.kind

    @property
    def media_type(self) -> str | None:
        return self.primary.media_type or None

    @property
    def type(self) -> TypeRef | None:
        return self.primary.type

    @property
    def status_code(self) -> int | None:
        return int(self.status) if self.status.isdigit() else None


@dataclass(frozen=True)
class ErrorClass:
    """A typed exception for a declared non-2xx response."""

    name: str
    operation_id: str
    response: Response
