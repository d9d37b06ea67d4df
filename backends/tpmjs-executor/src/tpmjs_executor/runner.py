"""Running one tool call in its own Node process, fresh or taken from a pool of started ones.

Every call gets a process of its own, used once: the harness (harness/harness.mjs) loaded in
a sandbox for the call's package. The call goes in over a control pipe; the result comes back
over a result pipe, so whatever the tool prints cannot corrupt it. When the result is in, or
the time limit passes, the whole sandbox is killed: under bubblewrap by killing the PID
namespace's init (which takes every process inside with it), otherwise the process group.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import shutil
import signal
import time
from collections import OrderedDict
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import reaper
from .config import Settings
from .jsonvalues import MAX_DEPTH, JsonProblem, clean_json, clean_text
from .network import RunNetwork
from .sandbox import Sandbox, SandboxPlan

__all__ = ["LOADER", "RunOutcome", "Runner", "ToolCall"]

log = logging.getLogger("tpmjs_executor.runner")

# Written into every store entry: a dynamic import from inside the entry resolves the package
# from the entry's node_modules with ESM rules, for ESM and CommonJS packages alike.
LOADER = Path(".tpmjs") / "load.mjs"
_STDERR_TAIL = 4096
_READY_TIMEOUT_S = 10.0
_ABORT_GRACE_S = 0.1
_IDLE_MAX_AGE_S = 300.0
# The codes a harness may answer; anything else in a result line is the tool's forgery.
_TOOL_CODES = frozenset({"TOOL_NOT_FOUND", "TOOL_INVALID", "TOOL_EXECUTION_ERROR"})
_MAX_MESSAGE_CHARS = 8192


@dataclass(frozen=True)
class ToolCall:
    """What the harness needs for one call."""

    package_name: str
    label: str  # name@version, for messages
    name: str
    params: dict[str, Any] | None
    env: dict[str, str]
    tool_call_id: str


@dataclass(frozen=True)
class RunOutcome:
    """A call's result: `ok` with `output`, or an error `code` and `message`."""

    ok: bool
    output: Any = None
    code: str | None = None
    message: str | None = None
    logs: tuple[str, ...] = ()


@dataclass
class _Process:
    """One started harness process and its pipes."""

    plan: SandboxPlan
    proc: asyncio.subprocess.Process
    reader: asyncio.StreamReader
    control: asyncio.WriteTransport
    results: asyncio.ReadTransport
    stderr_task: asyncio.Task[None]
    stderr_tail: bytearray = field(default_factory=bytearray)
    network: RunNetwork | None = None
    started: float = field(default_factory=time.monotonic)


@dataclass
class _Spawned:
    """A started run's process and our ends of its pipes, before they are wrapped."""

    plan: SandboxPlan
    proc: asyncio.subprocess.Process
    control_w: int
    result_r: int
    err_r: int


