"""`contractgen conformance`: a scenario replayed against a live server, every answer checked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from contractgen.cli import main
from contractgen.project.conformance import run_scenario
from gen_support import OTARI_SPEC, Generated, serve
from starlette.responses import Response

SCENARIO = """
steps:
  - operation: CreateSession
    body: {idle_timeout_seconds: 30}
    expect: 201
    save: {sid: /session_id}
  - operation: Execute
    path: {session_id: "${sid}"}
    body: {tool: code_execution, input: {code: "print(1)"}}
    expect: 200
    check: {/result_block/content/stdout: "s-1:print(1)"}
  - operation: PutFile
    path: {session_id: "${sid}"}
    files: {file: {name: a.txt, content: hello}}
    form: {path: a.txt}
    expect: 201
  - operation: GetFile
    path: {session_id: "${sid}"}
    query: {path: a.txt}
    expect: 200
  - operation: DestroySession
    path: {session_id: "${sid}"}
    expect: 204
"""


def _service(pkg: Generated, *, broken: bool) -> Any:
    m, errors = pkg.models, pkg.errors

    class Service(pkg.server.ServiceBase):  # type: ignore[misc,name-defined]
        async def create_session(self, body: Any) -> Any:
            if broken:  # a handle without its required id, and a number as a string
                return Response(b'{"idle_timeout_seconds": "30"}', status_code=201,
                                media_type="application/json")
            return m.SessionHandle(session_id="s-1", idle_timeout_seconds=30)

        async def execute(self, session_id: str, body: Any) -> Any:
            if broken:
                raise errors.ApiError({"detail": "teapot"}, status_code=418)
            result = m.CodeExecutionResult(stdout=f"{session_id}:{body.input.code}")
            return m.ExecResponse(tool_use_id="t", result_block=m.ResultBlock(
                type="code_execution_tool_result", tool_use_id="t", content=result))

        async def put_file(self, session_id: str, body: Any) -> Any:
            data = await body.file.read()
            return m.FileUploadResult(path=body.path, size_bytes=len(data))

        async def get_file(self, session_id: str, *, path: str) -> bytes:
            return b"hello"

        async def destroy_session(self, session_id: str) -> None:
            return None

    return Service()


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    path = tmp_path / "scenario.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    return path


def test_a_conforming_service_passes_every_step(
    contracts: dict[str, Generated], scenario: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pkg = contracts["otari"]
    with serve(pkg.server.create_app(_service(pkg, broken=False))) as url:
        results = run_scenario(OTARI_SPEC, scenario, url)
        code = main(["conformance", str(OTARI_SPEC), "--scenario", str(scenario),
                     "--base-url", url])
    assert [(r.operation, r.status, r.problems) for r in results] == [
        ("CreateSession", 201, []), ("Execute", 200, []), ("PutFile", 201, []),
        ("GetFile", 200, []), ("DestroySession", 204, []),
    ]
    assert code == 0
    assert "5 passed, 0 failed" in capsys.readouterr().out


def test_schema_violations_and_undeclared_statuses_are_reported(
    contracts: dict[str, Generated], scenario: Path
) -> None:
    pkg = contracts["otari"]
    with serve(pkg.server.create_app(_service(pkg, broken=True))) as url:
        results = run_scenario(OTARI_SPEC, scenario, url)
    create, execute = results[0], results[1]
    assert any("'session_id' is a required property" in p for p in create.problems)
    assert any("body /idle_timeout_seconds" in p and "integer" in p for p in create.problems)
    assert any("save sid: nothing at /session_id" in p for p in create.problems)
    assert execute.problems == ["no saved value 'sid'"]


def test_an_undeclared_status_is_named(contracts: dict[str, Generated], tmp_path: Path) -> None:
    pkg = contracts["otari"]
    scenario = tmp_path / "teapot.yaml"
    scenario.write_text(
        "steps:\n  - operation: Execute\n    path: {session_id: s-1}\n"
        "    body: {tool: code_execution, input: {code: x}}\n", encoding="utf-8")
    with serve(pkg.server.create_app(_service(pkg, broken=True))) as url:
        (result,) = run_scenario(OTARI_SPEC, scenario, url)
    assert result.status == 418
    assert result.problems == ["status 418 is not declared for Execute"]
