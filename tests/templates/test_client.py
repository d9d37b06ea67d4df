"""The generated httpx clients: against the generated server over HTTP, and in-process."""

from __future__ import annotations

import asyncio
import io
import json
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from gen_support import Generated, openapi, serve

TOKEN = "tok-123"
RELEASE_SLOW = threading.Event()


@pytest.fixture(scope="module")
def base_url(features: Generated) -> Iterator[str]:
    models, errors = features.models, features.errors

    class Service(features.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def create_item(self, body: Any) -> Any:
            return models.Item(name=body.name.upper(), **body.model_dump(include={"count"}))

        async def get_item(self, item_id: str, *, verbose: bool | None = None,
                           x_trace_id: str | None = None) -> Any:
            if item_id == "missing":
                raise errors.GetItemNotFound(models.Error(code="NOPE", message="gone"))
            if item_id == "busy":
                raise errors.GetItemServiceUnavailable(
                    models.Error(code="BUSY", message="later"), headers={"Retry-After": "3"})
            if item_id == "teapot":
                raise errors.ApiError({"tea": True}, status_code=418)
            return models.Item(name=f"{item_id}:{verbose}:{x_trace_id}", count=1)

        async def upload(self, body: Any) -> Any:
            content = await body.file.read()
            given = {k: v for k, v in (("path", body.path), ("count", body.count)) if v is not None}
            return models.UploadResponse(name=body.file.filename, size=len(content), **given)

        async def get_blob(self, *, size: int) -> bytes:
            return bytes(range(256)) * (size // 256)

        async def options_items(self) -> None:
            return None

        async def search(self, **kwargs: Any) -> Any:
            return {k: v.model_dump(mode="json") if hasattr(v, "model_dump") else v
                    for k, v in kwargs.items()}

        async def slow(self) -> str:
            await asyncio.to_thread(RELEASE_SLOW.wait)  # answers only after the client gave up
            return "late"

    def verify(token: str | None) -> bool:
        return token in (None, TOKEN)

    with serve(features.server.create_app(Service(), verify_bearer=verify)) as url:
        yield url


def test_typed_results_and_parameters(features: Generated, base_url: str) -> None:
    models = features.models
    with features.client.Client(base_url, token=TOKEN) as client:
        created = client.create_item(models.Item(name="widget", count=2))
        assert isinstance(created, models.Item)
        assert (created.name, created.count) == ("WIDGET", 2)
        item = client.get_item("abc", verbose=False, x_trace_id="trace-9")
        assert item.name == "abc:False:trace-9"
        assert client.options_items() is None


def test_made_methods_show_their_operation_signature_name_and_doc(features: Generated) -> None:
    """Methods made from `_build_`/`_parse_` look written out to inspect, help() and IDEs."""
    import inspect

    for cls in (features.client.Client, features.client.AsyncClient):
        method = cls.get_item
        assert method.__name__ == "get_item"
        assert inspect.iscoroutinefunction(method) is (cls is features.client.AsyncClient)
        parameters = list(inspect.signature(method).parameters)
        assert parameters[:2] == ["self", "item_id"]
        assert "verbose" in parameters
        assert inspect.getdoc(method)
        detailed = inspect.signature(cls.get_item_detailed)
        assert list(detailed.parameters) == parameters
        assert cls.get_item_detailed.__name__ == "get_item_detailed"


def test_declared_errors_raise_typed_exceptions(features: Generated, base_url: str) -> None:
    errors, models = features.errors, features.models
    with features.client.Client(base_url, retry=features.client.NO_RETRY) as client:
        with pytest.raises(errors.GetItemNotFound) as missing:
            client.get_item("missing")
        assert missing.value.status_code == 404
        assert missing.value.body == models.Error(code="NOPE", message="gone")
        with pytest.raises(errors.GetItemServiceUnavailable) as busy:
            client.get_item("busy")
        assert busy.value.headers["retry-after"] == "3"
        assert isinstance(busy.value.body, models.Error)
        with pytest.raises(errors.CreateItemUnauthorized) as denied:
            client.create_item(models.Item(name="x"))  # no token
        assert denied.value.body.code == "UNAUTHORIZED"


def test_undeclared_status_raises_unexpected_status(features: Generated, base_url: str) -> None:
    errors = features.errors
    with features.client.Client(base_url) as client:
        with pytest.raises(errors.UnexpectedStatus) as teapot:
            client.get_item("teapot")
        assert teapot.value.status_code == 418
        assert json.loads(teapot.value.text) == {"tea": True}
        with pytest.raises(errors.UnexpectedStatus) as unimplemented:
            client.delete_item("abc")
        assert unimplemented.value.status_code == 501
        assert isinstance(unimplemented.value, errors.ApiError)


def test_query_parameter_styles(features: Generated, base_url: str) -> None:
    models = features.models
    with features.client.Client(base_url) as client:
        echoed = client.search(tags=["a", "b c"], ids=[4, 5], words=["x", "y"],
                               range=models.SearchRange(min=1, max=2), q={"deep": {"a": None}},
                               sort=models.SearchSort.DESC, limit=7)
        assert echoed == {"tags": ["a", "b c"], "ids": [4, 5], "words": ["x", "y"],
                          "range": {"min": 1, "max": 2}, "q": {"deep": {"a": None}},
                          "sort": "desc", "limit": 7}
        assert client.search()["sort"] == "asc"


def test_multipart_and_binary(features: Generated, base_url: str) -> None:
    with features.client.Client(base_url) as client:
        stored = client.upload(file=("notes.txt", b"hello world", "text/plain"), path="d/n.txt",
                               count=4)
        assert (stored.name, stored.size, stored.path, stored.count) == (
            "notes.txt", 11, "d/n.txt", 4)
        plain = client.upload(file=io.BytesIO(b"abc"))
        assert plain.size == 3 and plain.path is None
        blob = client.get_blob(size=512)
        assert blob == bytes(range(256)) * 2


def test_timeout(features: Generated, base_url: str) -> None:
    no_retry = features.client.NO_RETRY
    try:
        with features.client.Client(base_url, timeout=0.2, retry=no_retry) as client, \
                pytest.raises(features.errors.TimedOut) as timed_out:
            client.slow()
        assert isinstance(timed_out.value.__cause__, httpx.TimeoutException)
        assert str(timed_out.value).startswith("slow: ReadTimeout")
    finally:
        RELEASE_SLOW.set()


def test_async_client(features: Generated, base_url: str) -> None:
    models, errors = features.models, features.errors

    async def main() -> None:
        async with features.client.AsyncClient(base_url, token=TOKEN) as client:
            created = await client.create_item(models.Item(name="a"))
            assert created.name == "A"
            stored = await client.upload(file=b"xyz", count=1)
            assert stored.size == 3
            assert await client.get_blob(size=256) == bytes(range(256))
            with pytest.raises(errors.GetItemNotFound):
                await client.get_item("missing")

    asyncio.run(main())


def test_async_client_in_process_with_asgi_transport(features: Generated) -> None:
    models = features.models

    class Service(features.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def get_item(self, item_id: str, **_: Any) -> Any:
            return models.Item(name=item_id)

    app = features.server.create_app(Service(), insecure_no_auth=True)

    async def main() -> None:
        transport = httpx.ASGITransport(app=app)
        async with features.client.AsyncClient("http://test", transport=transport) as client:
            item = await client.get_item("in-process")
            assert item == models.Item(name="in-process")

    asyncio.run(main())


def test_unknown_response_fields_are_tolerated(features: Generated) -> None:
    models = features.models
    sent: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(200, json={"name": "n", "count": 1, "colour": "red",
                                         "nested": {"a": [1]}})

    transport = httpx.MockTransport(handler)
    with features.client.Client("http://test", token="t", transport=transport) as client:
        item = client.get_item("abc", verbose=True, x_trace_id="x")
    assert isinstance(item, models.Item)
    assert item.model_dump(mode="json") == {"name": "n", "count": 1, "colour": "red",
                                            "nested": {"a": [1]}}
    request = sent[0]
    assert request.headers["authorization"] == "Bearer t"
    assert request.headers["x-trace-id"] == "x"
    assert request.url.params["verbose"] == "true"
    assert request.url.path == "/items/abc"


def test_path_parameters_are_escaped(features: Generated) -> None:
    paths: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        paths.append(request.url.raw_path.decode())
        return httpx.Response(200, json={"name": "n"})

    with features.client.Client("http://test", transport=httpx.MockTransport(handler)) as client:
        client.get_item("a/b c?d")
    assert paths == ["/items/a%2Fb%20c%3Fd"]


def test_undecodable_declared_error_body_is_unexpected_status(features: Generated) -> None:
    errors = features.errors

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(404, text="<html>not json</html>")

    with features.client.Client("http://test", transport=httpx.MockTransport(handler)) as client:
        with pytest.raises(errors.UnexpectedStatus) as raised:
            client.get_item("abc")
    assert raised.value.status_code == 404
    assert raised.value.text == "<html>not json</html>"


def test_servers_are_listed_with_variables_at_their_defaults() -> None:
    from contractgen.api import render
    from gen_support import OTARI_SPEC

    files, _ = render(OTARI_SPEC, validate_spec=False)
    # Otari's one server is "{sandbox_url}" with the default http://localhost:8080.
    assert 'SERVERS: tuple[str, ...] = ("http://localhost:8080",)' in files["client.py"]


def test_declared_errors_register_from_their_class_statement(generate: Any) -> None:
    """Each declared error names its operation and status where it is defined: ERRORS, the
    status floors of ranges and `default`, and what a client parses each body as follow."""
    problem = {"type": "object", "properties": {"code": {"type": "string"}}}
    responses = {
        "200": {"description": "ok"},
        "404": {"description": "gone", "content": {"application/json": {"schema": problem}}},
        "4XX": {"description": "any client error",
                "content": {"application/json": {"schema": {}}}},
        "409": {"description": "plain text", "content": {"text/plain": {
            "schema": {"type": "string"}}}},
        "410": {"description": "empty"},
        "default": {"description": "other", "content": {"application/octet-stream": {}}},
    }
    pkg = generate(openapi({"/things": {"get": {"operationId": "getThings",
                                                 "responses": responses}}}))
    errors = pkg.errors
    registered = {key: (cls.__name__, cls.status_code, cls.body_type)
                  for key, cls in errors.ERRORS.items()}
    assert registered == {
        ("getThings", "404"): ("GetThingsNotFound", 404, pkg.models.GetThingsNotFoundBody),
        ("getThings", "4XX"): ("GetThingsClientError", 400, Any),  # `{}`: any JSON value
        ("getThings", "409"): ("GetThingsConflict", 409, None),  # not JSON: the bytes as sent
        ("getThings", "410"): ("GetThingsGone", 410, None),
        ("getThings", "default"): ("GetThingsDefault", 500, None),
    }
    assert errors.error_class("getThings", 404) is errors.GetThingsNotFound
    assert errors.error_class("getThings", 422) is errors.GetThingsClientError
    assert errors.error_class("getThings", 503) is errors.GetThingsDefault
    assert errors.GetThingsNotFound.operation_id == "getThings"

    class Handled(errors.GetThingsNotFound):  # a subclass is the same declared error
        pass

    assert (Handled.status_code, Handled.body_type) == (404, errors.GetThingsNotFound.body_type)
    assert errors.ERRORS[("getThings", "404")] is errors.GetThingsNotFound


def test_parsers_cast_only_what_mypy_cannot_read_from_the_runtime(generate: Any) -> None:
    """`_json(models.X, response)` is typed by the runtime's overload for classes, builtins,
    lists and aliases of those; a union or a nullable body keeps its `cast` (mypy --strict over
    every test contract, `test_corpus`, fails on a redundant cast and on a returned Any)."""
    pet = {"type": "object", "properties": {"name": {"type": "string"}}}
    cat = {"type": "object", "properties": {"meows": {"type": "boolean"}}}

    def answering(schema: dict[str, Any]) -> dict[str, Any]:
        return {"200": {"description": "ok",
                        "content": {"application/json": {"schema": schema}}}}

    pkg = generate(openapi({
        "/pet": {"get": {"operationId": "getPet",
                         "responses": answering({"$ref": "#/components/schemas/Pet"})}},
        "/pets": {"get": {"operationId": "getPets",
                          "responses": answering({"$ref": "#/components/schemas/Pets"})}},
        "/any": {"get": {"operationId": "getAny", "responses": answering({"oneOf": [
            {"$ref": "#/components/schemas/Pet"}, {"$ref": "#/components/schemas/Cat"}]})}},
        "/maybe": {"get": {"operationId": "getMaybe", "responses": answering(
            {"type": ["object", "null"], "properties": {"x": {"type": "integer"}}})}},
    }, schemas={"Pet": pet, "Cat": cat,
                "Pets": {"type": "array", "maxItems": 3,
                         "items": {"$ref": "#/components/schemas/Pet"}}}))
    source = (pkg.dir / "client.py").read_text(encoding="utf-8")
    assert "return _json(models.Pet, response)" in source
    assert "return _json(models.Pets, response)" in source
    parsers = source.split("def _parse_")
    for name, cast in (("get_pet", False), ("get_pets", False), ("get_any", True),
                       ("get_maybe", True)):
        parser = next(p for p in parsers if p.startswith(name + "("))
        assert ("cast(" in parser) is cast, parser
