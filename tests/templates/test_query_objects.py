"""Object and array-of-object query parameters (Box `mdfilters`, OpenAI `metadata`): the app
builds, and the server reads them in the style the contract declares, over HTTP."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from gen_support import Generated, generate_package, openapi, serve

_FILTER = {
    "type": "object",
    "required": ["scope"],
    "properties": {"scope": {"type": "string", "enum": ["global", "enterprise"]},
                   "templateKey": {"type": "string"}},
}

SPEC = openapi(
    {
        "/search": {"get": {
            "operationId": "search",
            "parameters": [
                {"name": "mdfilters", "in": "query",
                 "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Filter"},
                            "maxItems": 1}},
                {"name": "q", "in": "query", "schema": {"type": "string"}},
            ],
            "responses": {"200": {"description": "what the server read", "content": {
                "application/json": {"schema": {"type": "object",
                                                "additionalProperties": True}}}}},
        }},
        "/inline": {"get": {
            "operationId": "inline",
            "parameters": [
                {"name": "point", "in": "query", "required": True,
                 "schema": {"type": "object", "required": ["x"],
                            "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}}}},
            ],
            "responses": {"200": {"description": "what the server read", "content": {
                "application/json": {"schema": {"type": "object",
                                                "additionalProperties": True}}}}},
        }},
        "/metadata": {"get": {
            "operationId": "metadata",
            "parameters": [
                {"name": "limit", "in": "query", "schema": {"type": "integer"}},
                {"name": "metadata", "in": "query", "style": "deepObject", "explode": True,
                 "schema": {"type": "object", "additionalProperties": {"type": "string"}}},
                {"name": "labels", "in": "query",
                 "schema": {"type": "object", "additionalProperties": {"type": "string"}}},
            ],
            "responses": {"200": {"description": "what the server read", "content": {
                "application/json": {"schema": {"type": "object",
                                                "additionalProperties": True}}}}},
        }},
        "/lines": {"get": {
            "operationId": "lines",
            "parameters": [
                {"name": "lines", "in": "query", "style": "deepObject", "explode": True,
                 "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Filter"}}},
            ],
            "responses": {"200": {"description": "what the server read", "content": {
                "application/json": {"schema": {"type": "object",
                                                "additionalProperties": True}}}}},
        }},
    },
    {"Filter": _FILTER},
)


def _dump(value: Any) -> Any:
    if isinstance(value, list):
        return [_dump(v) for v in value]
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json", exclude_unset=True)
    return value


@pytest.fixture(scope="module")
def queried(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(SPEC, tmp_path_factory.mktemp("query"))


@pytest.fixture(scope="module")
def url(queried: Generated) -> Any:
    class Service(queried.server.ServiceBase):  # type: ignore[name-defined,misc]
        async def search(self, **kwargs: Any) -> Any:
            return {k: _dump(v) for k, v in kwargs.items()}

        async def inline(self, **kwargs: Any) -> Any:
            return {k: _dump(v) for k, v in kwargs.items()}

        async def metadata(self, **kwargs: Any) -> Any:
            return {k: _dump(v) for k, v in kwargs.items()}

        async def lines(self, **kwargs: Any) -> Any:
            return {k: _dump(v) for k, v in kwargs.items()}

    app = queried.server.create_app(Service())
    with serve(app) as base:
        yield base


def test_app_routes_every_operation(queried: Generated) -> None:
    app = queried.server.create_app(queried.server.ServiceBase())
    names = {getattr(r, "name", None) for r in app.routes}
    assert {"search", "inline", "metadata"} <= names


def test_array_of_objects_is_read_as_json(url: str) -> None:
    filters = [{"scope": "enterprise", "templateKey": "contract"}]
    answer = httpx.get(f"{url}/search", params={"mdfilters": json.dumps(filters), "q": "x"})
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"mdfilters": filters, "q": "x"}
    bad = httpx.get(f"{url}/search", params={"mdfilters": json.dumps([{"scope": "nowhere"}])})
    assert bad.status_code == 422
    assert httpx.get(f"{url}/search", params={"mdfilters": "not json"}).status_code == 422


def test_inline_object_is_form_exploded(url: str) -> None:
    answer = httpx.get(f"{url}/inline", params={"x": "1", "y": "2"})
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"point": {"x": 1, "y": 2}}
    assert httpx.get(f"{url}/inline", params={"x": "one"}).status_code == 422
    assert httpx.get(f"{url}/inline", params={"y": "2"}).status_code == 422


def test_free_form_objects_deep_and_exploded(url: str) -> None:
    answer = httpx.get(f"{url}/metadata?limit=3&metadata[team]=a&metadata[env]=b&colour=red")
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"limit": 3, "metadata": {"team": "a", "env": "b"},
                             "labels": {"colour": "red"}}


def test_client_sends_what_the_server_reads(queried: Generated, url: str) -> None:
    models = queried.models
    with queried.client.Client(url) as client:
        read = client.search(mdfilters=[models.Filter(scope="global")])
        assert read == {"mdfilters": [{"scope": "global"}], "q": None}
        point = client.inline(point=models.InlinePoint(x=1))
        assert point == {"point": {"x": 1}}
        meta = client.metadata(metadata={"a": "b"}, labels={"c": "d"})
        assert meta == {"limit": None, "metadata": {"a": "b"}, "labels": {"c": "d"}}


def test_array_of_objects_in_deep_object_style_goes_by_index(queried: Generated,
                                                             url: str) -> None:
    """A list of objects declared `style: deepObject` (Stripe's `lines`) is written by index,
    as Stripe's encoder writes it, not as JSON; the server reads it back."""
    sent: list[str] = []

    class Recording(httpx.HTTPTransport):
        def handle_request(self, request: httpx.Request) -> httpx.Response:
            sent.append(request.url.query.decode())
            return super().handle_request(request)

    with queried.client.Client(url, transport=Recording()) as client:
        read = client.lines(lines=[queried.models.Filter(scope="global", templateKey="k"),
                                   queried.models.Filter(scope="enterprise")])
    assert read == {"lines": [{"scope": "global", "templateKey": "k"}, {"scope": "enterprise"}]}
    assert sent == ["lines%5B0%5D%5Bscope%5D=global&lines%5B0%5D%5BtemplateKey%5D=k"
                    "&lines%5B1%5D%5Bscope%5D=enterprise"]
    answer = httpx.get(f"{url}/lines?lines[0][scope]=nowhere")
    assert answer.status_code == 422