class Runner:
    """Starts tool processes (keeping up to `pool_size` idle ones ready) and runs calls."""

    def __init__(self, settings: Settings, sandbox: Sandbox) -> None:
        self._settings = settings
        self._sandbox = sandbox
        self._idle: OrderedDict[Path, list[_Process]] = OrderedDict()
        self._tasks: set[asyncio.Task[None]] = set()
        self._starting: dict[Path, int] = {}
        # One run started ahead, waiting in its cgroup for a package (Sandbox.plan(None)).
        self._launchers: list[_Spawned] = []
        self._launchers_starting = False
        self._closed = False

    @property
    def idle_count(self) -> int:
        """Started processes waiting for a call."""
        return sum(len(v) for v in self._idle.values())

    async def run(self, entry_dir: Path, call: ToolCall, timeout_ms: int) -> RunOutcome:
        """Run `call` against the package installed in `entry_dir`, within `timeout_ms`."""
        process = self._take_idle(entry_dir) or await self._start(entry_dir)
        try:
            return await self._call(process, call, timeout_ms)
        finally:
            # The answer does not wait for the teardown: the sandbox is killed at once, and
            # reaped (and the pool refilled) in the background.
            self._background(self._retire(process, entry_dir))

    def _background(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _retire(self, process: _Process, entry_dir: Path) -> None:
        await self._kill(process)
        if self._settings.pool_size > 0 and not self._closed:
            try:
                await self._refill(entry_dir)
            except Exception:
                log.exception("could not start a pooled tool process for %s", entry_dir)

    async def discard(self, entry_dir: Path) -> None:
        """Kill the idle processes started for `entry_dir` (its entry is being removed)."""
        for process in self._idle.pop(entry_dir, []):
            await self._kill(process)

    async def prune(self) -> None:
        """Kill idle processes that died or waited too long."""
        now = time.monotonic()
        stale = []
        for entry_dir, processes in list(self._idle.items()):
            for process in list(processes):
                if process.proc.returncode is not None or now - process.started > _IDLE_MAX_AGE_S:
                    processes.remove(process)
                    stale.append(process)
            if not processes:
                del self._idle[entry_dir]
        for process in stale:
            await self._kill(process)

    async def close(self) -> None:
        """Finish teardowns, stop refilling, kill every idle process."""
        self._closed = True
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for entry_dir in list(self._idle):
            await self.discard(entry_dir)
        while self._launchers:
            await self._discard_spawned(self._launchers.pop())

    def _take_idle(self, entry_dir: Path) -> _Process | None:
        processes = self._idle.get(entry_dir)
        while processes:
            process = processes.pop(0)
            if process.proc.returncode is None:
                return process
            self._background(self._kill(process))
        return None

    async def _refill(self, entry_dir: Path) -> None:
        waiting = len(self._idle.get(entry_dir, ())) + self._starting.get(entry_dir, 0)
        if waiting >= self._settings.pool_size:
            return
        self._starting[entry_dir] = self._starting.get(entry_dir, 0) + 1
        try:
            process = await self._start(entry_dir)
        finally:
            self._starting[entry_dir] -= 1
            if not self._starting[entry_dir]:
                del self._starting[entry_dir]
        if self._closed or not entry_dir.is_dir():
            await self._kill(process)
            return
        self._idle.setdefault(entry_dir, []).append(process)
        self._idle.move_to_end(entry_dir)
        # Over the budget: the least recently refilled entries give theirs up first.
        while self.idle_count > self._settings.pool_size:
            oldest = next(iter(self._idle))
            victims = self._idle[oldest]
            victim = victims.pop(0)
            if not victims:
                del self._idle[oldest]
            await self._kill(victim)

    async def _start(self, entry_dir: Path) -> _Process:
        spawned = self._take_launcher()
        if spawned is None:
            spawned = await self._spawn(entry_dir)
        if self._launchers_wanted:
            self._background(self._refill_launchers())
        return await self._finish(spawned, entry_dir)

    @property
    def _launchers_wanted(self) -> bool:
        # A run started ahead joins its cgroup ahead: only worth it with cgroups (bubblewrap).
        return self._sandbox.bwrap and self._sandbox.limits.cgroups and not self._closed

    def _take_launcher(self) -> _Spawned | None:
        while self._launchers:
            spawned = self._launchers.pop()
            if spawned.proc.returncode is None:
                return spawned
            self._background(self._discard_spawned(spawned))
        return None

    async def _refill_launchers(self) -> None:
        if self._launchers or self._launchers_starting or not self._launchers_wanted:
            return
        self._launchers_starting = True
        try:
            spawned = await self._spawn(None)
        except Exception:
            log.exception("could not start a waiting tool process")
            return
        finally:
            self._launchers_starting = False
        if self._closed:
            await self._discard_spawned(spawned)
        else:
            self._launchers.append(spawned)

    async def _spawn(self, entry_dir: Path | None) -> _Spawned:
        """Start a run's process: for `entry_dir`, or (None) one that waits for its package."""
        control_r, control_w = os.pipe()
        result_r, result_w = os.pipe()
        err_r, err_w = os.pipe()
        try:
            plan = self._sandbox.plan(entry_dir, control_r, result_w)
        except BaseException:
            for fd in (control_r, control_w, result_r, result_w, err_r, err_w):
                os.close(fd)
            raise
        try:
            with reaper.spawning():
                proc = await asyncio.create_subprocess_exec(
                    *plan.argv,
                    stdin=asyncio.subprocess.DEVNULL,
                    stdout=asyncio.subprocess.DEVNULL,
                    stderr=err_w,
                    pass_fds=(control_r, result_w, *plan.pass_fds),
                    env=plan.env,
                    cwd=plan.cwd,
                    start_new_session=True,
                )
                reaper.track(proc.pid)
        except BaseException:
            for fd in (control_w, result_r, err_r):
                os.close(fd)
            plan.close_info()
            plan.close_args()
            if plan.cgroup is not None:
                await plan.cgroup.remove()
            raise
        finally:
            plan.close_fds()
            for fd in (control_r, result_w, err_w):
                os.close(fd)
        return _Spawned(plan, proc, control_w, result_r, err_r)

    async def _discard_spawned(self, spawned: _Spawned) -> None:
        """End a waiting run that will never be launched (killed before its args close)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(spawned.proc.pid, signal.SIGKILL)
        await spawned.proc.wait()
        reaper.untrack(spawned.proc.pid)
        spawned.plan.close_args()
        spawned.plan.close_info()
        for fd in (spawned.control_w, spawned.result_r, spawned.err_r):
            os.close(fd)
        if spawned.plan.cgroup is not None:
            await spawned.plan.cgroup.remove()

    async def _finish(self, spawned: _Spawned, entry_dir: Path) -> _Process:
        loop = asyncio.get_running_loop()
        plan, proc = spawned.plan, spawned.proc
        if plan.args_fds:
            try:
                self._sandbox.launch(plan, entry_dir)
            except BaseException:
                await self._discard_spawned(spawned)
                raise
        limit = self._settings.max_output_bytes + self._settings.max_log_bytes * 2 + 65536
        reader = asyncio.StreamReader(limit=limit)
        results, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader),
            os.fdopen(spawned.result_r, "rb", buffering=0),
        )
        control, _ = await loop.connect_write_pipe(
            asyncio.Protocol, os.fdopen(spawned.control_w, "wb", buffering=0)
        )
        tail = bytearray()
        stderr_task = asyncio.create_task(_drain(spawned.err_r, tail))
        process = _Process(plan, proc, reader, control, results, stderr_task, tail)
        # Node starts meanwhile; the call (and so the tool's code) waits for the network.
        try:
            process.network = await self._sandbox.attach_network(plan, proc.pid)
        except BaseException:
            plan.close_info()
            await self._kill(process)
            raise
        return process

    async def _call(self, process: _Process, call: ToolCall, timeout_ms: int) -> RunOutcome:
        # The result line must start with this: the tool shares the harness's pipe and realm,
        # but never sees the request, so it cannot write a line the service would take.
        nonce = secrets.token_hex(16)
        request = {
            "nonce": nonce,
            "loader": str(Path(process.plan.package_dir) / LOADER),
            "packageName": call.package_name,
            "label": call.label,
            "name": call.name,
            "params": call.params,
            "env": call.env,
            "toolCallId": call.tool_call_id,
            "maxOutputBytes": self._settings.max_output_bytes,
            "maxLogBytes": self._settings.max_log_bytes,
            "maxOutputDepth": MAX_DEPTH,
        }
        process.control.write(json.dumps(request).encode() + b"\n")
        try:
            return await asyncio.wait_for(self._result(process, nonce), timeout_ms / 1000)
        except TimeoutError:
            with contextlib.suppress(Exception):
                process.control.write(b"abort\n")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.proc.wait(), _ABORT_GRACE_S)
            return RunOutcome(
                False,
                code="EXECUTION_TIMEOUT",
                message=f"Execution exceeded {timeout_ms}ms time limit",
            )

    async def _result(self, process: _Process, nonce: str) -> RunOutcome:
        prefix = nonce.encode() + b" "
        while True:
            try:
                line = await process.reader.readline()
            except ValueError:
                return RunOutcome(
                    False, code="TOOL_EXECUTION_ERROR", message="Tool output too large"
                )
            if not line:
                return await self._died(process)
            if not line.startswith(prefix):
                continue  # the ready line, or whatever the tool wrote into the pipe itself
            frame = line[len(prefix) :]
            # A large output is parsed off the event loop, so /health stays fast meanwhile.
            if len(frame) > 262144:
                return await asyncio.to_thread(_outcome, frame)
            return _outcome(frame)

    async def _died(self, process: _Process) -> RunOutcome:
        status = await process.proc.wait()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(process.stderr_task), 0.2)
        stderr = clean_text(process.stderr_tail.decode(errors="replace"))
        cgroup = process.plan.cgroup
        out_of_memory, out_of_tasks = cgroup.tripped() if cgroup is not None else (False, False)
        if out_of_memory or "heap out of memory" in stderr or "Reached heap limit" in stderr:
            message = (
                f"Tool ran out of memory (limit {self._settings.memory_mb} MB) and was stopped"
            )
        elif out_of_tasks:
            message = (
                f"Tool reached the limit of {self._settings.max_tasks} processes and threads "
                f"and was stopped"
            )
        else:
            how = f"signal {-status}" if status < 0 else f"exit code {status}"
            last = [line for line in stderr.splitlines() if line.strip()][-1:]
            message = f"Tool process ended without a result ({how})" + (
                f": {last[0][:500]}" if last else ""
            )
        return RunOutcome(False, code="TOOL_EXECUTION_ERROR", message=message)

    async def _kill(self, process: _Process) -> None:
        proc = process.proc
        if proc.returncode is None:
            if self._sandbox.bwrap:
                # Kill the namespace's init (bwrap's child): every process inside dies with it,
                # and the outer bwrap, our child, then exits and is reaped normally.
                for child in reaper.list_children(proc.pid):
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(child, signal.SIGKILL)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(proc.wait(), 1.0)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
        elif not self._sandbox.bwrap:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
        await proc.wait()
        reaper.untrack(proc.pid)
        process.control.close()
        process.results.close()
        process.stderr_task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await process.stderr_task
        if process.network is not None:
            await process.network.close()
        if process.plan.cgroup is not None:
            await process.plan.cgroup.remove()
        if process.plan.scratch is not None:
            await asyncio.to_thread(shutil.rmtree, process.plan.scratch, True)
        reaper.reap_orphans()


def _outcome(frame: bytes) -> RunOutcome:
    """The outcome a result line describes; its shape is checked, as the tool may have
    tampered with the harness (any failure to match is the tool's error, never ours)."""
    try:
        # Non-finite numbers are not JSON: the harness writes null for them.
        message = json.loads(frame, parse_constant=lambda _: None)
        if not isinstance(message, dict):
            raise JsonProblem("Tool sent a malformed result")
        raw_logs = message.get("logs")
        logs = tuple(clean_text(str(x)) for x in (raw_logs if isinstance(raw_logs, list) else ()))
        if message.get("ok") is True:
            return RunOutcome(
                True, output=clean_json(message.get("output"), "Tool output"), logs=logs
            )
    except JsonProblem as exc:
        return RunOutcome(False, code="TOOL_EXECUTION_ERROR", message=str(exc))
    except (ValueError, RecursionError):
        return RunOutcome(
            False, code="TOOL_EXECUTION_ERROR", message="Tool sent a result that is not JSON"
        )
    code = message.get("code")
    text = message.get("message")
    text = clean_text(text if isinstance(text, str) else "Tool failed")[:_MAX_MESSAGE_CHARS]
    return RunOutcome(
        False, code=code if code in _TOOL_CODES else "TOOL_EXECUTION_ERROR", message=text, logs=logs
    )


async def _drain(fd: int, tail: bytearray) -> None:
    """Read a pipe to its end in a thread-free way, keeping only its last bytes."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    transport, _ = await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(fd, "rb", buffering=0)
    )
    try:
        while chunk := await reader.read(65536):
            tail.extend(chunk)
            del tail[:-_STDERR_TAIL]
    finally:
        transport.close()
