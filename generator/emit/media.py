"""What server and client need for media types and streams: imports, names, template helpers.

Kept apart from `render` so that the contexts there only merge these in (docs/generated-api.md,
"Media types and streams").
"""

from __future__ import annotations

from typing import Any

from ..model.ir import Api, Operation
from . import source
from .imports import ImportSet


def success_kind(op: Operation) -> str:
    """The kind `respond` gets for the first success response (`json-events`: typed events)."""
    if not op.success:
        return "empty"
    first = op.success[0]
    if first.kind == "events" and first.type is not None:
        return "json-events"
    return first.kind


def _has_events(api: Api) -> bool:
    return any(op.streams_events for op in api.operations)


def server_media(api: Api, imports: ImportSet) -> list[str]:
    """Adds the server's media imports; returns the names `server` exports for them."""
    exported: list[str] = []
    if any(op.media_types for op in api.operations):
        imports.names("._server_media", ["chosen_media_type", "negotiation"])
        exported.append("chosen_media_type")
    if _has_events(api):
        imports.name("._server_media", "ServerEvent")
        imports.name("collections.abc", "AsyncIterable")
        exported.append("ServerEvent")
    return exported


def client_media(api: Api, imports: ImportSet) -> dict[str, Any]:
    """Adds the client's stream imports; returns the context entries its templates use."""
    exported: list[str] = []
    if _has_events(api):
        imports.names("._client_streams", [
            "AsyncEventStream", "Event", "EventStream", "aiter_events", "aopen_events",
            "iter_events", "open_events"])
        imports.name("collections.abc", "AsyncIterator", "Iterator")
        exported.extend(["AsyncEventStream", "Event", "EventStream"])
        if any(op.streams_events and not op.headers_class for op in api.operations):
            imports.name("._client_streams", "no_headers")
        reps = [source.events_of(op) for op in api.operations if op.streams_events]
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
    return {
        "media_exports": exported,
        "accept_header": source.accept_header,
        "accept_overloads": source.accept_overloads,
        "response_source": source.response_source,
        "events_of": source.events_of,
        "event_data": source.event_data_source,
    }
