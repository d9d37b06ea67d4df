"""Streams of the generated client: bodies read as they arrive, Server-Sent Events, media types.

Copied verbatim into every client (already black-formatted). Import from `client` instead.
Events are parsed by httpx-sse, imported when an operation first streams events: a contract
without `text/event-stream` responses does not need it installed.
"""

import dataclasses
import functools
import importlib
import itertools
import json
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any, Generic, TypeVar

import httpx
from pydantic import BaseModel, TypeAdapter
from pydantic_core import to_jsonable_python

from ._client_runtime import _json
from ._enums import responses

DataT = TypeVar("DataT")
HeadT = TypeVar("HeadT")

Fail = Callable[[httpx.Response], Exception]


@dataclasses.dataclass(frozen=True)
class Event(Generic[DataT]):
    """One Server-Sent Event: its `data` (parsed when the contract types it), and its
    `event` name (`message` when the server gives none), `id` and `retry` (milliseconds).
    """

    data: DataT
    event: str = "message"
    id: str = ""
    retry: int | None = None


@functools.cache
def _adapter(kind: Any) -> TypeAdapter[Any]:
    return TypeAdapter(kind)


def _base(media: str) -> str:
    return media.split(";", maxsplit=1)[0].strip().lower()


def read_body(
    response: httpx.Response, kind: Any, others: dict[str, Any] | None = None
) -> Any:
    """A response declared in several media types, as its `Content-Type` says: JSON parsed as
    `kind` (as `_json` does: open enums, `ResponseValidationError`), or as the type `others`
    gives its JSON media type (GitHub's `application/vnd.github.v3.star+json`), `text/*` as
    str, anything else as bytes."""
    media = _base(response.headers.get("content-type", ""))
    if media == "application/json" or media.endswith("+json"):
        return _json((others or {}).get(media, kind), response)
    if media.startswith("text/"):
        return response.text
    return response.content


def json_or_form(
    body: Any, media_type: str, headers: dict[str, str]
) -> tuple[bytes | None, dict[str, Any] | None, list[tuple[str, Any]] | None]:
    """A body declared as JSON and as a form, in `media_type`: httpx's content, data and files.

    A form sends each field set by its wire name: bytes as a file part (multipart), a list
    of values as repeated fields, an object as its JSON text, other values as their text.
    """
    if body is None:
        return None, None, None
    if _base(media_type) == "application/json" or media_type.endswith("+json"):
        headers["Content-Type"] = media_type
        if isinstance(body, BaseModel):
            return body.model_dump_json(by_alias=True).encode(), None, None
        return _adapter(Any).dump_json(body, by_alias=True), None, None
    fields = body.model_dump(by_alias=True) if isinstance(body, BaseModel) else body
    multipart = _base(media_type) == "multipart/form-data"
    data: dict[str, Any] = {}
    files: list[tuple[str, Any]] = []
    for key, value in fields.items():
        if isinstance(value, bytes) and multipart:
            files.append((key, (key, value, "application/octet-stream")))
        elif value is not None:
            texts = _form_texts(to_jsonable_python(value))
            files.extend((key, (None, text)) for text in texts)
            data[key] = texts
    return None, (None if multipart else data), (files if multipart else None)


def _form_texts(value: Any) -> list[str]:
    if isinstance(value, list) and not any(isinstance(v, dict | list) for v in value):
        return [_form_text(v) for v in value]
    return [_form_text(value)]


def _form_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict | list):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def _sendable(request: Any) -> dict[str, Any]:
    """httpx's arguments for `request` (a `_Request`): all its fields but its security and
    what the client's retries read (operation, idempotency)."""
    fields: dict[str, Any] = request._asdict()
    for name in ("security", "operation", "idempotency", "retryable"):
        fields.pop(name, None)
    return fields


def iter_bytes(
    http: httpx.Client, request: Any, fail: Fail, chunk_size: int | None = None
) -> Iterator[bytes]:
    """The body of `request` (a `_Request`), in chunks as they arrive; nothing is sent until
    the first chunk is asked for, and the connection is released when the iterator is
    exhausted or closed. A non-2xx answer raises what `fail` makes of it."""
    with http.stream(**_sendable(request)) as response:
        if not response.is_success:
            response.read()
            raise fail(response)
        yield from response.iter_bytes(chunk_size)


async def aiter_bytes(
    http: httpx.AsyncClient, request: Any, fail: Fail, chunk_size: int | None = None
) -> AsyncIterator[bytes]:
    """`iter_bytes`, async."""
    async with http.stream(**_sendable(request)) as response:
        if not response.is_success:
            await response.aread()
            raise fail(response)
        async for chunk in response.aiter_bytes(chunk_size):
            yield chunk


def _httpx_sse() -> Any:
    # Imported by name: mypy and the import of a contract without events need no httpx-sse.
    return importlib.import_module("httpx_sse")


def _event(sse: Any, parse: Callable[[str], DataT]) -> Event[DataT]:
    return Event(parse(sse.data), sse.event, sse.id, sse.retry)


