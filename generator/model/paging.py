"""Which operations page, and how: the `x-pagination` extension, else the contract's shapes.

A GET whose 200 JSON answer is an array, or an object with an array of items, pages when the
contract shows how to ask for the next page: a next-page URL field (`next_page_uri`), a `Link`
response header (RFC 8288), a cursor field with its request parameter (`next_marker` and
`marker`; or inside a next-page object, Asana's `next_page.offset` sent back as `offset`), an
`offset` or a `page` parameter, or (Discord's) a `before`/`after` parameter taking
the smallest/largest `id` of the page's items. One that looks paged (it takes a page size) but
shows none of these, or has several arrays, is warned about, located.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .ir import AliasDef, Definition, ModelDef, Operation, Parameter
from .paging_shape import Paging
from .schema_facts import deref
from .typeref import TypeRef

_ITEMS = ("entries", "items", "data", "results", "records", "values")
_NEXT_URLS = ("next_page_uri", "next_page_url", "next_url", "next_link", "nextLink")
_CURSORS = {"next_marker": ("marker",), "next_cursor": ("cursor",),
            "next_page_token": ("page_token", "pageToken"), "nextPageToken": ("pageToken",),
            "next_token": ("next_token", "token"), "cursor": ("cursor",)}
_OFFSETS = ("offset", "start", "skip")
_PAGES = ("page", "Page", "page_number")
_LIMITS = ("limit", "per_page", "page_size", "pageSize", "PageSize", "max_results")
EXTENSION = "x-pagination"
_KEYS = {"items", "next_url", "link", "cursor", "next_cursor", "offset", "page", "limit",
         "before", "after", "item_id"}
_REQUEST_KEYS = ("cursor", "offset", "page", "limit", "before", "after")

Warn = Callable[[str, str], None]


def paging_of(document: Any, raw: Mapping[str, Any], method: str, params: Iterable[Parameter],
              *, pointer: str, warn: Warn) -> Paging | None:
    """How the operation `raw` pages, or None."""
    params = [p for p in params if p.location == "query"]
    query = {p.wire: p.name for p in params}
    # An offset typed as a string is a token the answer hands out (Asana's), never a count.
    tokens = frozenset(p.wire for p in params if p.type.kind == "builtin" and p.type.name == "str")
    declared = raw.get(EXTENSION)
    if declared is False:
        return None
    if declared is not None:
        return _declared(declared, query, f"{pointer}/{EXTENSION}", warn)
    if method != "get":
        return None
    schema, headers = _success(document, raw)
    if schema is None:
        return None
    props = _properties(document, schema)
    arrays = sorted(name for name, p in props.items() if _is_array(deref(document, p)))
    if _is_array(deref(document, schema)):
        items = ""
    elif len(arrays) == 1 or any(a in _ITEMS for a in arrays):
        items = arrays[0] if len(arrays) == 1 else next(a for a in _ITEMS if a in arrays)
    else:
        if arrays and _first(_LIMITS, query):
            warn(f"looks paged (it takes `{_first(_LIMITS, query)}`) but its answer has several "
                 f"arrays ({', '.join(arrays)}): say which holds the items with `{EXTENSION}`",
                 pointer)
        return None
    array = deref(document, props[items] if items else schema)
    ided = "id" in _properties(document, array.get("items") or {})
    found = _detected(items, props, headers, query, ided=ided,
                      nested=_nested_cursor(document, props, query), tokens=tokens)
    if found is None and _first(_LIMITS, query):
        warn(f"looks paged (it takes `{_first(_LIMITS, query)}`) but shows no way to the next page "
             "(a next-page URL, a Link header, a cursor, an offset or a page parameter, `before` "
             f"or `after` with items carrying an `id`): say it with `{EXTENSION}`", pointer)
    return found


def _nested_cursor(document: Any, props: Mapping[str, Any], query: Mapping[str, str]
                   ) -> tuple[str, str]:
    """A position inside a next-page object, sent back as the query parameter of its name
    (Asana's `next_page: {offset, path, uri}` and `?offset=`: an opaque token, not a count):
    the parameter's wire name and the field's dotted path, else ("", "")."""
    for name in sorted(props):
        if "next" not in name.lower():
            continue
        inner = _properties(document, props[name])
        field = next((f for f in sorted(inner) if f in query), None)
        if field is not None:
            return field, f"{name}.{field}"
    return "", ""


def _detected(items: str, props: Mapping[str, Any], headers: Iterable[str],
              query: Mapping[str, str], *, ided: bool, nested: tuple[str, str],
              tokens: frozenset[str]) -> Paging | None:
    next_url = _first(_NEXT_URLS, props) or ""
    link = any(h.lower() == "link" for h in headers)
    cursor = next_cursor = ""
    for field, names in _CURSORS.items():
        param = _first(names, query)
        if field in props and param:
            cursor, next_cursor = query[param], field
            break
    if not cursor and nested[0]:
        cursor, next_cursor = query[nested[0]], nested[1]
    offset, page = _first(_OFFSETS, query), _first(_PAGES, query)
    offset = None if offset in tokens else offset
    if cursor:  # a parameter that takes the cursor counts nothing
        offset = None if offset and query[offset] == cursor else offset
        page = None if page and query[page] == cursor else page
    before, after = (query.get(k, "") if ided else "" for k in ("before", "after"))
    if not (next_url or link or cursor or offset or page or before or after):
        return None
    limit = _first(_LIMITS, query)
    return Paging(items, next_url, link, cursor, next_cursor, query[offset] if offset else "",
                  query[page] if page else "", query[limit] if limit else "", before, after)


def _declared(declared: Any, query: Mapping[str, str], pointer: str, warn: Warn) -> Paging | None:
    if not isinstance(declared, dict) or set(declared) - _KEYS:
        warn(f"`{EXTENSION}` must be false or an object of {', '.join(sorted(_KEYS))}; ignored",
             pointer)
        return None
    values = dict(declared)
    for key in _REQUEST_KEYS:
        if key in values:
            if values[key] not in query:
                warn(f"`{EXTENSION}` names `{values[key]}`, not a query parameter of the "
                     "operation; ignored", pointer)
                return None
            values[key] = query[values[key]]
    return Paging(**{k: v for k, v in values.items() if v is not None})


def _success(document: Any, raw: Mapping[str, Any]) -> tuple[Any, list[str]]:
    responses = raw.get("responses") or {}
    response = deref(document, responses.get("200") or responses.get(200) or {})
    content = response.get("content") or {}
    media = next((m for m in content if "json" in m), None)
    schema = deref(document, content[media]).get("schema") if media else None
    return schema, list(response.get("headers") or {})


def _properties(document: Any, schema: Any) -> dict[str, Any]:
    """Properties of a schema, through `allOf`."""
    schema = deref(document, schema)
    found = dict(schema.get("properties") or {})
    for part in schema.get("allOf") or ():
        found.update(_properties(document, part))
    return found


def _is_array(schema: Mapping[str, Any]) -> bool:
    kind = schema.get("type")
    return kind == "array" or (isinstance(kind, list) and "array" in kind)


def _first(names: Iterable[str], present: Mapping[str, Any]) -> str | None:
    return next((n for n in names if n in present), None)


def typed_items(definitions: Sequence[Definition], operations: Iterable[Operation]
                ) -> list[Operation]:
    """The operations, each paged one's `Paging.item` set to its items' type where the 200
    answer shows it (a list, or a model's list field `items`; through aliases)."""
    by_name = {d.name: d for d in definitions}
    found = []
    for op in operations:
        answer = next((r for r in op.success if r.status_code == 200 and r.kind == "json"), None)
        if op.paging is None or answer is None or answer.type is None:
            found.append(op)
            continue
        listed = _field_type(answer.type, op.paging.items, by_name) if op.paging.items \
            else answer.type
        item = _unaliased(listed, by_name) if listed is not None else None
        item = item.args[0] if item is not None and item.kind == "list" else None
        found.append(dataclasses.replace(op, paging=dataclasses.replace(op.paging, item=item)))
    return found


def _unaliased(ref: TypeRef, by_name: Mapping[str, Definition]) -> TypeRef:
    seen: set[str] = set()
    while ref.kind == "model" and ref.name not in seen:
        alias = by_name.get(ref.name)
        if not isinstance(alias, AliasDef):
            break
        seen.add(ref.name)
        ref = alias.type
    return ref


def _field_type(ref: TypeRef, wire: str, by_name: Mapping[str, Definition]) -> TypeRef | None:
    model = by_name.get(_unaliased(ref, by_name).name)
    if not isinstance(model, ModelDef):
        return None
    return next((f.type for f in model.fields if f.wire == wire), None)
