"""A hostile tool against the runtime (no HTTP): odd text and values, forged results,
resource exhaustion, and attempts to leave the sandbox; real Node, real bwrap, the package
from the loopback registry (tests/fixtures/packages/hostile-1.0.0)."""

from __future__ import annotations

import errno
import logging
import shutil
from pathlib import Path
from typing import Any

import pytest
from tpmjs_executor.config import Settings
from tpmjs_executor.executor import ExecutionRequest, ExecutionResult, Executor
from tpmjs_executor.jsonvalues import MAX_DEPTH
from tpmjs_executor.limits import Limits
from tpmjs_executor.sandbox import HARNESS
from tpmjs_executor.seccomp import filter_program
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
    return settings.with_overrides(isolation=request.param)


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


def _cgroups_why_not() -> str | None:
    """None when runs get cgroups here, else why not (what `Limits` logged), so that a skip
    says its cause."""
    said: list[str] = []

    class Said(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            said.append(record.getMessage())

    handler = Said()
    logger = logging.getLogger("tpmjs_executor.limits")
    logger.addHandler(handler)
    level = logger.level
    logger.setLevel(logging.INFO)
    try:
        limits = Limits(64, 64)
        limits.remove()
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    return None if limits.cgroups else "; ".join(said) or "no cgroup hierarchy to use"


WHY_NOT = _cgroups_why_not()
needs_cgroups = pytest.mark.skipif(WHY_NOT is not None, reason=f"no usable cgroups here: {WHY_NOT}")
MIB = 1024 * 1024


def test_memory_of_the_whole_run_is_capped(mode_settings: Settings) -> None:
    # Buffers live outside the V8 heap: only a cap on the whole run stops them.
    small = mode_settings.with_overrides(memory_mb=256)
    buffers, fits = calls(
        small, hostile("bufferTool", params={"mb": 1024}), hostile("bufferTool", params={"mb": 64})
    )
    assert not buffers.success and buffers.error_code == "TOOL_EXECUTION_ERROR", buffers
    if WHY_NOT is None:
        assert buffers.error_message == "Tool ran out of memory (limit 256 MB) and was stopped"
    assert fits.success and fits.output == {"allocatedMb": 64}, fits


@needs_cgroups
def test_processes_and_threads_of_a_run_are_capped(mode_settings: Settings) -> None:
    capped = mode_settings.with_overrides(max_tasks=48)
    (result,) = calls(capped, hostile("forkTool", params={"count": 400}))
    assert result.success, result
    # Node's own threads count too: the children it could start are fewer than the cap.
    assert 0 < result.output["started"] < 48
    assert result.output["error"] == "EAGAIN"


@needs_cgroups
def test_cgroups_of_a_dead_executor_are_removed_at_start() -> None:
    limits = Limits(64, 64)
    bases = [parent.parent for parent in limits.parents]
    limits.remove()
    # Above the kernel's largest pid (2**22): no live process has it.
    stale = [base / "tpmjs-executor-4194305-1" for base in bases]
    for path in stale:
        (path / "run-1").mkdir(parents=True)
    try:
        Limits(64, 64).remove()
        assert not any(path.exists() for path in stale)
    finally:
        for path in stale:
            for leftover in (path / "run-1", path):
                if leftover.exists():
                    leftover.rmdir()


@needs_bwrap
def test_tmp_and_shm_are_sized_and_dev_is_read_only(settings: Settings) -> None:
    boxed = settings.with_overrides(isolation="bwrap", tmp_size_bytes=16 * MIB)
    tmp, shm, dev = calls(
        boxed,
        hostile("fillTool", params={"dir": "/tmp", "mb": 64}),
        hostile("fillTool", params={"dir": "/dev/shm", "mb": 64}),
        hostile("fillTool", params={"dir": "/dev", "mb": 1}),
    )
    assert tmp.output["error"] == shm.output["error"] == "ENOSPC", (tmp, shm)
    assert tmp.output["writtenMb"] <= 16 and shm.output["writtenMb"] <= 16
    assert dev.output == {"writtenMb": 0, "error": "EROFS"}


@needs_bwrap
def test_namespaces_and_kernel_interfaces_are_refused(settings: Settings) -> None:
    commands: dict[str, list[str]] = {
        "userns": ["unshare", "--user", "--map-root-user", "true"],
        "mountns": ["unshare", "--mount", "true"],
        "netns": ["unshare", "--net", "true"],
        "mount": ["mount", "-t", "tmpfs", "none", "/tmp"],
    }
    if shutil.which("strace"):
        commands["ptrace"] = ["strace", "-f", "-o", "/dev/null", "true"]
    python = "/usr/bin/python3"
    if shutil.which(python):
        # One raw system call each, reporting its errno (x86_64 and aarch64 numbers).
        probe = (
            "import ctypes, os, platform, sys; libc = ctypes.CDLL(None, use_errno=True); "
            "nr = {'x86_64': dict(keyctl=250, bpf=321, userfaultfd=323, perf_event_open=298, "
            "setns=308, io_uring_setup=425), 'aarch64': dict(keyctl=219, bpf=280, "
            "userfaultfd=282, perf_event_open=241, setns=268, io_uring_setup=425)}"
            "[platform.machine()][sys.argv[1]]; "
            "r = libc.syscall(nr, 0, 0, 0, 0, 0); "
            "sys.exit(0 if r >= 0 else ctypes.get_errno())"
        )
        for name in ("keyctl", "bpf", "userfaultfd", "perf_event_open", "setns"):
            commands[name] = [python, "-c", probe, name]
        commands["io_uring_setup"] = [python, "-c", probe, "io_uring_setup"]
    (result,) = calls(
        settings.with_overrides(isolation="bwrap"),
        hostile("syscallTool", params={"commands": commands}),
    )
    assert result.success, result
    for name, outcome in result.output.items():
        assert outcome["status"] not in (0, None), (name, outcome)
    if "keyctl" in commands:
        for name in ("keyctl", "bpf", "userfaultfd", "perf_event_open", "setns"):
            assert result.output[name]["status"] == errno.EPERM, (name, result.output[name])
        assert result.output["io_uring_setup"]["status"] == errno.EPERM


def test_the_seccomp_program_is_well_formed() -> None:
    for machine in ("x86_64", "aarch64"):
        program = filter_program(machine)
        assert program is not None and len(program) % 8 == 0
        assert len(program) // 8 < 4096  # BPF_MAXINSNS
    assert filter_program("sparc") is None


_REPOSITORY = Path(__file__).resolve().parents[3]  # the checkout, wherever it is


@needs_bwrap
def test_host_paths_are_not_visible_in_the_sandbox(settings: Settings) -> None:
    paths = ["/proc/1/cmdline", "/proc/1/environ", "/proc/self/cmdline", "/proc/self/environ",
             "/proc/self/mountinfo", "/etc/passwd", "/etc/resolv.conf"]  # fmt: skip
    (result,) = calls(
        settings.with_overrides(isolation="bwrap"), hostile("readTool", params={"paths": paths})
    )
    assert result.success, result
    mounts = result.output.pop("/proc/self/mountinfo").splitlines()
    for path, text in result.output.items():
        assert str(settings.store_dir) not in text, (path, text)
        assert str(_REPOSITORY) not in text and "packages/" not in text, (path, text)
    assert "--args" in result.output["/proc/1/cmdline"]
    assert result.output["/etc/resolv.conf"] == "nameserver 10.0.2.3\n"
    assert "nobody:x:65534" in result.output["/etc/passwd"]
    # /etc files and the harness come from pipes; only /pkg's line still names the store
    # (the source of a bind mount is shown relative to its filesystem: see the README).
    harness = str(HARNESS.parent)
    assert not [line for line in mounts if harness in line or "sandbox-etc" in line], mounts
    assert [line.split()[4] for line in mounts if str(settings.store_dir) in line] == ["/pkg"]