# The data LLM APIs (OpenAI's among them) send last, not JSON: a typed stream ends there.
_DONE = "[DONE]"


def _last(sse: Any, parse: Callable[[str], Any]) -> bool:
    return parse is not text_data and sse.data == _DONE


def _event_request(request: Any) -> dict[str, Any]:
    """httpx's arguments for `request`, asking for events (an operation that may also answer
    JSON is asked for events by its `_events` methods)."""
    fields = _sendable(request)
    fields["headers"] = {**(fields.get("headers") or {}), "Accept": "text/event-stream"}
    return fields


def iter_events(
    http: httpx.Client, request: Any, fail: Fail, parse: Callable[[str], DataT]
) -> Iterator[Event[DataT]]:
    """The Server-Sent Events `request` answers, each yielded as it arrives (its data through
    `parse`). Nothing is sent until the first event is asked for; closing the iterator closes
    the connection. A non-2xx answer raises what `fail` makes of it."""
    EventSource = _httpx_sse().EventSource
    with http.stream(**_event_request(request)) as response:
        if not response.is_success:
            response.read()
            raise fail(response)
        for sse in EventSource(response).iter_sse():
            if _last(sse, parse):
                return
            yield _event(sse, parse)


async def aiter_events(
    http: httpx.AsyncClient, request: Any, fail: Fail, parse: Callable[[str], DataT]
) -> AsyncIterator[Event[DataT]]:
    """`iter_events`, async."""
    EventSource = _httpx_sse().EventSource
    async with http.stream(**_event_request(request)) as response:
        if not response.is_success:
            await response.aread()
            raise fail(response)
        async for sse in EventSource(response).aiter_sse():
            if _last(sse, parse):
                return
            yield _event(sse, parse)


async def _until_last(
    sse: AsyncIterator[Any], parse: Callable[[str], Any]
) -> AsyncIterator[Any]:
    async for item in sse:
        if _last(item, parse):
            return
        yield item


class EventStream(Iterator[Event[DataT]]):
    """The events of a response whose head already arrived, each read as it arrives;
    exhausting or closing it (or leaving its `with` block) releases the connection."""

    def __init__(self, response: httpx.Response, parse: Callable[[str], DataT]) -> None:
        self._response = response
        sse = _httpx_sse().EventSource(response).iter_sse()
        self._events = (
            _event(item, parse)
            for item in itertools.takewhile(lambda e: not _last(e, parse), sse)
        )

    def __next__(self) -> Event[DataT]:
        try:
            return next(self._events)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Releases the connection; no further event is read."""
        self._response.close()

    def __enter__(self) -> "EventStream[DataT]":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


class AsyncEventStream(AsyncIterator[Event[DataT]]):
    """`EventStream`, async: `async for`, `aclose()`, `async with`."""

    def __init__(self, response: httpx.Response, parse: Callable[[str], DataT]) -> None:
        self._response = response
        sse = _httpx_sse().EventSource(response).aiter_sse()
        self._events = (_event(item, parse) async for item in _until_last(sse, parse))

    async def __anext__(self) -> Event[DataT]:
        try:
            return await anext(self._events)
        except BaseException:
            await self.aclose()
            raise

    async def aclose(self) -> None:
        """Releases the connection; no further event is read."""
        await self._response.aclose()

    async def __aenter__(self) -> "AsyncEventStream[DataT]":
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()


def no_headers(response: httpx.Response) -> None:
    """The declared headers of an operation that declares none."""


def open_events(
    http: httpx.Client,
    request: Any,
    fail: Fail,
    head: Callable[[httpx.Response], HeadT],
) -> tuple[httpx.Response, HeadT]:
    """Sends `request` and waits for the head of its answer: the response, its body left
    unread (for an `EventStream`), and what `head` reads of its headers. A non-2xx answer, or
    headers `head` refuses, close the response and raise."""
    response = http.send(http.build_request(**_event_request(request)), stream=True)
    try:
        if not response.is_success:
            response.read()
            raise fail(response)
        return response, head(response)
    except BaseException:
        response.close()
        raise


async def aopen_events(
    http: httpx.AsyncClient,
    request: Any,
    fail: Fail,
    head: Callable[[httpx.Response], HeadT],
) -> tuple[httpx.Response, HeadT]:
    """`open_events`, async."""
    response = await http.send(
        http.build_request(**_event_request(request)), stream=True
    )
    try:
        if not response.is_success:
            await response.aread()
            raise fail(response)
        return response, head(response)
    except BaseException:
        await response.aclose()
        raise


def json_data(kind: Any) -> Callable[[str], Any]:
    """Parses an event's data as the JSON of `kind`, as a response: open enums and unions
    keep what the client does not know (`_enums`)."""
    validate = _adapter(kind).validate_json

    def parse(data: str) -> Any:
        with responses():
            return validate(data)

    return parse


def text_data(data: str) -> str:
    """An untyped event's data: the text as sent."""
    return data
