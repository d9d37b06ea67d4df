"""Media types of the generated server: `Accept` negotiation (406) and Server-Sent Events.

Copied verbatim into every server (already black-formatted). Import from `server` instead.
Events go out through sse-starlette, imported when an operation first streams events: a
contract without `text/event-stream` responses does not need it installed.
"""

import dataclasses
import importlib
from collections.abc import AsyncIterable, AsyncIterator, Callable
from contextvars import ContextVar
from typing import Any

from fastapi import Depends, Request
from fastapi.responses import Response
from pydantic import BaseModel, TypeAdapter
from starlette.exceptions import HTTPException as StarletteHTTPException

from . import errors

PING_SECONDS = 15
"""How often an idle event stream sends a keep-alive comment (`: ping`)."""

_ANY: TypeAdapter[Any] = TypeAdapter(Any)
_CHOSEN: ContextVar[str | None] = ContextVar("contractgen_media", default=None)
_ACCEPTABLE: ContextVar[tuple[str, ...]] = ContextVar(
    "contractgen_acceptable", default=()
)


# ServiceBase.error_body: (operation id, status, code, message, errors) -> body
ErrorBody = Callable[[str, int, str, str, list[Any] | None], Any]


@dataclasses.dataclass(frozen=True)
class ServerEvent:
    """One Server-Sent Event with its optional fields; yield a bare value for `data` alone."""

    data: Any = None
    event: str | None = None
    id: str | None = None
    retry: int | None = None  # milliseconds
    comment: str | None = None


def _base(media: str) -> str:
    return media.split(";", maxsplit=1)[0].strip().lower()


def is_json(media: str | None) -> bool:
    base = _base(media or "")
    return base == "application/json" or base.endswith("+json")


def _ranges(accept: str) -> list[tuple[str, float]]:
    """`Accept`'s media ranges with their quality (parameters other than q ignored)."""
    ranges = []
    for item in accept.split(","):
        media, *params = item.split(";")
        quality = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value.strip())
                except ValueError:
                    quality = 0.0
        if media.strip():
            ranges.append((media.strip().lower(), quality))
    return ranges


def _quality(media: str, ranges: list[tuple[str, float]]) -> float:
    """The quality `ranges` give `media`: the most specific matching range decides."""
    base = _base(media)
    kind = base.split("/", maxsplit=1)[0]
    best, rank = 0.0, -1
    for pattern, quality in ranges:
        if pattern == base and rank < 2:
            best, rank = quality, 2
        elif pattern == f"{kind}/*" and rank < 1:
            best, rank = quality, 1
        elif pattern == "*/*" and rank < 0:
            best, rank = quality, 0
    return best


def negotiate(accept: str | None, declared: tuple[str, ...]) -> str | None:
    """The declared media type `accept` prefers (JSON first, then the declared order, among
    equals); the first JSON one (else the first) without `Accept`; None when none fits.
    """
    preferred = sorted(declared, key=lambda m: not is_json(m))
    if not accept or not accept.strip():
        return preferred[0] if preferred else None
    ranges = _ranges(accept)
    scored = [(_quality(m, ranges), -i, m) for i, m in enumerate(preferred)]
    quality, _, media = max(scored, default=(0.0, 0, ""))
    return media if quality > 0 else None


def chosen_media_type() -> str | None:
    """Inside an operation: the media type its answer goes out in, negotiated from `Accept`.

    An operation declaring several (JSON and `text/csv`, say) returns a model for a JSON one
    and `str`, `bytes` or an async iterable of bytes for the others."""
    return _CHOSEN.get()


def answer_as(media_type: str) -> None:
    """Inside an operation: answer in `media_type`, not the negotiated one (GitHub's
    `star+json` beside `application/json`, when the service decides what it sends): one the
    operation declares and the request's `Accept` allows, else ValueError."""
    acceptable = _ACCEPTABLE.get()
    if media_type not in acceptable:
        allowed = ", ".join(acceptable) or "none"
        raise ValueError(
            f"{media_type} is not a media type this request accepts ({allowed})"
        )
    _CHOSEN.set(media_type)


def json_media(media_type: str) -> Any:
    """The route dependency of a JSON body: sent in another media type than the declared one
    (`application/json` where `application/json-patch+json` is declared), it is the declared
    415. A request without Content-Type is read as FastAPI reads it."""

    async def check(request: Request) -> None:
        sent = request.headers.get("content-type")
        if sent is not None and _base(sent) != _base(media_type):
            raise StarletteHTTPException(
                415,
                f"Unsupported media type {sent.split(';')[0]!r}: expected {media_type}",
            )

    return Depends(check)


def negotiation(
    error_body: ErrorBody, operation_id: str, declared: tuple[str, ...]
) -> Any:
    """The route dependency choosing the answer's media type, or answering 406."""

    async def check(request: Request) -> None:
        media = negotiate(request.headers.get("accept"), declared)
        if media is None:
            message = f"Not acceptable: this operation answers {', '.join(declared)}"
            body = error_body(operation_id, 406, "NOT_ACCEPTABLE", message, None)
            raise errors.ApiError(body, status_code=406)
        _CHOSEN.set(media)
        accept = request.headers.get("accept") or ""
        ranges = _ranges(accept) if accept.strip() else [("*/*", 1.0)]
        _ACCEPTABLE.set(tuple(m for m in declared if _quality(m, ranges) > 0))

    return Depends(check)


def representation(
    result: Any, kind: str, media_type: str | None
) -> tuple[str, str | None]:
    """The kind and media type `result` goes out as: the negotiated media type decides."""
    chosen = _CHOSEN.get()
    if chosen is None or chosen == media_type:
        return kind, media_type
    if _base(chosen) == "text/event-stream":
        return "events", chosen
    if is_json(chosen):
        return "json", chosen
    return ("text" if chosen.startswith("text/") else "binary"), chosen


def _data(value: Any, typed: bool) -> str:
    if isinstance(value, str) and not typed:
        return value
    if isinstance(value, BaseModel):
        return value.model_dump_json(by_alias=True)
    return _ANY.dump_json(value, by_alias=True).decode()


def event_response(
    events: AsyncIterable[Any],
    status: int,
    headers: dict[str, str],
    *,
    typed: bool,
) -> Response:
    """Stream `events` as Server-Sent Events, each sent as it is produced, with keep-alive
    pings; a client that goes away cancels the iteration (its `finally` blocks run)."""
    # Imported by name: mypy and the import of a contract without events need no sse-starlette.
    sse = importlib.import_module("sse_starlette")
    ServerSentEvent = sse.ServerSentEvent

    async def encoded() -> AsyncIterator[Any]:
        async for item in events:
            if isinstance(item, ServerEvent):
                data = None if item.data is None else _data(item.data, typed)
                yield ServerSentEvent(
                    data=data,
                    event=item.event,
                    id=item.id,
                    retry=item.retry,
                    comment=item.comment,
                )
            else:
                yield ServerSentEvent(data=_data(item, typed))

    response: Response = sse.EventSourceResponse(
        encoded(), status_code=status, headers=headers, ping=PING_SECONDS
    )
    return response
