"""What server and client need for media types and streams: imports, names, template helpers.

Kept apart from `render` so that the contexts there only merge these in (docs/generated-api.md,
"Media types and streams").
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..model.ir import Api, Operation
from . import signatures, source
from .imports import ImportSet


def success_kind(op: Operation) -> str:
    """The kind `respond` gets for the first success response (`json-events`: typed events;
    `json-or-...`: JSON or events, as the service returns a model or an async iterable)."""
    if not op.success:
        return "empty"
    first = op.success[0]
    if op.json_or_events:
        events = source.events_of(op)
        return "json-or-" + ("json-events" if events.type is not None else "events")
    if first.kind == "events" and first.type is not None:
        return "json-events"
    return first.kind


def client_view(op: Operation) -> Operation:
    """An operation answering JSON or events as the client calls it: `<method>` for the JSON
    (its events left out of `success`), `<method>_events` for the events (`also_events`)."""
    if not op.json_or_events or op.also_events is not None:
        return op
    events = source.events_of(op)
    success = tuple(replace(s, representations=tuple(
        r for r in s.representations if r.kind != "events")) for s in op.success)
    return replace(op, success=success, also_events=events)


def client_api(api: Api) -> Api:
    """The contract as the client template reads it (`client_view` of every operation)."""
    if not any(op.json_or_events and op.also_events is None for op in api.operations):
        return api
    return replace(api, operations=tuple(client_view(op) for op in api.operations))


def _has_events(api: Api) -> bool:
    return any(op.streams_events or op.also_events for op in api.operations)


def client_media(api: Api, imports: ImportSet) -> dict[str, Any]:
    """Adds the client's stream imports; returns the context entries its templates use."""
    exported: list[str] = []
    if _has_events(api):
        imports.names("._client_streams", [
            "AsyncEventStream", "Event", "EventStream", "aiter_events", "aopen_events",
            "iter_events", "open_events"])
        imports.name("collections.abc", "AsyncIterator", "Iterator")
        exported.extend(["AsyncEventStream", "Event", "EventStream"])
        streaming = [op for op in api.operations if op.streams_events or op.also_events]
        if any(not op.headers_class for op in streaming):
            imports.name("._client_streams", "no_headers")
        reps = [source.events_of(op) for op in streaming]
        if any(r.type is not None for r in reps):
            imports.name("._client_streams", "json_data")
        if any(r.type is None for r in reps):
            imports.name("._client_streams", "text_data")
    if any(op.streams_bytes for op in api.operations):
        imports.names("._client_streams", ["aiter_bytes", "iter_bytes"])
        imports.name("collections.abc", "AsyncIterator", "Iterator")
    if any(len(r.representations) > 1 for op in api.operations if not op.streams_events
           for r in op.success):
        imports.name("._client_streams", "read_body")
    if any(op.negotiates for op in api.operations):
        imports.name("typing", "Literal")
    if any(op.body is not None and op.body.also_form for op in api.operations):
        imports.name("._client_streams", "json_or_form")
        imports.name("typing", "Literal")
    return {
        "media_exports": exported,
        "accept_header": signatures.accept_header,
        "accept_overloads": signatures.accept_overloads,
        "response_source": source.response_source,
        "events_of": source.events_of,
        "event_data": source.event_data_source,
    }
