"""`_serving`'s refusals in the contract's declared error shapes, over real HTTP (uvicorn on
loopback): LocalOnlyGuard's 403 (the operation's declared 403, else its `default`, else
`{"detail": ...}`) and the front door's 431 (the app-wide shape) (issue 28)."""

from __future__ import annotations

import importlib
import json
import socket
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from gen_support import Generated, generate_package, openapi, serve


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": "it", "content": {"application/json": {"schema": schema}}}


ERROR = {"$ref": "#/components/schemas/ApiError"}
SPEC = openapi({
    "/declared": {"get": {"operationId": "declared", "responses": {
        "200": {"description": "ok"}, "403": _json(ERROR)}}},
    "/fallback": {"get": {"operationId": "fallback", "responses": {
        "200": {"description": "ok"}, "default": _json(ERROR)}}},
    "/text": {"get": {"operationId": "text", "responses": {
        "200": {"description": "ok"},
        "403": {"description": "no", "content": {"text/plain": {"schema": {"type": "string"}}}}}}},
    "/bare": {"get": {"operationId": "bare", "responses": {"200": {"description": "ok"}}}},
}, {
    "Error": {"type": "object", "required": ["code", "message"], "properties": {
        "code": {"type": "integer"}, "message": {"type": "string"}}},
    "ApiError": {"allOf": [{"$ref": "#/components/schemas/Error"}]},
})
EVIL = {"Host": "evil.example"}


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Generated:
    return generate_package(SPEC, tmp_path_factory.mktemp("guard_errors"))


@pytest.fixture(scope="module")
def http(package: Generated) -> Iterator[httpx.Client]:
    serving = importlib.import_module(f"{package.name}._serving")

    class Service(package.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def bare(self) -> None:
            return None

    app = serving.LocalOnlyGuard(package.server.create_app(Service()))
    with serve(app) as url, httpx.Client(base_url=url, timeout=10) as client:
        yield client


def test_a_declared_403_is_answered_in_its_shape(http: httpx.Client) -> None:
    answer = http.get("/declared", headers=EVIL)
    assert answer.status_code == 403
    assert answer.json() == {"code": 403, "message": "the Host header must name a loopback address"}


def test_the_default_response_is_the_shape_where_403_is_not_declared(http: httpx.Client) -> None:
    answer = http.get("/fallback", headers={"Origin": "http://evil.example"})
    assert answer.status_code == 403
    assert answer.json() == {"code": 403, "message": "cross-origin requests are refused"}


def test_a_text_plain_403_is_answered_as_text(http: httpx.Client) -> None:
    answer = http.get("/text", headers=EVIL)
    assert answer.status_code == 403
    assert answer.headers["content-type"].startswith("text/plain")
    assert answer.text == "the Host header must name a loopback address"


def test_without_any_declared_error_the_shape_is_detail(
        package: Generated, tmp_path_factory: pytest.TempPathFactory) -> None:
    serving = importlib.import_module(f"{package.name}._serving")
    bare = generate_package(openapi({"/bare": {"get": {"operationId": "bare", "responses": {
        "200": {"description": "ok"}}}}}), tmp_path_factory.mktemp("guard_bare"))
    app = serving.LocalOnlyGuard(bare.server.create_app(bare.server.ServiceBase()))
    with serve(app) as url:
        answer = httpx.get(f"{url}/bare", headers=EVIL, timeout=10)
    assert answer.status_code == 403
    assert answer.json() == {"detail": "the Host header must name a loopback address"}


def test_loopback_requests_pass_and_an_explicit_error_body_wins(
        package: Generated, http: httpx.Client) -> None:
    assert http.get("/bare").status_code == 200
    serving = importlib.import_module(f"{package.name}._serving")
    app = serving.LocalOnlyGuard(package.server.create_app(package.server.ServiceBase()),
                                 status=400, error_body=lambda message: {"why": message})
    with serve(app) as url:
        answer = httpx.get(f"{url}/declared", headers=EVIL, timeout=10)
    assert answer.status_code == 400 and answer.json() == {"why": answer.json()["why"]}


def test_the_generated_app_is_found_under_other_middleware(package: Generated) -> None:
    serving = importlib.import_module(f"{package.name}._serving")

    class Wrapper:  # any ASGI middleware keeping the app it wraps as `.app`
        def __init__(self, app: Any) -> None:
            self.app = app

        async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
            await self.app(scope, receive, send)

    app = package.server.create_app(package.server.ServiceBase())
    with serve(serving.LocalOnlyGuard(Wrapper(app))) as url:
        answer = httpx.get(f"{url}/text", headers=EVIL, timeout=10)
    assert answer.status_code == 403 and answer.headers["content-type"].startswith("text/plain")


def test_the_front_door_answers_431_in_the_contracts_shape(package: Generated) -> None:
    import uvicorn

    serving = importlib.import_module(f"{package.name}._serving")
    protocol = serving.front_door_protocol("h11", serving.FrontDoorLimits(max_header_bytes=1024))
    app = package.server.create_app(package.server.ServiceBase())
    listener = socket.create_server(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, http=protocol, log_level="critical",
                                           lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        with socket.create_connection(listener.getsockname(), timeout=10) as sock:
            sock.sendall(b"GET /bare HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"x" * 2000
                         + b"\r\n\r\n")
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
    finally:
        server.should_exit = True
        thread.join()
        listener.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 431") and b"content-type: application/json" in head
    assert json.loads(body) == {"code": 431, "message": "request head over 1024 bytes"}
