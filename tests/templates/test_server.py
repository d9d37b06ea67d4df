"""The generated FastAPI server, over real HTTP: one uvicorn per module, reused by every test."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from gen_support import FEATURES, Generated, openapi, serve

SECRET = "s3cret"


@pytest.fixture(scope="module")
def seen() -> dict[str, Any]:
    """What the service received, keyed by operation."""
    return {}


@pytest.fixture(scope="module")
def base_url(features: Generated, seen: dict[str, Any]) -> Iterator[str]:
    models, errors = features.models, features.errors

    class Service(features.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def create_item(self, body: Any) -> Any:
            seen["create_item"] = body
            return body

        async def get_item(self, item_id: str, *, verbose: bool | None = None,
                           x_trace_id: str | None = None) -> Any:
            seen["get_item"] = (item_id, verbose, x_trace_id)
            if item_id == "missing":
                raise errors.GetItemNotFound(models.Error(code="NOPE", message="no such item"))
            if item_id == "busy":
                raise errors.GetItemServiceUnavailable(
                    models.Error(code="BUSY", message="later"), headers={"Retry-After": "7"})
            return models.Item(name=item_id, count=3)

        async def update_item(self, item_id: str, body: Any) -> Any:
            return body

        async def upload(self, body: Any) -> Any:
            content = await body.file.read()
            seen["upload"] = (body.file.filename, body.file.content_type, content, body.path,
                              body.count)
            return models.UploadResponse(name=body.file.filename, size=len(content),
                                         path=body.path, count=body.count)

        async def get_blob(self, *, size: int) -> Any:
            async def chunks() -> AsyncIterator[bytes]:
                for _ in range(size // 1000):
                    yield b"x" * 1000
                    await asyncio.sleep(0)

            return chunks()

        async def options_items(self) -> None:
            return None

        async def search(self, **kwargs: Any) -> Any:
            return {k: v.model_dump(mode="json") if hasattr(v, "model_dump") else v
                    for k, v in kwargs.items()}

        async def get_hal(self) -> Any:
            return models.Item(name="hal")

        async def boom(self) -> None:
            raise RuntimeError("secret internal detail")

    def verify(token: str | None) -> bool:
        seen.setdefault("verified", []).append(token)
        return token in (None, SECRET)

    with serve(features.server.create_app(Service(), verify_bearer=verify)) as url:
        yield url


@pytest.fixture(scope="module")
def http(base_url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base_url, timeout=10) as client:
        yield client


def test_service_base_has_one_async_method_per_operation(features: Generated) -> None:
    import inspect

    base = features.server.ServiceBase
    for name in ("create_item", "options_items", "get_item", "update_item", "delete_item",
                 "upload", "get_blob", "boom", "slow"):
        assert inspect.iscoroutinefunction(getattr(base, name)), name


def test_routes_are_analysed_when_first_used(features: Generated) -> None:
    # create_app leaves FastAPI's per-parameter analysis of each route to its first request
    # (or inspection): a contract of hundreds of operations builds its app fast.
    app = features.server.create_app(features.server.ServiceBase(), insecure_no_auth=True)
    routes = {r.name: r for r in app.routes if r.name in ("getItem", "deleteItem")}
    assert all("dependant" not in vars(r) for r in routes.values())
    with serve(app) as url:
        refused = httpx.get(url + "/items/abc", params={"verbose": "maybe"}, timeout=10)
    assert refused.status_code == 422, refused.text  # validated, in the declared status
    assert "dependant" in vars(routes["getItem"])
    assert "dependant" not in vars(routes["deleteItem"])
    assert routes["deleteItem"].dependant.path_params  # inspecting analyses it too


def test_unimplemented_operation_answers_501_in_the_declared_shape(http: httpx.Client) -> None:
    response = http.delete("/items/abc")
    assert response.status_code == 501
    assert response.json() == {"code": "NOT_IMPLEMENTED", "message": "deleteItem is not implemented"}


def test_typed_result_and_header_and_query_parameters(http: httpx.Client,
                                                      seen: dict[str, Any]) -> None:
    response = http.get("/items/abc", params={"verbose": "true"}, headers={"X-Trace-Id": "t-1"})
    assert response.status_code == 200
    assert response.json() == {"name": "abc", "count": 3}
    assert seen["get_item"] == ("abc", True, "t-1")


def test_declared_error_carries_body_and_headers(http: httpx.Client) -> None:
    missing = http.get("/items/missing")
    assert (missing.status_code, missing.json()) == (404, {"code": "NOPE", "message": "no such item"})
    busy = http.get("/items/busy")
    assert busy.status_code == 503
    assert busy.headers["retry-after"] == "7"
    assert busy.json() == {"code": "BUSY", "message": "later"}


def test_validation_error_uses_the_declared_status_and_body(http: httpx.Client) -> None:
    headers = {"Authorization": f"Bearer {SECRET}"}
    for content in (b'{"count": 1}', b'{"name": ""}', b'{"name": "a", "count": -1}', b"{oops"):
        response = http.post("/items", content=content,
                             headers={**headers, "Content-Type": "application/json"})
        assert response.status_code == 400, content
        body = response.json()
        assert body["code"] == "INVALID_REQUEST" and set(body) == {"code", "message"}, body
    # updateItem declares 422 with a Problem body: {"detail": [...]}
    response = http.put("/items/abc", json={"count": "many"})
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert isinstance(detail, list) and detail and all("msg" in d for d in detail)
    # path constraint (minLength 2) is a validation error too
    assert http.put("/items/a", json={"name": "x"}).status_code == 422


def test_bearer_security(http: httpx.Client, seen: dict[str, Any]) -> None:
    item = {"name": "widget"}
    for scheme in ("Bearer", "bearer", "BEARER"):
        response = http.post("/items", json=item, headers={"Authorization": f"{scheme} {SECRET}"})
        assert response.status_code == 201, scheme
        assert response.json() == item
    seen["verified"] = []
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {SECRET}"}):
        response = http.post("/items", json=item, headers=headers)
        assert response.status_code == 401, headers
        assert response.json() == {"code": "UNAUTHORIZED", "message": response.json()["message"]}
        assert response.headers["www-authenticate"] == "Bearer"
    assert None not in seen["verified"]  # createItem does not allow anonymous callers
    # getItem lists `{}`: anonymous callers reach the verifier with None
    seen["verified"] = []
    assert http.get("/items/abc").status_code == 200
    assert seen["verified"] == [None]
    assert http.get("/items/abc", headers={"Authorization": "Bearer wrong"}).status_code == 401


def test_query_parameter_styles(http: httpx.Client) -> None:
    query = ("tags=a&tags=b&ids=1|2|3&words=hello%20world&range%5Bmin%5D=1&range%5Bmax%5D=9"
             "&q=%7B%22k%22%3A%20%5B1%5D%7D&sort=desc&limit=5")
    response = http.get(f"/search?{query}")
    assert response.status_code == 200, response.text
    assert response.json() == {"tags": ["a", "b"], "ids": [1, 2, 3], "words": ["hello", "world"],
                               "range": {"min": 1, "max": 9}, "q": {"k": [1]}, "sort": "desc",
                               "limit": 5}
    defaults = http.get("/search").json()
    assert defaults == {"tags": None, "ids": None, "words": None, "range": None, "q": None,
                        "sort": "asc", "limit": 10}
    for bad in ("ids=1|x", "range%5Bmin%5D=low", "q=%7Bnot-json", "limit=101", "sort=up"):
        response = http.get(f"/search?{bad}")
        assert response.status_code == 422, bad
        assert response.json()["detail"], bad  # no declared error body: {"detail": [...]}


def test_multipart_upload_with_form_fields(http: httpx.Client, seen: dict[str, Any]) -> None:
    response = http.post("/upload", files={"file": ("a.txt", b"hello", "text/plain")},
                         data={"path": "dir/a.txt", "count": "2"})
    assert response.status_code == 201
    assert response.json() == {"name": "a.txt", "size": 5, "path": "dir/a.txt", "count": 2}
    assert seen["upload"] == ("a.txt", "text/plain", b"hello", "dir/a.txt", 2)
    missing_file = http.post("/upload", data={"path": "x"})
    assert missing_file.status_code == 422


def test_binary_response_is_streamed_with_its_media_type(http: httpx.Client) -> None:
    with http.stream("GET", "/blob", params={"size": 50000}) as response:
        assert response.status_code == 200
        assert response.headers["content-type"] == "image/png"
        assert "content-length" not in response.headers  # streamed, not buffered
        chunks = list(response.iter_raw())
    assert b"".join(chunks) == b"x" * 50000


def test_json_response_keeps_its_declared_media_type(http: httpx.Client) -> None:
    response = http.get("/hal")
    assert response.headers["content-type"] == "application/hal+json"
    assert response.json() == {"name": "hal"}


def test_options_operation(http: httpx.Client) -> None:
    response = http.options("/items")
    assert response.status_code == 204
    assert response.content == b""


def test_unexpected_exception_answers_500_without_traceback(http: httpx.Client) -> None:
    response = http.get("/boom")
    assert response.status_code == 500
    assert response.json() == {"code": "INTERNAL_ERROR", "message": "Internal server error"}
    assert "secret internal detail" not in response.text
    assert "Traceback" not in response.text


@pytest.mark.slow
def test_unexpected_exception_keeps_keep_alive_connections_usable(http: httpx.Client) -> None:
    for _ in range(20):
        assert http.get("/boom").status_code == 500
        assert http.get("/items/abc").status_code == 200


def test_openapi_json_is_the_contract_as_written(http: httpx.Client) -> None:
    response = http.get("/openapi.json")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    assert response.json() == json.loads(json.dumps(FEATURES))


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_docs_render_without_external_urls(http: httpx.Client, base_url: str, page: str) -> None:
    # Swagger UI and ReDoc; tests/templates/test_docs_ui.py drives /docs in a real browser
    response = http.get(page)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert "/docs/openapi.json" in response.text
    urls = re.findall(r"""(?:src|href)\s*=\s*["']?([^"' >]+)""", response.text)
    assert any(url.endswith(".js") for url in urls)
    for url in urls:
        assert not re.match(r"(?i)(https?:)?//", url) or url.startswith(base_url), url
        if url.startswith("/docs/assets/"):
            asset = http.get(url)  # served from the installed package
            assert asset.status_code == 200 and len(asset.content) > 1000, url
    contract = http.get("/docs/openapi.json").json()
    assert contract["paths"] == json.loads(json.dumps(FEATURES))["paths"]


def test_a_service_may_override_error_body(features: Generated) -> None:
    class Service(features.server.ServiceBase):  # type: ignore[misc,name-defined]
        def error_body(self, operation_id: str, status: int, code: str, message: str,
                       errors: list[Any] | None) -> Any:
            return {"code": f"{operation_id}:{status}:{code}", "message": str(len(errors or []))}

    with serve(features.server.create_app(Service(), insecure_no_auth=True)) as url:
        invalid = httpx.post(f"{url}/items", json={})
        assert (invalid.status_code, invalid.json()) == (
            400, {"code": "createItem:400:INVALID_REQUEST", "message": "1"})
        missing = httpx.delete(f"{url}/items/abc")
        assert missing.json()["code"] == "deleteItem:501:NOT_IMPLEMENTED"


# -- the two real contracts ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def real_servers(contracts: dict[str, Generated]) -> Iterator[dict[str, str]]:
    otari, tpmjs = contracts["otari"], contracts["tpmjs"]
    with serve(otari.server.create_app(otari.server.ServiceBase())) as otari_url, \
            serve(tpmjs.server.create_app(tpmjs.server.ServiceBase())) as tpmjs_url:
        yield {"otari": otari_url, "tpmjs": tpmjs_url}


def test_tpmjs_invalid_requests_answer_400_error_response(
    contracts: dict[str, Generated], real_servers: dict[str, str]
) -> None:
    models = contracts["tpmjs"].models
    url = real_servers["tpmjs"] + "/execute-tool"
    bad = [
        b"{not json",
        b"[]",
        json.dumps({"version": "1.0.0", "name": "t"}).encode(),  # no packageName
        json.dumps({"packageName": "p"}).encode(),  # no name
        json.dumps({"packageName": "p", "name": "t", "env": {"A": 1}}).encode(),
    ]
    for content in bad:
        response = httpx.post(url, content=content, headers={"Content-Type": "application/json"})
        assert response.status_code == 400, content
        body = models.ErrorResponse.model_validate(response.json())
        assert body.success is False
        assert body.error.code == models.ErrorResponseErrorCode.INVALID_REQUEST
        assert body.error.message


def test_tpmjs_unimplemented_and_preflight(
    contracts: dict[str, Generated], real_servers: dict[str, str]
) -> None:
    models = contracts["tpmjs"].models
    response = httpx.post(real_servers["tpmjs"] + "/execute-tool",
                          json={"packageName": "p", "name": "t"})
    assert response.status_code == 501
    body = models.ErrorResponse.model_validate(response.json())
    assert body.success is False
    assert httpx.options(real_servers["tpmjs"] + "/health").status_code == 501


def test_otari_invalid_requests_answer_422_error(
    contracts: dict[str, Generated], real_servers: dict[str, str]
) -> None:
    models = contracts["otari"].models
    url = real_servers["otari"] + "/sessions/abc/exec"
    # A `tool` naming no member of the union is the declared 400 (see test_runtime_knobs.py).
    for body in ({"tool": "code_execution", "input": {}},
                 {"tool": "code_execution", "input": {"code": "x"}, "timeout_seconds": 0}):
        response = httpx.post(url, json=body)
        assert response.status_code == 422, body
        error = models.Error.model_validate(response.json())
        assert isinstance(error.detail, list) and error.detail
    response = httpx.post(url, content=b"{", headers={"Content-Type": "application/json"})
    assert response.status_code == 422
    assert httpx.post(real_servers["otari"] + "/sessions").status_code == 501


def test_an_error_status_with_its_own_body_shape_keeps_it(generate: Any) -> None:
    """Statuses answered with the operation's fallback shape are written once (`"*"`); one
    with its own shape keeps its entry, and the server answers each in the declared shape."""
    problem = {"type": "object", "properties": {"detail": {"type": "array",
                                                            "items": {"type": "object"}}}}
    error = {"type": "object", "required": ["code", "message"],
             "properties": {"code": {"type": "string"}, "message": {"type": "string"}}}
    body = {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}
    pkg = generate(openapi({"/things": {"put": {
        "operationId": "putThing",
        "requestBody": {"required": True, "content": {"application/json": {"schema": body}}},
        "responses": {
            "200": {"description": "ok"},
            "404": {"description": "gone", "content": {"application/json": {"schema": error}}},
            "422": {"description": "invalid",
                    "content": {"application/json": {"schema": problem}}},
            "default": {"description": "other",
                        "content": {"application/json": {"schema": error}}},
        },
    }}}))
    source = (pkg.dir / "server.py").read_text(encoding="utf-8")
    entry = re.search(r'"putThing": \{(.*?)\}', source)
    assert entry is not None and '"404"' not in entry.group(1), source  # the same as "*"
    assert '"422"' in entry.group(1) and '"*"' in entry.group(1)
    with serve(pkg.server.create_app(pkg.server.ServiceBase())) as base_url:
        invalid = httpx.put(f"{base_url}/things", json={"name": 3})
        assert invalid.status_code == 422
        assert isinstance(invalid.json()["detail"], list)
        missing = httpx.put(f"{base_url}/things", json={"name": "n"})  # not implemented
        assert missing.status_code == 501
        assert missing.json()["code"] == "NOT_IMPLEMENTED" and "message" in missing.json()


def test_parameters_declared_alike_share_one_annotation_and_keep_their_own_checks(
        generate: Any) -> None:
    """A parameter annotation that several routes declare alike is written once at module
    level (`_PathId`); one that differs under the same name gets its own (`_PathId2`); a
    parameter declared once stays inline. Each route still checks its own constraints."""
    def get(operation_id: str, pattern: str, limit: bool = False) -> dict[str, Any]:
        parameters: list[dict[str, Any]] = [
            {"name": "id", "in": "path", "required": True,
             "schema": {"type": "string", "pattern": pattern}}]
        if limit:
            parameters.append({"name": "limit", "in": "query",
                               "schema": {"type": "integer", "maximum": 5}})
        return {"get": {"operationId": operation_id, "parameters": parameters,
                        "responses": {"204": {"description": "ok"}}}}

    pkg = generate(openapi({
        "/a/{id}": get("getA", "^a[0-9]+$", limit=True),
        "/b/{id}": get("getB", "^a[0-9]+$"),
        "/c/{id}": get("getC", "^c[0-9]+$"),
        "/d/{id}": get("getD", "^c[0-9]+$"),
    }))
    source = (pkg.dir / "server.py").read_text(encoding="utf-8")
    assert "\n_PathId = Annotated[str, Path(pattern=\"^a[0-9]+$\")]\n" in source
    assert "\n_PathId2 = Annotated[str, Path(pattern=\"^c[0-9]+$\")]\n" in source
    assert "async def get_b(id: _PathId) -> Response:" in source
    assert "async def get_d(id: _PathId2) -> Response:" in source
    assert 'limit: Annotated[int | None, Query(le=5)] = None' in source  # declared once

    class Service(pkg.server.ServiceBase):  # type: ignore[name-defined,misc]
        async def get_a(self, id: str, *, limit: int | None = None) -> None:
            return None

        async def get_b(self, id: str) -> None:
            return None

        async def get_c(self, id: str) -> None:
            return None

        async def get_d(self, id: str) -> None:
            return None

    with serve(pkg.server.create_app(Service())) as base_url:
        assert httpx.get(f"{base_url}/a/a1", params={"limit": 5}).status_code == 204
        assert httpx.get(f"{base_url}/a/a1", params={"limit": 6}).status_code == 422
        assert httpx.get(f"{base_url}/b/a1").status_code == 204
        assert httpx.get(f"{base_url}/b/c1").status_code == 422
        assert httpx.get(f"{base_url}/c/c1").status_code == 204
        assert httpx.get(f"{base_url}/d/a1").status_code == 422
