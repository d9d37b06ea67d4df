"""What client.py imports: from its verbatim runtime (`_client_runtime`), only what it uses."""

from __future__ import annotations

from ..model.ir import Api, Operation
from .client_source import parsed_directly
from .imports import ImportSet

RUNTIME = "._client_runtime"
RETRY = "._client_retry"


def _written_out(op: Operation) -> bool:
    """Its methods are written out (not made by `_call`...): it streams events, is deprecated
    or negotiates the media type."""
    return op.streams_events or op.deprecated or op.negotiates


def _always(imports: ImportSet) -> None:
    """What every client.py imports."""
    # Annotations stay strings, so that importing the client builds no model (issue 28).
    imports.name("__future__", "annotations")
    imports.name(RUNTIME, "Answer", "Scheme", "_Request", "_authorize", "_credentials")
    imports.name(".", "errors")  # re-exported: `client.errors`
    imports.name(RUNTIME, "REQUEST_ID_HEADERS")
    imports.name("._enums", "UnknownMember", "is_unknown")
    imports.name(RETRY, "NO_RETRY", "Options", "Retry", "_Configurable", "_asend", "_options",
                 "_send")
    imports.name("collections.abc", "Mapping", "Sequence")
    imports.module("httpx")
    imports.name("types", "TracebackType")
    imports.name("typing", "IO", "Self", "TypeAlias", "TypedDict")


def client_runtime_imports(api: Api, imports: ImportSet) -> None:
    """Adds the names client.py takes from the runtime and the standard modules it uses."""
    ops = api.operations
    _always(imports)
    if ops:
        imports.name(RUNTIME, "_error")
    if any(op.paging and not _written_out(op) for op in ops):
        imports.name("._client_pages", "Paging", "_apages", "_pages")
        imports.name(RUNTIME, "_arguments")
        imports.name("collections.abc", "AsyncIterator", "Iterator")
    if any(op.paging and op.paging.item is None and not _written_out(op) for op in ops):
        imports.name("typing", "Any")  # `Iterator[Any]`: items of a type not shown
    if any(not _written_out(op) for op in ops):
        imports.name(RUNTIME, "_acall", "_acall_detailed", "_call", "_call_detailed")
    if any(_written_out(op) or op.streams_bytes or op.also_events for op in ops):
        imports.name(RUNTIME, "_arguments")
    if any(_written_out(op) and op.headers_class for op in ops):
        imports.name(RUNTIME, "_headers")
    if any(op.streams_events or op.streams_bytes or op.also_events for op in ops):
        imports.module("functools")
    if any(op.negotiates for op in ops):
        imports.module("typing")
    if any(op.headers_class for op in ops):
        imports.module("dataclasses")
    params = [p for op in ops for p in op.query_params]
    fields = [f for op in ops if op.body and op.body.is_form for f in op.body.form_fields]
    if params or any(not (f.is_file or f.is_file_list or f.json) for f in fields):
        imports.name(RUNTIME, "_queries")
    forms = [op.body for op in ops if op.body and op.body.is_form]
    if any(body.kind == "multipart" or all(f.is_file or f.is_file_list or f.json
                                           for f in body.form_fields) for body in forms):
        imports.name("typing", "Any")  # `_files: list[tuple[str, Any]]`, `_data: dict[str, Any]`
    if any(op.header_params or op.negotiates or op.streams_events for op in ops):
        imports.name(RUNTIME, "_texts")
    if any(op.cookie_params for op in ops):
        imports.name(RUNTIME, "_cookie")
    if any(op.path_params for op in ops):
        imports.name(RUNTIME, "_path")
    if any(op.body and op.body.kind == "json" and not op.body.also_form for op in ops) or any(
            f.json for f in fields):
        imports.name(RUNTIME, "_dump")
    parsed = [r for op in ops if not op.streams_events for r in op.success]
    if any(r.kind == "json" and len(r.representations) <= 1 for r in parsed):
        imports.name(RUNTIME, "_json")
    direct = parsed_directly(api)
    if any((r.kind == "json" and not direct(r)) or len(r.representations) > 1 for r in parsed):
        imports.name("typing", "cast")
    if any(len(r.representations) > 1 and r.kind != "json" for r in parsed):
        imports.name("typing", "Any")
