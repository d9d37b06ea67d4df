"""The executor runtime, without HTTP: validate a call, get its package, run it, bound the load.

`execute` raises RequestError or ExecutorBusy (exceptions.py); every outcome of a well-formed call, failures included, is an ExecutionResult.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from . import reaper
from .config import Settings
from .exceptions import (
    ExecutorBusy,
    ExecutorError,
    InvalidSpec,
    JsonProblem,
    PackageUnavailable,
    RequestError,
)
from .jsonvalues import check_json
from .npmspec import PackageSpec, parse_package_spec
from .runner import Runner, RunOutcome, ToolCall
from .sandbox import Sandbox
from .store import PackageStore

__all__ = [
    "ExecutionRequest",
    "ExecutionResult",
    "Executor",
    "ExecutorBusy",
    "ExecutorError",
    "RequestError",
]

log = logging.getLogger("tpmjs_executor")

_ENV_NAME = re.compile(r"^[^=\x00]+$")
_MAX_TOOL_NAME = 256
_SWEEP_INTERVAL_S = 2.0


@dataclass(frozen=True)
class ExecutionRequest:
    """One call: which tool of which package, with what params and env."""

    package_name: str
    name: str
    version: str | None = None
    params: Any = None
    env: Any = None


@dataclass(frozen=True)
class ExecutionResult:
    """The outcome of a call, success or not, with the time it took end to end."""

    success: bool
    execution_time_ms: int
    output: Any = None
    error_code: str | None = None
    error_message: str | None = None
    logs: tuple[str, ...] = field(default_factory=tuple)


def _check_env(env: Any) -> dict[str, str]:
    # The platform sometimes sends a tool's env declaration (a list): not an env, ignored.
    if not isinstance(env, dict):
        return {}
    for key, value in env.items():
        if not isinstance(key, str) or not _ENV_NAME.match(key):
            raise RequestError(f"env key {key!r} is not a valid environment variable name")
        if not isinstance(value, str) or "\x00" in value:
            raise RequestError(f"env value of {key!r} must be a string without NUL characters")
    return dict(env)


class Executor:
    """Runs tool calls; `start()` before use, `close()` after."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        settings.store_dir.mkdir(parents=True, exist_ok=True)
        self.sandbox = Sandbox(settings, settings.store_dir)
        self.runner = Runner(settings, self.sandbox)
        self.store = PackageStore.from_settings(settings, on_evict=self.runner.discard)
        self._slots = asyncio.Semaphore(settings.max_concurrency)
        self._admitted = 0
        self._sweeper: asyncio.Task[None] | None = None
        self.node_version = ""

    @property
    def isolation(self) -> str:
        """`container` under bubblewrap, else `process`."""
        return self.sandbox.isolation

    @property
    def active(self) -> int:
        """Calls admitted and not finished (running, installing or queued)."""
        return self._admitted

    async def start(self) -> None:
        """Become the reaper of our process trees, load the store, start seeding."""
        reaper.become_subreaper()
        ok, output = await self._probe()
        if not ok:
            hint = (
                "; pass --isolation process to run tools without a sandbox (see the README "
                "for what that does not protect)"
                if self.sandbox.bwrap
                else ""
            )
            raise RuntimeError(f"cannot run Node.js tools here: {output}{hint}")
        if self.settings.cgroups and not self.sandbox.limits.cgroups:
            raise RuntimeError(
                "no usable cgroups: a run's processes would be capped one by one, not together. "
                "Give the service a writable cgroup of its own (as root; in a container, "
                "deploy/README.md says how), or pass --no-cgroups (EXECUTOR_CGROUPS=0) to run "
                "with per-process limits only"
            )
        log.log(logging.INFO if self.sandbox.limits.cgroups else logging.WARNING,
                "limits: %s", self.sandbox.limits.describe())
        self.node_version = output.lstrip("v")
        await self.store.start(self.settings.seed_dir)
        self._sweeper = asyncio.create_task(self._sweep())

    async def _probe(self) -> tuple[bool, str]:
        plan = self.sandbox.version_command()
        try:
            proc = await asyncio.create_subprocess_exec(
                *plan.argv,
                env=plan.env,
                cwd=plan.cwd,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT,
                pass_fds=plan.pass_fds,
                start_new_session=True,
            )
        except BaseException:
            plan.close_info()
            raise
        finally:
            plan.close_fds()
        network = problem = None
        try:
            network = await self.sandbox.attach_network(plan, proc.pid)
        except Exception as exc:  # the sandbox's network does not work here: refuse to start
            problem = f"{exc} (or pass --no-network)"
        out, _ = await proc.communicate(b"")
        if network is not None:
            await network.close()
        if plan.cgroup is not None:
            await plan.cgroup.remove()
        text = out.decode(errors="replace").strip()
        if problem is not None:
            return False, problem
        return proc.returncode == 0, text[-500:]

    async def close(self) -> None:
        """Stop idle processes, installs and the sweeper."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        await self.runner.close()
        await self.store.close()
        reaper.reap_orphans()
        self.sandbox.limits.remove()

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(_SWEEP_INTERVAL_S)
            reaper.reap_orphans()
            await self.runner.prune()

    async def execute(self, request: ExecutionRequest) -> ExecutionResult:
        """Run one call; raise RequestError or ExecutorBusy, else return its result."""
        started = time.monotonic()
        try:
            spec = parse_package_spec(request.package_name, request.version)
        except InvalidSpec as exc:
            raise RequestError(str(exc)) from None
        if (
            not isinstance(request.name, str)
            or not request.name
            or len(request.name) > _MAX_TOOL_NAME
        ):
            raise RequestError(
                f"name must be a non-empty string of at most {_MAX_TOOL_NAME} characters"
            )
        if request.params is not None and not isinstance(request.params, dict):
            raise RequestError("params must be an object")
        env = _check_env(request.env)
        try:
            check_json(request.name, "name")
            check_json(request.params, "params")
            check_json(env, "env")
        except JsonProblem as exc:
            raise RequestError(str(exc)) from None
        limit = self.settings.max_concurrency + self.settings.max_queue
        if self._admitted >= limit:
            raise ExecutorBusy(
                f"Executor at capacity: {self.settings.max_concurrency} executions running and "
                f"{self.settings.max_queue} queued; retry later"
            )
        self._admitted += 1
        try:
            outcome = await self._execute(spec, request, env)
        finally:
            self._admitted -= 1
        elapsed = int((time.monotonic() - started) * 1000)
        return ExecutionResult(
            success=outcome.ok,
            execution_time_ms=elapsed,
            output=outcome.output,
            error_code=outcome.code,
            error_message=outcome.message,
            logs=outcome.logs,
        )

    async def _execute(
        self, spec: PackageSpec, request: ExecutionRequest, env: dict[str, str]
    ) -> RunOutcome:
        try:
            async with self.store.lease(spec) as entry, self._slots:
                call = ToolCall(
                    package_name=entry.name,
                    label=entry.label,
                    name=request.name,
                    params=request.params,
                    env=env,
                    tool_call_id=f"call_{uuid.uuid4().hex}",
                )
                timeout_ms = round(self.settings.execution_timeout_s * 1000)
                return await self.runner.run(entry.path, call, timeout_ms)
        except PackageUnavailable as exc:
            return RunOutcome(False, code="PACKAGE_NOT_FOUND", message=str(exc))
        except Exception as exc:
            log.exception("execution of %s failed", spec)
            return RunOutcome(False, code="INTERNAL_ERROR", message=f"Internal error: {exc}")
