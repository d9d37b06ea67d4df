"""One sandbox: a bubblewrap container (or, with isolation "none", a bare process) running
the agent, and the calls made to it.

bwrap is started under a host uid of the sandbox's own (when the service is root) with an
empty environment, its arguments on a pipe rather than its command line, and
``--die-with-parent``. Its PID 1 is bwrap's own reaper, so zombies inside never reach the
service; killing that PID 1 ends every process in the sandbox at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import select
import shlex
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

from .agentio import Capture, Channel, ProtocolError, output_pipe
from .bwrap import AGENT_HOME, WORKSPACE, bwrap_arguments, sandbox_environment
from .calls import CallResult, readable, shape_reply, until_dead
from .cgroups import SandboxCgroup
from .config import Settings
from .exceptions import SandboxUnavailable
from .layout import AGENT_PACKAGE, Layout
from .processes import list_children

logger = logging.getLogger(__name__)

LAUNCHER = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    f"from {AGENT_PACKAGE}.main import main; raise SystemExit(main(sys.argv[2:]))"
)
START_TIMEOUT = 15.0
# A sandbox idle this long after a call is frozen until the next one (strays: at once).
FREEZE_AFTER = 0.05
# A stray killed while frozen dies within this once thawed (it is only scheduled and ends).
STRAY_DEATH_BUDGET = 1.0
EOF_GRACE = 0.5


class Sandbox:
    """Starts, calls and ends one sandbox; a stopped sandbox can be started again."""

    def __init__(
        self,
        config: Settings,
        layout: Layout,
        workspace: Path,
        uid: int | None,
        *,
        spawner: Executor | None = None,
        cgroup: SandboxCgroup | None = None,
    ) -> None:
        self.config = config
        self.cgroup = cgroup
        self.layout = layout
        self.workspace = workspace
        self.uid = uid
        self.spawner = spawner
        self.stop_reason: str | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._proc_fd: int | None = None
        self._init_fd: int | None = None
        self._stderr_fd: int | None = None
        self._info_fd: int | None = None
        self._info = b""
        self._channel: Channel | None = None
        self._stopped = asyncio.Event()
        self._reaping: asyncio.Future[None] | None = None
        self._seq = 0
        self._in_call = False
        # Host pids of bwrap, its PID 1 and the agent: what may stay between calls.
        self._init_pid: int | None = None
        self._resident: set[int] = set()
        # Strays killed while the sandbox was frozen: they die on the next thaw.
        self._killed: list[int] = []
        self._freezing: asyncio.TimerHandle | None = None

    @property
    def alive(self) -> bool:
        """True while the agent can take a call."""
        return self._channel is not None and self._proc is not None and self._proc.poll() is None

    @property
    def kill_mode(self) -> str:
        """How the agent finds the processes a call left behind."""
        if self.config.isolation == "bwrap":
            return "namespace"
        return "uid" if self.uid is not None else "descendants"

    # -- lifecycle ----------------------------------------------------------------------

    async def start(self, *, background: bool = False) -> None:
        """Spawn the sandbox and wait for the agent's hello.

        A ``background`` start (warming the pool) boots at low CPU priority, out of the way
        of live requests, and is raised to normal priority once it is ready.
        """
        self.stop_reason = None
        self._stopped = asyncio.Event()
        self._reaping = None
        if self.cgroup is not None:
            # A restart joins the same cgroup: it must not be born frozen.
            self.cgroup.thaw()
        parent, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        channel = Channel(parent, max_frame=16 * self.config.output_cap_bytes + (1 << 20))
        try:
            try:
                await self._launch(child.fileno(), background)
            finally:
                child.close()
            async with asyncio.timeout(START_TIMEOUT):
                # PID 1 first: from then on a failure can be cleaned up without orphans.
                if self._info_fd is not None:
                    self._init_fd = await self._read_init_pid()
                hello = await channel.receive()
            if hello.get("ready") is not True:
                raise ProtocolError("no hello")
            self._resident = {p for p in (self._proc and self._proc.pid, self._init_pid) if p}
            if self._init_pid is not None:
                self._resident.update(list_children(self._init_pid))
            if background and self.uid is not None:
                # Every process of this uid is this sandbox's. Raising a priority needs
                # CAP_SYS_NICE, which a container may lack: then it stays low, and runs.
                with contextlib.suppress(PermissionError):
                    os.setpriority(os.PRIO_USER, self.uid, 0)
        except (TimeoutError, EOFError, ProtocolError, OSError, ValueError) as exc:
            channel.close()
            detail = self._startup_error()
            await self.stop("died")
            raise SandboxUnavailable(f"sandbox did not start: {detail or exc!r}") from exc
        except asyncio.CancelledError:
            channel.close()
            await self.stop("stopped")
            raise
        finally:
            self._close_info()
        self._channel = channel

    async def _launch(self, agent_fd: int, background: bool) -> None:
        argv, pass_fds, env, cwd, to_close = self._command(agent_fd, background)
        stderr_read, stderr_write = os.pipe2(os.O_CLOEXEC)
        self._stderr_fd = stderr_read
        isolation = self.config.isolation

        def popen() -> subprocess.Popen[bytes]:
            return subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr_write,
                pass_fds=pass_fds,
                env=env,
                cwd=cwd,
                start_new_session=isolation == "none",
            )

        try:
            await self._spawn(popen)
        finally:
            os.close(stderr_write)
            for fd in to_close:
                os.close(fd)

    async def _spawn(self, popen: Callable[[], subprocess.Popen[bytes]]) -> None:
        """Start the process, off the event loop when there is a spawner thread.

        Popen blocks until the child has exec'd: milliseconds a live request would wait.
        The spawner must be one long-lived thread: ``--die-with-parent`` ties each sandbox to
        the thread that started it.
        """
        if self.spawner is None:
            self._adopt(popen())
            return
        pending = asyncio.get_running_loop().run_in_executor(self.spawner, popen)
        try:
            self._adopt(await asyncio.shield(pending))
        except asyncio.CancelledError:
            # The process exists regardless: record it so that it can be ended.
            self._adopt(await pending)
            raise

    def _adopt(self, proc: subprocess.Popen[bytes]) -> None:
        self._proc = proc
        self._proc_fd = os.pidfd_open(proc.pid)

    def _command(
        self, agent_fd: int, background: bool
    ) -> tuple[list[str], tuple[int, ...], dict[str, str], str | None, list[int]]:
        config = self.config
        inside = WORKSPACE if config.isolation == "bwrap" else str(self.workspace)
        home = AGENT_HOME if config.isolation == "bwrap" else str(self.layout.agent_home)
        # A cgroup caps processes for the whole sandbox, so no per-uid count is needed.
        nproc = config.nproc if self.uid is not None and self.cgroup is None else 0
        agent = [
            config.python, "-I", "-c", LAUNCHER, home,
            "--fd", str(agent_fd), "--workspace", inside, "--kill", self.kill_mode,
            "--memory-mb", str(config.memory_mb), "--nproc", str(nproc),
            "--fsize-mb", str(config.fsize_mb), "--open-files", str(config.open_files),
            "--cpu-seconds", str(config.cpu_seconds), "--output-cap", str(config.output_cap_bytes),
        ]
        prefix: list[str] = []
        if self.uid is not None:
            setpriv = shutil.which("setpriv") or "/usr/bin/setpriv"
            prefix = [setpriv, f"--reuid={self.uid}", f"--regid={self.uid}", "--clear-groups", "--"]
            # Raised back once ready, which needs root: only with a uid of its own.
            nice = shutil.which("nice")
            if background and nice:
                prefix = [nice, "-n", "15", *prefix]
        if self.cgroup is not None:
            # Joined before exec, so every process of the sandbox is born inside.
            joins = " && ".join(f"echo $$ > {shlex.quote(str(f))}" for f in self.cgroup.procs_files)
            # The shell exports PWD to what it execs: unset, bwrap's environment stays empty.
            prefix = ["/bin/sh", "-c", f'{joins} && unset PWD && exec "$@"', "sh", *prefix]
        if config.isolation == "none":
            env = sandbox_environment(inside)
            return [*prefix, *agent], (agent_fd,), env, inside, []
        info_read, info_write = os.pipe2(os.O_CLOEXEC)
        os.set_blocking(info_read, False)
        self._info_fd, self._info = info_read, b""
        args_read, args_write = os.pipe2(os.O_CLOEXEC)
        options = [*bwrap_arguments(config, self.layout, self.workspace), "--info-fd", str(info_write)]
        # Through a pipe so /proc/1/cmdline inside does not show the host's paths; a few
        # KiB, well under the pipe's buffer.
        os.write(args_write, b"".join(os.fsencode(a) + b"\0" for a in options))
        os.close(args_write)
        argv = [*prefix, config.bwrap, "--args", str(args_read), *agent]
        # bwrap's own environment stays readable through /proc inside (/proc/1/environ): give
        # it none, and start it in / so that no host path shows as its cwd.
        return argv, (args_read, info_write, agent_fd), {}, "/", [args_read, info_write]

    async def _read_init_pid(self) -> int:
        """A pidfd for the sandbox's PID 1, from the JSON bwrap writes on --info-fd."""
        while True:
            assert self._info_fd is not None
            await readable(self._info_fd)
            found = self._take_info()
            if found is not None:
                return found

    def _take_info(self) -> int | None:
        """Read what the info pipe holds; the PID 1 pidfd once the JSON is complete."""
        assert self._info_fd is not None
        try:
            chunk = os.read(self._info_fd, 4096)
        except BlockingIOError:
            return None
        self._info += chunk
        with contextlib.suppress(ValueError):
            pid = int(json.loads(self._info)["child-pid"])
            fd = os.pidfd_open(pid)
            self._init_pid = pid
            return fd
        if not chunk:
            raise ProtocolError("bwrap reported no child pid")
        return None

    def _close_info(self) -> None:
        if self._info_fd is not None:
            os.close(self._info_fd)
            self._info_fd = None

    def _startup_error(self) -> str:
        if self._stderr_fd is None:
            return ""
        os.set_blocking(self._stderr_fd, False)
        with contextlib.suppress(OSError):
            return os.read(self._stderr_fd, 4096).decode("utf-8", "replace").strip()
        return ""

    def _kill_now(self) -> None:
        """SIGKILL the sandbox's PID 1, which ends everything inside at once.

        bwrap's outer process then exits by itself after reaping that PID 1. Killing the
        outer one instead is a last resort: a PID 1 still being set up would not be told
        and would linger, orphaned.
        """
        self._stopped.set()
        if self._freezing is not None:
            self._freezing.cancel()
            self._freezing = None
        if self._init_fd is None and self._info_fd is not None and self._proc is not None:
            # A start cut short: bwrap writes the PID within milliseconds of starting.
            deadline = time.monotonic() + 1.0
            with contextlib.suppress(ProtocolError, OSError):
                while self._init_fd is None and time.monotonic() < deadline:
                    select.select([self._info_fd], [], [], max(0.0, deadline - time.monotonic()))
                    self._init_fd = self._take_info()
        if self._init_fd is not None:
            with contextlib.suppress(ProcessLookupError):
                signal.pidfd_send_signal(self._init_fd, signal.SIGKILL)
            self._thaw()
            return
        if self.config.isolation == "none" and self.uid is not None:
            # No PID namespace: everything under the sandbox's own uid is the sandbox.
            setpriv = shutil.which("setpriv") or "/usr/bin/setpriv"
            with contextlib.suppress(OSError):
                subprocess.run(
                    [setpriv, f"--reuid={self.uid}", f"--regid={self.uid}", "--clear-groups",
                     "--", "kill", "-KILL", "-1"],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                )
        self._kill_outer()

    def _thaw(self) -> None:
        # A frozen process takes its SIGKILL only once thawed.
        if self.cgroup is not None:
            with contextlib.suppress(OSError):
                self.cgroup.thaw()

    def _after_call(self) -> None:
        """Schedule the freeze of an idle sandbox; at once if a process outlived the call."""
        if self.cgroup is None or not self.cgroup.can_freeze or self.stop_reason is not None:
            return
        if self.cgroup.tasks() > len(self._resident):
            # A process or a thread outlived the call (the agent and bwrap are one task each).
            self._freeze()
            return
        # Back-to-back calls pay nothing; a sandbox idle for FREEZE_AFTER is frozen.
        self._freezing = asyncio.get_running_loop().call_later(FREEZE_AFTER, self._freeze)

    def _freeze(self) -> None:
        """Stop the whole sandbox until the next call, and kill what a call left behind.

        The agent ended every process at the end of the call, but user code may have left a
        thread in the interpreter that starts more (or a signal handler, a timer): frozen, it
        spends no CPU, and the processes it made are killed (they die on the next thaw,
        before anything of the call runs).
        """
        # Never during a call: a call cancels the timer before anything else.
        self._freezing = None
        if self.cgroup is None or self.stop_reason is not None:
            return
        try:
            self.cgroup.freeze()
        except OSError as exc:
            logger.warning("could not freeze sandbox: %s", exc)
            return
        for pid in self.cgroup.pids():
            if pid not in self._resident:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
                    self._killed.append(pid)

    def _kill_outer(self) -> None:
        self._thaw()
        if self._proc_fd is not None:
            with contextlib.suppress(ProcessLookupError):
                signal.pidfd_send_signal(self._proc_fd, signal.SIGKILL)
        if self._proc is not None and self.config.isolation == "none":
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._proc.pid, signal.SIGKILL)

    async def _reap(self) -> None:
        # Shared: a destroy and the call it interrupts both wait for the same reaping.
        if self._reaping is None:
            self._reaping = asyncio.ensure_future(self._reap_once())
        await asyncio.shield(self._reaping)

    async def _reap_once(self) -> None:
        if self._proc_fd is not None:
            if not await readable(self._proc_fd, 5.0):
                self._kill_outer()
                await readable(self._proc_fd, 5.0)
            os.close(self._proc_fd)
            self._proc_fd = None
        if self._proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._proc.wait(timeout=0.1)
        if self._init_fd is not None:
            # Only ours to reap if bwrap's monitor died first and we are the subreaper.
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitid(os.P_PIDFD, self._init_fd, os.WEXITED | os.WNOHANG)
            os.close(self._init_fd)
            self._init_fd = None
        if self._stderr_fd is not None:
            os.close(self._stderr_fd)
            self._stderr_fd = None

    async def stop(self, reason: str = "stopped") -> None:
        """End every process of the sandbox; an in-flight call returns with ``reason``."""
        if self.stop_reason is None:
            self.stop_reason = reason
        self._kill_now()
        await self._reap()
        if not self._in_call and self._channel is not None:
            self._channel.close()
            self._channel = None

    # -- calls --------------------------------------------------------------------------

    async def call(self, request: dict[str, Any], *, capture: bool, deadline: float) -> CallResult:
        """Send one request; wait at most ``deadline`` seconds for the answer."""
        channel = self._channel
        if channel is None or not self.alive:
            return CallResult(-1, failure=self.stop_reason or "died")
        captures: list[Capture] = []
        self._in_call = True
        if self._freezing is not None:
            self._freezing.cancel()
            self._freezing = None
        if self.cgroup is not None and self.cgroup.frozen:
            try:
                self.cgroup.thaw()
            except OSError:
                self._in_call = False
                return CallResult(-1, failure="died")
        if self._killed:
            # What the freeze killed dies before anything of the call runs.
            await until_dead(self._killed, STRAY_DEATH_BUDGET)
            self._killed = []
        try:
            write_ends: list[int] = []
            if capture:
                for _ in range(2):
                    pipe, write_end = output_pipe(self.config.output_cap_bytes)
                    captures.append(pipe)
                    write_ends.append(write_end)
            self._seq += 1
            reply, failure = await self._exchange(channel, {**request, "id": self._seq}, write_ends, deadline)
            if failure is not None:
                self.stop_reason = self.stop_reason or failure
                self._kill_now()
                await self._reap()
            for pipe in captures:
                await pipe.wait_eof(EOF_GRACE)
            result = shape_reply(reply, captures, self.stop_reason if failure else None, self.config.output_cap_bytes)
            if self.cgroup is not None:
                result.notes += self.cgroup.tripped()
                self._after_call()
            return result
        except asyncio.CancelledError:
            # The caller gave up mid-call: the agent's state is unknown, so it goes.
            self.stop_reason = self.stop_reason or "died"
            self._kill_now()
            raise
        finally:
            for pipe in captures:
                pipe.close()
            self._in_call = False
            if self.stop_reason is not None and self._channel is not None:
                self._channel.close()
                self._channel = None

    async def _exchange(
        self, channel: Channel, request: dict[str, Any], fds: list[int], deadline: float
    ) -> tuple[dict[str, Any], str | None]:
        loop = asyncio.get_running_loop()
        end = loop.time() + deadline
        try:
            # Within the deadline too: an agent that stops reading (user code can stall it)
            # must not hold a large request's send open forever.
            async with asyncio.timeout(deadline):
                await channel.send(request, fds)
        except TimeoutError:
            return {}, "unresponsive"
        except OSError:
            return {}, "died"
        finally:
            for fd in fds:
                os.close(fd)
        deadline = max(0.0, end - loop.time())
        receiving = asyncio.ensure_future(channel.receive())
        stopping = asyncio.ensure_future(self._stopped.wait())
        try:
            done, _ = await asyncio.wait(
                {receiving, stopping}, timeout=deadline, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            for task in (receiving, stopping):
                if not task.done():
                    task.cancel()
            await asyncio.gather(receiving, stopping, return_exceptions=True)
        if receiving not in done:
            return {}, "unresponsive" if stopping not in done else (self.stop_reason or "died")
        exc = receiving.exception()
        if exc is not None:
            return {}, "died"
        reply = receiving.result()
        if reply.get("id") != request["id"] or "error" in reply:
            return {}, "died"
        return reply, None
