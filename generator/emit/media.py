"""What server and client need for media types and streams: the client's view, template helpers.

Kept apart from `render` so that the contexts there only merge these in (docs/generated-api.md,
"Media types and streams").
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from ..model.ir import Api, Operation, Response
from . import signatures, source


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


def client_media() -> dict[str, Any]:
    """The helpers the client's templates call for media types and streams."""
    return {
        "accept_header": signatures.accept_header,
        "response_source": source.response_source,
        "events_of": source.events_of,
        "event_data": source.event_data_source,
        "other_json": other_json,
    }


def other_json(response: Response) -> str | None:
    """The JSON media types of a response after its first, each with the type it is parsed as
    (a dict literal for `read_body`, which picks by `Content-Type`: GitHub's
    `application/vnd.github.v3.star+json` beside `application/json`), or None when they are
    all parsed alike."""
    first = response.primary
    others = {r.media_type: source.type_source(r.type, "models.") for r in
              response.representations if r.kind == "json" and r is not first
              and r.type is not None and r.type != first.type}
    if not others:
        return None
    return "{" + ", ".join(f"{json.dumps(media)}: {kind}" for media, kind in others.items()) + "}"
