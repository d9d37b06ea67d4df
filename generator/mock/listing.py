"""A collection's list: its stored items, filtered by plain equality, through the contract's own
pagination (`model.paging`: a cursor, an offset, a page, a next-page URL or a `Link` header)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple
from urllib.parse import urlencode

from ..model.paging import paging_of
from ..model.paging_shape import Paging
from .answers import Answer, Call, overlaid

_PAGE_SIZE = 20


class _Type(NamedTuple):
    """A parameter's type as `paging_of` reads it: a string (a token) or another."""

    kind: str
    name: str


class _Param(NamedTuple):
    """A query parameter as `paging_of` reads one (its Python name is its wire name here)."""

    wire: str
    name: str
    location: str
    type: _Type


def _type(param: Mapping[str, Any]) -> _Type:
    schema = param.get("schema")
    is_text = isinstance(schema, Mapping) and schema.get("type") == "string"
    return _Type("builtin", "str" if is_text else "")


def paging(spec: Mapping[str, Any], call: Call) -> Paging | None:
    params = [_Param(str(p.get("name")), str(p.get("name")), str(p.get("in")), _type(p))
              for p in call.op.params]
    return paging_of(spec, call.op.raw, "get", params, pointer=call.op.pointer,  # type: ignore[arg-type]
                     warn=lambda message, where: None)


def _number(text: str | None, default: int) -> int:
    return int(text) if text is not None and text.lstrip("-").isdigit() else default


def _param_schema(call: Call, name: str) -> Mapping[str, Any]:
    found = next((p for p in call.op.params if p.get("name") == name and p.get("in") == "query"),
                 {})
    schema = found.get("schema")
    return schema if isinstance(schema, Mapping) else {}


def _window(call: Call, shape: Paging | None, total: int) -> tuple[int, int, dict[str, str]]:
    """(start, size) of the page asked for, and the query asking for the next one."""
    if shape is None:
        return 0, total, {}
    limit_default = _param_schema(call, shape.limit).get("default", _PAGE_SIZE) \
        if shape.limit else _PAGE_SIZE
    size = max(1, _number(call.first(shape.limit), int(limit_default))) if shape.limit \
        else _PAGE_SIZE
    start, after = 0, {}
    # the parameter the request pages by, where the contract declares both (Box's /users:
    # `marker` and `offset`; a client at the cursors' end goes on by offset)
    by_offset = bool(shape.offset) and call.first(shape.offset) is not None \
        and call.first(shape.cursor) is None if shape.cursor else False
    if shape.cursor and not by_offset:
        start = _number(call.first(shape.cursor), 0)
        after = {shape.cursor: str(start + size)}
    elif shape.offset:
        start = _number(call.first(shape.offset), 0)
        after = {shape.offset: str(start + size)}
    elif shape.page:
        first = int(_param_schema(call, shape.page).get("minimum", 1))
        number = _number(call.first(shape.page), first)
        start = (number - first) * size
        after = {shape.page: str(number + 1)}
    return max(0, start), size, after


def _matches(item: Any, call: Call, skip: set[str]) -> bool:
    for name, values in call.query.items():
        if name in skip or name.startswith("__") or not isinstance(item, dict) \
                or name not in item or isinstance(item[name], dict | list):
            continue
        have = item[name]
        text = ("true" if have else "false") if isinstance(have, bool) else str(have)
        if text not in values:
            return False
    return True


def listed(store: Any, call: Call) -> Answer:
    """The list at `call`'s path (`store` is the `state.Store`)."""
    responder = store.responder
    shape = paging(responder.spec, call)
    skip = {p for p in (shape.cursor, shape.offset, shape.page, shape.limit)
            if p} if shape else set()
    items = [i for i in store.items.get(call.path, {}).values() if _matches(i, call, skip)]
    start, size, after = _window(call, shape, len(items))
    page, more = items[start:start + size], start + size < len(items)
    query = {k: v[-1] for k, v in call.query.items()}
    base = call.headers.get("host", "127.0.0.1")
    next_url = f"http://{base}{call.path}?{urlencode({**query, **after})}"
    status = responder.success(call.op)
    pointer = responder.schema_pointer(call.op, status)
    answer_headers: dict[str, str] = {}
    if shape is not None and shape.link and more:
        answer_headers["Link"] = f'<{next_url}>; rel="next"'
    if shape is None or not shape.items:
        body: Any = page
        if shape is None and pointer is not None:
            field = _array_field(responder, pointer)
            if field:
                body = _envelope(store, call, pointer, {field: page})
    else:
        fields: dict[str, Any] = {shape.items: page}
        if shape.next_cursor:
            fields[shape.next_cursor] = next(iter(after.values())) if more else None
        if shape.next_url:
            fields[shape.next_url] = next_url if more else None
        body = _envelope(store, call, pointer, fields)
    answer: Answer = responder.answer(call, status, value=body)
    answer.headers.update(answer_headers)
    return answer


def _array_field(responder: Any, pointer: str) -> str | None:
    props = responder.properties(pointer)
    arrays = [n for n, p in props.items() if responder.faker.merged(p).get("type") == "array"]
    return arrays[0] if len(arrays) == 1 else None


def _envelope(store: Any, call: Call, pointer: str | None, fields: dict[str, Any]) -> Any:
    """The list's object made up around `fields` (a `None` field left out when it may be)."""
    def fix(made: Any) -> Any:
        if not isinstance(made, dict):
            return made
        out = {**made, **fields}
        for name, value in fields.items():
            if value is None:
                out.pop(name, None)
        for name in ("total", "total_count", "totalCount", "count"):
            if isinstance(out.get(name), int) and not isinstance(out.get(name), bool):
                out[name] = len(store.items.get(call.path, {}))
        return out

    if pointer is None:
        return fix({})
    made = store.responder.made_up(None, pointer, f"list|{call.key}", fix, pointer_schema=True)
    if not store.responder.judge.valid(pointer, made):  # a next field that must be there
        made = store.responder.made_up(None, pointer, f"list|{call.key}",
                                       lambda m: overlaid(m, {k: v for k, v in fields.items()
                                                              if v is not None}),
                                       pointer_schema=True)
    return made
