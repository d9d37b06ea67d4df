"""A hostile tool against the runtime (no HTTP): odd text and values, forged results,
resource exhaustion, and attempts to leave the sandbox; real Node, real bwrap, the package
from the loopback registry (tests/fixtures/packages/hostile-1.0.0)."""

from __future__ import annotations

import shutil
from dataclasses import replace
from typing import Any

import pytest
from tpmjs_executor.config import Settings
from tpmjs_executor.executor import ExecutionRequest, ExecutionResult, Executor
from tpmjs_executor.jsonvalues import MAX_DEPTH
from tpmjs_support import run, with_executor

HOSTILE = "@fixture/hostile"
needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap not installed")
MODES = [pytest.param("bwrap", marks=needs_bwrap), "process"]


def hostile(name: str, **kwargs: Any) -> ExecutionRequest:
    """A request for `name` from the hostile package."""
    return ExecutionRequest(package_name=HOSTILE, name=name, **kwargs)


def calls(settings: Settings, *requests: ExecutionRequest) -> list[ExecutionResult]:
    """Run requests one after the other through one Executor."""

    async def body(ex: Executor) -> list[ExecutionResult]:
        return [await ex.execute(r) for r in requests]

    return run(with_executor(settings, body))


@pytest.fixture(params=MODES)
def mode_settings(request: pytest.FixtureRequest, settings: Settings) -> Settings:
    """The shared settings, once under bubblewrap and once as plain processes."""
    return replace(settings, isolation=request.param)


def test_lone_surrogates_are_replaced(settings: Settings) -> None:
    output, thrown = calls(settings, hostile("surrogateTool"), hostile("surrogateThrowTool"))
    assert output.success, output
    assert output.output == {"text": "a\ufffdb", "key\ufffd": ["\ufffd"], "pair": "\U0001f600"}
    assert output.logs == ("log \ufffd line",)
    assert thrown.error_code == "TOOL_EXECUTION_ERROR"
    assert thrown.error_message == "bad \ufffd message"


def test_output_nesting_is_bounded(settings: Settings) -> None:
    fits, deep, very_deep = calls(
        settings,
        hostile("deepTool", params={"depth": MAX_DEPTH - 1}),
        hostile("deepTool", params={"depth": MAX_DEPTH + 1}),
        hostile("deepTool", params={"depth": 100_000}),
    )
    assert fits.success, fits
    for result in (deep, very_deep):
        assert result.error_code == "TOOL_EXECUTION_ERROR"
        assert result.error_message == f"Tool output is nested deeper than {MAX_DEPTH} levels"


def test_unprintable_throws_are_tool_errors(settings: Settings) -> None:
    results = calls(
        settings,
        hostile("messageGetterTool"),
        hostile("revokedProxyTool"),
        hostile("returnRevokedTool"),
        hostile("revokedExportTool"),
    )
    assert [r.error_code for r in results] == ["TOOL_EXECUTION_ERROR"] * 4, results
    getter, proxy, returned, export = (str(r.error_message) for r in results)
    assert getter == "unprintable object thrown"
    assert proxy == "unprintable object thrown"
    assert "revoked" in returned  # awaiting it already throws
    assert export.startswith("Tool broke the harness")


@pytest.mark.parametrize("code", ["PACKAGE_NOT_FOUND", "EXECUTION_TIMEOUT", "INTERNAL_ERROR"])
def test_the_result_channel_cannot_be_forged(mode_settings: Settings, code: str) -> None:
    returned, died, patched = calls(
        mode_settings,
        hostile("forgeTool", params={"code": code}),
        hostile("forgeAndDieTool", params={"code": code}),
        hostile("patchGlobalsTool", params={"code": code}),
    )
    # The frames the tool wrote were read and ignored: its real result came through.
    assert returned.success and returned.output == {"real": True, "wrote": True}, returned
    assert died.error_code == "TOOL_EXECUTION_ERROR", died
    assert str(died.error_message).startswith("Tool process ended without a result")
    assert patched.error_code == "TOOL_EXECUTION_ERROR", patched
    assert patched.error_message == "after patching"
