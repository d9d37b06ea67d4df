"""Media types the generated code does not carry: located warnings, so none is dropped silently.

Responses keep every media type they declare (docs/generated-api.md, "Media types"); request
bodies are generated for one media type (the first JSON one, else multipart, else a form, else
the first), and the Server-Sent Events extension only means something on `text/event-stream`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..problems import Level, Problem
from .loader import Document
from .paths import iter_operations
from .tree import escape, resolve_pointer

# Server-Sent Events; the extension saying what each event's `data` carries (JSON), for
# OpenAPI 3.0/3.1, which have no `itemSchema` (docs/generated-api.md, "Media types and streams").
EVENT_STREAM = "text/event-stream"
EVENT_SCHEMA = "x-contractgen-event-schema"
_FORMS = ("multipart/form-data", "application/x-www-form-urlencoded")


def media_base(media: str) -> str:
    """`media` without parameters, lower case: `Text/CSV; charset=utf-8` -> `text/csv`."""
    return media.split(";", maxsplit=1)[0].strip().lower()


def is_json(media: str) -> bool:
    base = media_base(media)
    return base == "application/json" or base.endswith("+json")


def _local(doc: Document, node: Any, pointer: str) -> tuple[Any, str]:
    """`node`, or what its local `$ref` names, with the pointer of what is returned."""
    for _ in range(20):
        ref = node.get("$ref") if isinstance(node, dict) else None
        if not isinstance(ref, str) or not ref.startswith("#"):
            break
        try:
            node, pointer = resolve_pointer(doc.data, ref), ref[1:]
        except (LookupError, ValueError):
            break
    return node, pointer


def generated_body_media(media_types: list[str]) -> str:
    """The one request body media type the generated code handles (as model/operations picks)."""
    return next((m for m in media_types if is_json(m)),
                next((m for m in _FORMS if m in media_types), media_types[0]))


def also_form(content: Mapping[str, Any]) -> str | None:
    """The form media type a request body also declares with its JSON media type's schema
    (OpenAI's uploads): read into the same model."""
    chosen = generated_body_media(list(content))
    if not is_json(chosen):
        return None
    schema = (content.get(chosen) or {}).get("schema")
    return next((m for m in _FORMS if m in content and schema is not None
                 and (content.get(m) or {}).get("schema") == schema), None)


def declares_events(data: Any) -> bool:
    """Some response of the contract is a `text/event-stream` (its client needs httpx-sse)."""
    for site in iter_operations(data):
        responses = site.operation.get("responses")
        for raw in responses.values() if isinstance(responses, dict) else ():
            content = raw.get("content") if isinstance(raw, dict) else None
            if isinstance(content, dict) and any(
                    media_base(str(media)) == EVENT_STREAM for media in content):
                return True
    return False


def media_problems(doc: Document) -> list[Problem]:
    """WARNINGs for request body media types left out and misplaced event schemas."""
    problems: list[Problem] = []
    seen: set[str] = set()
    for site in iter_operations(doc.data):
        body, where = _local(doc, site.operation.get("requestBody"), f"{site.pointer}/requestBody")
        content = body.get("content") if isinstance(body, dict) else None
        if isinstance(content, dict) and len(content) > 1 and where not in seen:
            seen.add(where)
            chosen = generated_body_media(list(content))
            for media in content:
                if media not in (chosen, also_form(content)):
                    problems.append(doc.problem(
                        Level.WARNING, f"{where}/content/{escape(media)}",
                        f"request body media type `{media}` is not generated: the server "
                        f"accepts and the client sends `{chosen}` only",
                        "drop it, or serve it with a route of your own beside the generated "
                        "ones"))
        responses = list(_contents(doc, site.operation.get("responses"), site.pointer))
        problems.extend(_mixed_with_events(doc, responses, seen))
        for status, at, entries in responses:
            error = not status.startswith("2") and isinstance(entries, dict) and any(
                is_json(str(m)) for m in entries)
            problems.extend(_binary_errors(doc, status, at, entries, seen))
            for media in entries if error and isinstance(entries, dict) else ():
                if not is_json(str(media)) and f"{at}/{media}" not in seen:
                    seen.add(f"{at}/{media}")
                    problems.append(doc.problem(
                        Level.WARNING, f"{at}/content/{escape(media)}",
                        f"error media type `{media}` is not generated: the server answers this "
                        "error and the client parses it in the response's JSON media type",
                        "declare the error in one JSON media type"))
            for media, entry in entries.items() if isinstance(entries, dict) else ():
                if isinstance(entry, dict) and EVENT_SCHEMA in entry and \
                        media_base(media) != EVENT_STREAM and f"{at}/{media}" not in seen:
                    seen.add(f"{at}/{media}")
                    problems.append(doc.problem(
                        Level.WARNING, f"{at}/content/{escape(media)}/{EVENT_SCHEMA}",
                        f"`{EVENT_SCHEMA}` is ignored on `{media}`: only `text/event-stream` "
                        "responses are streamed as events",
                        "move it to a `text/event-stream` media type, or drop it"))
    return problems


def _binary_errors(doc: Document, status: str, at: str, entries: Any, seen: set[str]
                   ) -> list[Problem]:
    """WARNINGs for error responses declared in neither JSON nor text: the server answers the
    errors it finds itself (validation, 401, 501...) as JSON."""
    if status.startswith("2") or not isinstance(entries, dict) or not entries or any(
            is_json(str(m)) or str(m).startswith("text/") for m in entries):
        return []
    media = str(next(iter(entries)))
    if f"{at}/{media}" in seen:
        return []
    seen.add(f"{at}/{media}")
    return [doc.problem(
        Level.WARNING, f"{at}/content/{escape(media)}",
        f"error media type `{media}` is not generated for the errors the server answers "
        "itself (validation, 401, 501...): they are answered as JSON; the client reads it as "
        "bytes", "declare the error in JSON or text/plain")]


def _contents(doc: Document, responses: Any, pointer: str) -> Iterator[tuple[str, str, Any]]:
    """Each response's status, its (local) pointer and its `content` (None when it has none)."""
    for status, raw in responses.items() if isinstance(responses, dict) else ():
        response, at = _local(doc, raw, f"{pointer}/responses/{escape(str(status))}")
        yield str(status), at, response.get("content") if isinstance(response, dict) else None


def _mixed_with_events(doc: Document, responses: list[tuple[str, str, Any]], seen: set[str]
                       ) -> list[Problem]:
    """WARNINGs for success media types beside `text/event-stream` other than JSON: the client
    reads the JSON (`<method>`) and the events (`<method>_events`), nothing else."""
    found = [(at, str(media)) for status, at, entries in responses
             if status.startswith("2") and isinstance(entries, dict) for media in entries]
    others = [(at, media) for at, media in found if media_base(media) != EVENT_STREAM]
    if len(others) == len(found) or all(is_json(media) for _, media in others):
        return []  # no events, or JSON or events: both generated
    problems = []
    for at, media in others:
        if f"{at}/{media}" not in seen:
            seen.add(f"{at}/{media}")
            problems.append(doc.problem(
                Level.WARNING, f"{at}/content/{escape(media)}",
                f"`{media}` is not read by the generated client: an operation that streams "
                "events is called for its events only (it is called for both when its other "
                "media types are all JSON)",
                "stream events from an operation of their own"))
    return problems


def event_data_schema(deref: Any, entry: dict[str, Any]) -> Any:
    """The schema of each event's data a `text/event-stream` declares without the extension:
    its `schema` when that is not a string's (OpenAI's chat completion chunk)."""
    schema = entry.get("schema")
    target = deref(schema) if isinstance(schema, dict) else {}
    if not target or target.get("type") == "string":
        return None
    typed = "type" in target or any(k in target for k in ("properties", "oneOf", "anyOf", "allOf"))
    return schema if typed else None
