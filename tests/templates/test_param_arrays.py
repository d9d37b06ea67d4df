"""Arrays and objects in path, header and cookie parameters go on the wire in `simple` style
(`1,a`; an object `x,1,y,a`, exploded `x=1,y=a`; a cookie in `form` style unexploded:
`ids=1,a`) and reach the service as lists of what their items spell, and as models (found by
reproductions for the judge of the wire, issue 37): the client sent Python's text of the value
(`[1, 'a']`, `{"x": 1}`), a path list or object failed its route at the first request (a 500),
and the server read a header's or a cookie's value as one string, or an object as fields of its
own. Driven through the generated client and server over loopback HTTP, each request judged by
openapi-core.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from gen_support import Generated, generate_package, openapi, serve
from test_wire_constructs import Recorder, judged

_ITEM = {"oneOf": [{"type": "integer"}, {"type": "string", "pattern": "^[a-z]+$"}]}
_MIXED = {"type": "array", "items": _ITEM}
_INTS = {"type": "array", "items": {"type": "integer"}}
_POINT = {"$ref": "#/components/schemas/Point"}
_OK = {"200": {"description": "what the service read", "content": {"application/json": {
    "schema": {"type": "object", "additionalProperties": True}}}}}

SPEC = openapi({
    "/by-path/{ids}": {"get": {"operationId": "byPath", "parameters": [
        {"name": "ids", "in": "path", "required": True, "schema": _MIXED}], "responses": _OK}},
    "/by-header": {"get": {"operationId": "byHeader", "parameters": [
        {"name": "X-Ids", "in": "header", "required": True, "schema": _MIXED},
        {"name": "X-Counts", "in": "header", "schema": _INTS}], "responses": _OK}},
    "/by-cookie": {"get": {"operationId": "byCookie", "parameters": [
        {"name": "ids", "in": "cookie", "required": True, "explode": False, "schema": _MIXED}],
        "responses": _OK}},
    "/points/{point}/{spread}": {"get": {"operationId": "byPoint", "parameters": [
        {"name": "point", "in": "path", "required": True, "schema": _POINT},
        {"name": "spread", "in": "path", "required": True, "explode": True, "schema": _POINT},
        {"name": "X-Point", "in": "header", "explode": True, "schema": _POINT},
        {"name": "at", "in": "cookie", "explode": False, "schema": _POINT}], "responses": _OK}},
}, {"Point": {"type": "object", "required": ["x", "y"], "properties": {
    "x": {"type": "integer"}, "y": {"type": "string"}}}}, version="3.0.3")


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(SPEC, tmp_path_factory.mktemp("param_arrays"))


@pytest.fixture(scope="module")
def url(pkg: Generated) -> Iterator[str]:
    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def by_path(self, ids: Any) -> Any:
            return {"ids": ids}

        async def by_header(self, x_ids: Any, x_counts: Any = None) -> Any:
            return {"ids": x_ids, "counts": x_counts}

        async def by_cookie(self, ids: Any) -> Any:
            return {"ids": ids}

        async def by_point(self, point: Any, spread: Any, x_point: Any = None,
                           at: Any = None) -> Any:
            return {name: None if value is None else value.model_dump() for name, value in
                    {"point": point, "spread": spread, "header": x_point, "at": at}.items()}

    with serve(pkg.server.create_app(Service())) as served:
        yield served


def test_each_array_travels_as_its_style_writes_it(pkg: Generated, url: str) -> None:
    recorder = Recorder()
    with pkg.client.Client(url, transport=recorder) as client:
        assert client.by_path([1, "a", 22]) == {"ids": [1, "a", 22]}
        assert client.by_header(x_ids=[1, "a"], x_counts=[3, 4]) == {"ids": [1, "a"], "counts": [3, 4]}
        assert client.by_header(x_ids=["b"]) == {"ids": ["b"], "counts": None}
        assert client.by_cookie(ids=[7, "z"]) == {"ids": [7, "z"]}
    path, header, _, cookie = recorder.sent
    assert path.url.raw_path == b"/by-path/1,a,22"
    assert header.headers["x-ids"] == "1,a" and header.headers["x-counts"] == "3,4"
    assert cookie.headers["cookie"] == "ids=7,z"
    for request in (path, header):  # `judged` gives openapi-core no cookies (the judge of
        assert judged(SPEC, request) == []  # the wire does: tests/e2e/judge_wire.py)


def test_the_server_reads_lists_as_http_writes_them(url: str) -> None:
    """By hand: a header repeated is its values joined, `a, b` has optional spaces (RFC 9110's
    list syntax), and an item that is neither member is the declared 422 naming it."""
    repeated = httpx.get(f"{url}/by-header", headers=[("X-Ids", "1"), ("X-Ids", "b, 2")])
    assert repeated.status_code == 200 and repeated.json()["ids"] == [1, "b", 2]
    wrong = httpx.get(f"{url}/by-path/1,B")
    assert wrong.status_code == 422
    assert wrong.json()["detail"][0]["loc"][:3] == ["path", "ids", "1"]
    empty_counts = httpx.get(f"{url}/by-header", headers={"X-Ids": "a", "X-Counts": "x"})
    assert empty_counts.status_code == 422


def test_each_object_travels_as_its_style_writes_it(pkg: Generated, url: str) -> None:
    recorder = Recorder()
    point = pkg.models.Point(x=1, y="a b")
    with pkg.client.Client(url, transport=recorder) as client:
        answer = client.by_point(point, pkg.models.Point(x=2, y="c"), x_point=point, at=point)
    assert answer == {"point": {"x": 1, "y": "a b"}, "spread": {"x": 2, "y": "c"},
                      "header": {"x": 1, "y": "a b"}, "at": {"x": 1, "y": "a b"}}
    [sent] = recorder.sent
    assert sent.url.raw_path == b"/points/x,1,y,a%20b/x=2,y=c"
    assert sent.headers["x-point"] == "x=1,y=a b"
    assert sent.headers["cookie"] == "at=x,1,y,a%20b"
    assert judged(SPEC, sent) == []
