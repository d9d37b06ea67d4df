"""Pagination of the generated client: `<method>_iter` yields items across pages, lazily.

Copied verbatim into every client that has a paged operation; each `<method>_iter` is written
out in client.py (its operation's parameters, `page_size` and `max_items`) and calls `_pages`. Each page's request is the
operation's own (same arguments), with the next page's position set; the next page is found,
first that applies: a next-page URL in the body (`next_page_uri`), an RFC 8288 `Link` header
with `rel="next"`, a cursor in the body (`next_marker`) sent back as a parameter (`marker`),
an offset advanced by the items received, a page number plus one, or (Discord's) `before`
the smallest item `id` of the page / `after` the largest (numeric ids compare as numbers;
`after` when the call gave `after` and no `before`). An empty page, a missing
cursor or URL, or a page shorter than the `limit` asked for ends the iteration.
`page_size=` sets the operation's limit parameter (ignored where it has none); `max_items=`
stops after that many items, fetching no further page.
"""

import dataclasses
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any
from urllib.parse import urljoin

import httpx

from ._client_runtime import _Request, _signature


@dataclasses.dataclass(frozen=True)
class Paging:
    """How an operation pages: response fields by wire name, request parameters by Python
    name; "" where it does not apply (`items` "" : the body is the array)."""

    items: str = ""
    next_url: str = ""  # a response field holding the next page's URL
    link: bool = False  # the response's `Link` header
    cursor: str = ""  # the request parameter taking the cursor...
    next_cursor: str = ""  # ...from this response field, dotted ("next_page.offset")
    offset: str = ""
    page: str = ""
    limit: str = ""
    before: str = ""  # the parameter taking the smallest item `id` of the page...
    after: str = ""  # ...or the largest
    item_id: str = "id"  # the items' field holding that id, dotted ("user.id")


def _field(body: Any, wire: str) -> Any:
    """A response model's field by its wire name (declared or extra), else None."""
    if isinstance(body, dict):
        return body.get(wire)
    for name, info in type(body).model_fields.items():
        if wire in (name, info.alias):
            return getattr(body, name)
    return (body.model_extra or {}).get(wire)


def _items(body: Any, paging: Paging) -> list[Any]:
    found = body if not paging.items else _field(body, paging.items)
    return list(found or ())


def _next(
    paging: Paging,
    body: Any,
    response: httpx.Response,
    kwargs: dict[str, Any],
    items: list[Any],
) -> dict[str, Any] | str | None:
    """The next page: new keyword arguments, a URL, or None at the end."""
    count = len(items)
    if not count:
        return None
    if paging.next_url:
        url = _field(body, paging.next_url)
        return urljoin(str(response.url), url) if url else None
    if paging.link:
        url = response.links.get("next", {}).get("url")
        return urljoin(str(response.url), url) if url else None
    cursor = _dotted(body, paging.next_cursor) if paging.next_cursor else None
    if cursor not in (None, ""):
        return {**kwargs, paging.cursor: cursor}
    limit = kwargs.get(paging.limit) if paging.limit else None
    if limit is not None and count < limit:
        return None
    if paging.before or paging.after:
        return _beyond(paging, kwargs, items)
    if paging.offset:
        return {**kwargs, paging.offset: (kwargs.get(paging.offset) or 0) + count}
    if paging.page:
        return {**kwargs, paging.page: (kwargs.get(paging.page) or 1) + 1}
    return None


def _dotted(item: Any, path: str) -> Any:
    """An item's field by its dotted wire path ("user.id"), else None."""
    for wire in path.split("."):
        if not isinstance(item, dict) and not hasattr(type(item), "model_fields"):
            return None
        item = _field(item, wire)
    return item


def _id_order(value: Any) -> tuple[int, int, str]:
    """Snowflakes (numeric strings) compare as numbers, other ids as text, after them."""
    text = str(value)
    return (0, int(text), "") if text.isdigit() else (1, 0, text)


def _beyond(
    paging: Paging, kwargs: dict[str, Any], items: list[Any]
) -> dict[str, Any] | None:
    """Discord's: `before` the smallest id seen, or `after` the largest; None when the
    items carry no id or the position would not move."""
    found = (_dotted(item, paging.item_id) for item in items)
    ids = [i for i in found if i not in (None, "")]
    forward = not paging.before or (
        bool(paging.after)
        and kwargs.get(paging.after) is not None
        and kwargs.get(paging.before) is None
    )
    key = paging.after if forward else paging.before
    if not ids:
        return None
    edge = (max if forward else min)(ids, key=_id_order)
    if kwargs.get(key) is not None and str(kwargs[key]) == str(edge):
        return None
    return {**kwargs, key: edge}


def _bounds(
    build: Callable[..., _Request], paging: Paging, kwargs: dict[str, Any]
) -> tuple[int | None, dict[str, Any]]:
    """`max_items` (None: all), and the operation's keyword arguments with `page_size` set
    as its limit; either is the operation's own parameter where it has one so named."""
    own = _signature(build).parameters
    current = dict(kwargs)
    left = None if "max_items" in own else current.pop("max_items", None)
    if left is not None and (not isinstance(left, int) or left < 0):
        raise ValueError(f"max_items must be a whole number >= 0, not {left!r}")
    size = None if "page_size" in own else current.pop("page_size", None)
    if size is not None and paging.limit:
        current[paging.limit] = size
    return left, current


def _following(
    build: Callable[..., _Request], request: _Request, found: dict[str, Any] | str
) -> tuple[_Request, dict[str, Any] | None]:
    """The next page's request, and its keyword arguments (None: a URL given whole)."""
    if isinstance(found, str):
        return request._replace(url=found, params=None), None
    return build(**found), found


class _Walk:
    """Where an iteration over pages stands: the next request (None: done), its keyword
    arguments (None: a URL given whole) and how many items are left to yield (None: all).
    """

    def __init__(
        self,
        build: Callable[..., _Request],
        parse: Callable[[httpx.Response], Any],
        paging: Paging,
        kwargs: dict[str, Any],
    ) -> None:
        self.build, self.parse, self.paging = build, parse, paging
        self.left, first = _bounds(build, paging, kwargs)
        self.current: dict[str, Any] | None = first
        self.request: _Request | None = build(**first) if self.left != 0 else None

    def page(self, request: _Request, response: httpx.Response) -> list[Any]:
        """The items of `response` to yield; sets the next page's request."""
        body = self.parse(response)
        items = _items(body, self.paging)[: self.left]
        self.left = None if self.left is None else self.left - len(items)
        found = _next(self.paging, body, response, self.current or {}, items)
        self.request = None
        if found is not None and self.left != 0:
            self.request, self.current = _following(self.build, request, found)
        return items


def _pages(
    send: Callable[[_Request], httpx.Response],
    build: Callable[..., _Request],
    parse: Callable[[httpx.Response], Any],
    paging: Paging,
    kwargs: dict[str, Any],
) -> Iterator[Any]:
    """The items of the pages `build(**kwargs)` starts (`page_size`, `max_items` among them)."""
    walk = _Walk(build, parse, paging, kwargs)
    while walk.request is not None:
        yield from walk.page(walk.request, send(walk.request))


async def _apages(
    send: Callable[[_Request], Awaitable[httpx.Response]],
    build: Callable[..., _Request],
    parse: Callable[[httpx.Response], Any],
    paging: Paging,
    kwargs: dict[str, Any],
) -> AsyncIterator[Any]:
    """`_pages` of an async client."""
    walk = _Walk(build, parse, paging, kwargs)
    while walk.request is not None:
        for item in walk.page(walk.request, await send(walk.request)):
            yield item
