"""Every operation of both contracts: the generated client calls the generated server over real
HTTP (uvicorn on loopback, one server per contract) and gets the typed result."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from gen_support import Generated, serve

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def _operation_ids(pkg: Generated) -> set[str]:
    doc = json.loads((pkg.dir / "openapi.json").read_text(encoding="utf-8"))
    return {op["operationId"] for item in doc["paths"].values()
            for method, op in item.items() if method in HTTP_METHODS}


@pytest.fixture(scope="module")
def otari(contracts: dict[str, Generated]) -> Iterator[tuple[Generated, str, list[str]]]:
    pkg = contracts["otari"]
    m = pkg.models
    called: list[str] = []

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def create_session(self, body: Any) -> Any:
            called.append("CreateSession")
            hints = body.model_dump(exclude_none=True) if body is not None else {}
            return m.SessionHandle(session_id="s-1", created_at=1.5,
                                   idle_timeout_seconds=hints.get("idle_timeout_seconds", 300))

        async def destroy_session(self, session_id: str) -> None:
            called.append("DestroySession")

        async def execute(self, session_id: str, body: Any) -> Any:
            called.append("Execute")
            result = m.CodeExecutionResult(stdout=f"{session_id}:{body.tool}:{body.input.code}")
            return m.ExecResponse(
                tool_use_id=body.tool_use_id or "generated",
                result_block=m.ResultBlock(type="code_execution_tool_result",
                                           tool_use_id="t", content=result),
                execution_time_ms=7)

        async def list_files(self, session_id: str, *, path: str = ".") -> Any:
            called.append("ListFiles")
            return m.FileList(files=[m.FileMetadata(path=f"{path}/a.txt", size_bytes=3,
                                                    mime_type=None)])

        async def get_file(self, session_id: str, *, path: str) -> bytes:
            called.append("GetFile")
            return f"contents of {path}".encode()

        async def put_file(self, session_id: str, body: Any) -> Any:
            called.append("PutFile")
            data = await body.file.read()
            return m.FileUploadResult(path=body.path or body.file.filename, size_bytes=len(data))

    with serve(pkg.server.create_app(Service())) as url:
        yield pkg, url, called


@pytest.fixture(scope="module")
def tpmjs(contracts: dict[str, Generated]) -> Iterator[tuple[Generated, str, list[str]]]:
    pkg = contracts["tpmjs"]
    m = pkg.models
    called: list[str] = []

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def get_health(self) -> Any:
            called.append("getHealth")
            return m.HealthResponse(status="ok", protocolVersion="1.0",
                                    implementationVersion="0.1.0",
                                    runtime=m.HealthResponseRuntime.NODE)

        async def execute_tool(self, body: Any, *, x_tpmjs_protocol_version: str | None = None
                               ) -> Any:
            called.append("executeTool")
            if body.name == "fails":
                return m.ExecuteToolErrorResponse(
                    success=False, executionTimeMs=2,
                    error=m.ExecutionError(code=m.ExecutionErrorCode.TOOL_NOT_FOUND, message="no"))
            return m.ExecuteToolSuccessResponse(
                success=True, executionTimeMs=1,
                output={"params": body.params, "version": body.version,
                        "protocol": x_tpmjs_protocol_version})

        async def get_info(self, *, x_tpmjs_protocol_version: str | None = None) -> Any:
            called.append("getInfo")
            return m.InfoResponse(
                name="test", version="1", protocolVersion=x_tpmjs_protocol_version or "1.0",
                capabilities=m.ExecutorCapabilities(
                    isolation=m.ExecutorCapabilitiesIsolation.PROCESS,
                    executionModes=[m.ExecutorCapabilitiesExecutionModesItem.SYNC],
                    maxExecutionTimeMs=1000, maxRequestBodyBytes=1024))

        async def options_health(self) -> None:
            called.append("optionsHealth")

        async def options_execute_tool(self) -> None:
            called.append("optionsExecuteTool")

        async def options_info(self) -> None:
            called.append("optionsInfo")

    with serve(pkg.server.create_app(Service())) as url:
        yield pkg, url, called


def test_otari_every_operation(otari: tuple[Generated, str, list[str]]) -> None:
    pkg, url, called = otari
    m = pkg.models
    with pkg.client.Client(url) as client:
        handle = client.create_session(m.CreateSessionRequest(idle_timeout_seconds=60))
        assert isinstance(handle, m.SessionHandle)
        assert (handle.session_id, handle.idle_timeout_seconds) == ("s-1", 60)
        assert client.create_session().idle_timeout_seconds == 300  # the body is optional
        request = m.CodeExecutionRequest(tool="code_execution",
                                         input=m.CodeExecutionInput(code="print(1)"))
        response = client.execute("s-1", request)
        assert isinstance(response, m.ExecResponse)
        assert response.result_block.content.stdout == "s-1:code_execution:print(1)"
        assert (response.tool_use_id, response.execution_time_ms) == ("generated", 7)
        assert response.result_block.content.return_code == 0
        listing = client.list_files("s-1")
        assert [f.path for f in listing.files] == ["./a.txt"]
        assert client.list_files("s-1", path="sub").files[0].path == "sub/a.txt"
        assert client.get_file("s-1", path="x/y.txt") == b"contents of x/y.txt"
        stored = client.put_file("s-1", file=("in.csv", b"a,b\n"), path="data/in.csv")
        assert (stored.path, stored.size_bytes) == ("data/in.csv", 4)
        assert client.put_file("s-1", file=("name.txt", b"x")).path == "name.txt"
        assert client.destroy_session("s-1") is None
    assert set(called) == _operation_ids(pkg)


def test_tpmjs_every_operation(tpmjs: tuple[Generated, str, list[str]]) -> None:
    pkg, url, called = tpmjs
    m = pkg.models
    with pkg.client.Client(url) as client:
        health = client.get_health()
        assert isinstance(health, m.HealthResponse)
        assert health.runtime is m.HealthResponseRuntime.NODE
        request = m.ExecuteToolRequest(packageName="@tpmjs/hello", name="hello",
                                       params={"greeting": "hi", "n": 5})
        result = client.execute_tool(request, x_tpmjs_protocol_version="1.0")
        assert isinstance(result, m.ExecuteToolSuccessResponse)
        assert result.output == {"params": {"greeting": "hi", "n": 5}, "version": "latest",
                                 "protocol": "1.0"}
        failed = client.execute_tool(m.ExecuteToolRequest(packageName="p", name="fails"))
        assert isinstance(failed, m.ExecuteToolErrorResponse)
        assert failed.error.code is m.ExecutionErrorCode.TOOL_NOT_FOUND
        info = client.get_info(x_tpmjs_protocol_version="1.1")
        assert isinstance(info, m.InfoResponse)
        assert info.protocolVersion == "1.1"
        assert info.capabilities.supportsStreaming is False
        assert client.options_health() is None
        assert client.options_execute_tool() is None
        assert client.options_info() is None
    assert set(called) == _operation_ids(pkg)


def test_async_client_over_http(otari: tuple[Generated, str, list[str]],
                                tpmjs: tuple[Generated, str, list[str]]) -> None:
    otari_pkg, otari_url, _ = otari
    tpmjs_pkg, tpmjs_url, _ = tpmjs

    async def main() -> None:
        async with otari_pkg.client.AsyncClient(otari_url) as client:
            assert (await client.create_session()).session_id == "s-1"
            assert await client.get_file("s", path="p") == b"contents of p"
        async with tpmjs_pkg.client.AsyncClient(tpmjs_url) as client:
            assert (await client.get_health()).status == "ok"

    asyncio.run(main())
