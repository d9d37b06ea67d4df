"""Sessions: leasing pre-warmed sandboxes, serialising calls, reclaiming what is never
released, and tearing everything down so that nothing of a session survives it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import time
from collections import deque
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from . import cgroups as cgroups_module
from . import mounts
from .budget import default_total_memory_mb, ensure_fd_limit, fds_needed, pids_limit, sized_capacity
from .calls import CallResult
from .cgroups import CgroupTree, SandboxCgroup
from .config import MIB, Settings
from .exceptions import AtCapacity, SandboxUnavailable, SessionNotFound
from .files import Workspace
from .instance import new_session_id
from .layout import Layout
from .sandbox import Sandbox
from .tools import ExecOutcome, prepare, shape
from .trees import remove_tree
from .watchdog import Watchdog

logger = logging.getLogger(__name__)

def preflight(config: Settings) -> None:
    """Refuse a configuration that cannot work, with a message saying what to do."""
    if config.isolation == "bwrap" and not os.access(config.bwrap, os.X_OK):
        raise SandboxUnavailable(
            f"bubblewrap not found at {config.bwrap}; install it (apt-get install "
            "bubblewrap) or run with --isolation none to go without isolation"
        )
    if not os.access(config.python, os.X_OK):
        raise SandboxUnavailable(f"no Python interpreter at {config.python} (see --python)")


@dataclass
class Box:
    """A started sandbox with its workspace and host-uid slot."""

    sandbox: Sandbox
    workspace: Workspace
    slot: int | None


@dataclass
class Session:
    """One leased sandbox and its lifetime bookkeeping."""

    session_id: str
    box: Box
    idle_timeout_seconds: int
    max_lifetime_seconds: int
    created_at: float = field(default_factory=time.time)
    last_activity_at: float = field(default_factory=time.time)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    busy: int = 0
    closed: bool = False

    def touch(self) -> None:
        """Record activity."""
        self.last_activity_at = time.time()

    def expired(self, now: float) -> bool:
        """Past its lifetime, or idle too long (a running call is activity)."""
        if now - self.created_at > self.max_lifetime_seconds:
            return True
        return self.busy == 0 and now - self.last_activity_at > self.idle_timeout_seconds


class SessionManager:
    """Owns every sandbox of the service: the warm pool and the leased sessions."""

    def __init__(self, config: Settings) -> None:
        self.config = config
        self._layout: Layout | None = None
        self._sessions: dict[str, Session] = {}
        self._pool: deque[Box] = deque()
        self._reserved = 0
        self._free_slots: deque[int] = deque()
        self._use_uids = False
        self.cgroups: CgroupTree | None = None
        # Ends the sandboxes and removes the state if this process dies without close().
        self._watchdog: Watchdog | None = None
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False
        # One thread starts every sandbox (see Sandbox._spawn) and outlives them all.
        self._spawner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="otari-spawn")
        # Workspaces of ended sessions are deleted here, never in the threads file operations
        # use: a huge tree being deleted holds up no one.
        self._reclaimer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="otari-reclaim")
        self._reclaiming: set[asyncio.Future[None]] = set()
        # Sessions the service holds at most: config.capacity, lowered at start to what the fd
        # budget and the aggregate memory limit can carry.
        self.capacity = config.capacity
        # Sandboxes the pool failed to warm (each is retried): for /health and the tests.
        self.refill_errors = 0

    @property
    def layout(self) -> Layout:
        """The state directory (after start)."""
        if self._layout is None:
            raise RuntimeError("SessionManager.start() has not run")
        return self._layout

    def count(self) -> int:
        """Leased sessions."""
        return len(self._sessions)

    def pooled(self) -> int:
        """Warm sandboxes waiting to be leased."""
        return len(self._pool)

    # -- lifecycle ----------------------------------------------------------------------

    async def start(self) -> None:
        """Prepare the state directory, prove isolation works, start the pool and reaper."""
        config = self.config
        preflight(config)
        if config.isolation == "none":
            logger.warning(
                "ISOLATION IS OFF (--isolation none): user code runs as a plain process "
                "that can read the host's files and reach the network. Never expose this."
            )
        try:
            self._layout = Layout.create(config.workspace_root, mount=config.isolation == "bwrap")
        except OSError as exc:
            raise SandboxUnavailable(str(exc)) from exc
        self._use_uids = os.geteuid() == 0 and config.uid_base > 0
        if self._use_uids:
            # Least recently used first, so a uid is reused as late as possible.
            self._free_slots = deque(range(config.capacity + config.pool_size + 4))
        if config.cgroups:
            name = f"{cgroups_module.PREFIX}{os.getpid()}-{secrets.token_hex(3)}"
            self.cgroups = await asyncio.to_thread(
                CgroupTree.detect, name, config.memory_mb, config.nproc, config.cpus,
                config.total_memory_mb or default_total_memory_mb(),
            )
            if self.cgroups is None:
                # Without cgroups a session's memory and processes are capped per process
                # only: an operator must choose that (--no-cgroups), never get it by accident.
                raise SandboxUnavailable(
                    "no usable cgroups: sessions would run without memory and process caps per "
                    "sandbox. Give the service a writable cgroup of its own (as root; in a "
                    "container, deploy/README.md says how), or start it with --no-cgroups "
                    "(SANDBOX_CGROUPS=0) to run with per-process limits only"
                )
        parents = list(dict.fromkeys(self.cgroups.parents.values())) if self.cgroups else []
        self._watchdog = Watchdog(self.layout, parents)
        total = self.cgroups.total_memory_mb if self.cgroups is not None else 0
        # tmpfs quotas no cgroup charges: their sum is what the host may have to hold.
        storage = config.total_memory_mb or default_total_memory_mb()
        storage = storage if self.layout.mounted and self.cgroups is None else 0
        fd_limit = ensure_fd_limit(fds_needed(config))
        pids = pids_limit()
        self.capacity = sized_capacity(config, fd_limit, total, storage, pids)
        if self.capacity < config.capacity:
            logger.warning(
                "capacity lowered from %d to %d sessions (fd limit %d, memory for all sandboxes "
                "%s MiB, tasks %s%s)", config.capacity, self.capacity, fd_limit, total or "unlimited",
                pids or "unlimited",
                f", tmpfs quotas of {storage} MiB in all (no cgroup charges them)" if storage else "",
            )
        if self.cgroups is not None:
            logger.info("limits per sandbox: %s", self.cgroups.describe())
        else:
            logger.warning(
                "limits per process: cgroups off (--no-cgroups), so memory is capped per process "
                "(RLIMIT_AS) and processes per sandbox uid (RLIMIT_NPROC, root only)"
            )
        # One sandbox up front: a broken setup fails here, not on the first request.
        try:
            self._pool.append(await self._new_box())
        except BaseException:
            if self.cgroups is not None:
                await asyncio.to_thread(self.cgroups.remove)
            await asyncio.to_thread(self._watchdog.release)
            raise
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._fill()), loop.create_task(self._reap_loop())]

    async def close(self) -> None:
        """Destroy every session and pooled sandbox, then the state directory."""
        self._closing = True
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await asyncio.gather(
            *(self.destroy(sid, "stopped") for sid in list(self._sessions)),
            *(self._discard(box, "stopped") for box in self._pool),
        )
        self._pool.clear()
        await self.drain_reclaimer()
        self._spawner.shutdown(wait=False)
        self._reclaimer.shutdown(wait=False)
        if self.cgroups is not None:
            await asyncio.to_thread(self.cgroups.remove)
        if self._layout is not None:
            await asyncio.to_thread(self._layout.remove)
        if self._watchdog is not None:
            await asyncio.to_thread(self._watchdog.release)

    # -- boxes --------------------------------------------------------------------------

    async def _new_box(self, *, background: bool = False) -> Box:
        slot: int | None = None
        uid: int | None = None
        if self._use_uids:
            if not self._free_slots:
                raise AtCapacity("no sandbox slot is free")
            slot = self._free_slots.popleft()
            uid = self.config.uid_base + slot
        path = self.layout.workspaces / secrets.token_hex(8)
        cgroup: SandboxCgroup | None = None
        try:
            try:
                self._make_dirs(path, uid)
            except OSError as exc:
                raise SandboxUnavailable(f"could not prepare the sandbox's directories: {exc}") from exc
            if self.cgroups is not None:
                try:
                    cgroup = self.cgroups.child()
                except OSError as exc:
                    raise SandboxUnavailable(f"could not make the sandbox's cgroup: {exc}") from exc
            sandbox = Sandbox(self.config, self.layout, path, uid, spawner=self._spawner, cgroup=cgroup)
            await sandbox.start(background=background)
        except BaseException:
            if cgroup is not None:
                await cgroup.remove()
            self._remove_dirs(path)
            if slot is not None:
                self._free_slots.append(slot)
            raise
        owner = (uid, uid) if uid is not None else None
        charge = cgroup.memory_charge() if cgroup is not None and self.layout.mounted else None
        return Box(sandbox, Workspace(path, owner, charge), slot)

    async def _discard(self, box: Box, reason: str) -> None:
        try:
            await box.sandbox.stop(reason)
            if box.sandbox.cgroup is not None:
                await box.sandbox.cgroup.remove()
            self._remove_dirs(box.workspace.root)
        finally:
            if box.slot is not None:
                self._free_slots.append(box.slot)

    async def _fill(self) -> None:
        failures = 0
        while not self._closing:
            room = self.capacity - len(self._sessions) - self._reserved
            if len(self._pool) >= min(self.config.pool_size, room):
                self._wake.clear()
                await self._wake.wait()
                # A lease just happened and its first call usually follows at once: let that
                # call run before a sandbox boot competes with it for the CPU.
                await asyncio.sleep(self.config.refill_delay_seconds)
                continue
            try:
                box = await self._new_box(background=True)
            except Exception as exc:
                # A full disk, a cgroup refused, a slow boot: all may pass. The pool keeps
                # trying, backing off up to 5 s, for as long as the service runs.
                failures += 1
                self.refill_errors += 1
                delay = min(0.05 * 2**failures, 5.0)
                logger.warning("could not warm a sandbox (retrying in %.1f s): %s", delay, exc)
                await asyncio.sleep(delay)
                continue
            failures = 0
            self._pool.append(box)

    def _take_pooled(self) -> Box | None:
        while self._pool:
            box = self._pool.popleft()
            if box.sandbox.alive:
                return box
            asyncio.get_running_loop().create_task(self._discard(box, "died"))
        return None

    # -- sessions -----------------------------------------------------------------------

    async def create(
        self, idle_timeout_seconds: int | None = None, max_lifetime_seconds: int | None = None
    ) -> Session:
        """Lease a sandbox; hints are clamped to the service's ceilings."""
        config = self.config
        if len(self._sessions) + self._reserved >= self.capacity:
            raise AtCapacity(f"sandbox holds {len(self._sessions)} sessions (max={self.capacity})")
        self._reserved += 1
        try:
            box = self._take_pooled() or await self._new_box()
        except OSError as exc:
            # Out of fds, disk or memory: the client is told to come back (503), not a 500.
            raise SandboxUnavailable(f"could not start a sandbox: {exc}") from exc
        finally:
            self._reserved -= 1
            self._wake.set()
        idle = min(max(idle_timeout_seconds or config.idle_timeout_seconds, 1), config.idle_timeout_seconds)
        lifetime = min(
            max(max_lifetime_seconds or config.max_lifetime_seconds, 1), config.max_lifetime_seconds
        )
        session = Session(new_session_id(config.instance), box, idle, lifetime)
        self._sessions[session.session_id] = session
        return session

    def get(self, session_id: str) -> Session:
        """The live session with this id."""
        session = self._sessions.get(session_id)
        if session is None:
            raise SessionNotFound(f"session not found: {session_id}")
        return session

    def workspace(self, session_id: str) -> Workspace:
        """The session's workspace, for file operations (counts as activity)."""
        session = self.get(session_id)
        session.touch()
        return session.box.workspace

    async def destroy(self, session_id: str, reason: str = "destroyed") -> bool:
        """End a session; False if there was none. An in-flight call returns cleanly."""
        session = self._sessions.pop(session_id, None)
        if session is None:
            return False
        session.closed = True
        self._wake.set()
        await self._discard(session.box, reason)
        return True

    async def execute(
        self, session_id: str, tool: str, payload: Mapping[str, Any], timeout: int | None
    ) -> ExecOutcome:
        """Run one tool call; calls within a session run one at a time."""
        session = self.get(session_id)
        call = prepare(tool, payload, timeout, self.config)
        started = time.monotonic()
        async with session.lock:
            if session.closed:
                raise SessionNotFound(f"session not found: {session_id}")
            session.busy += 1
            session.touch()
            try:
                result = await self._call(session, call.request, call.capture, call.timeout)
            finally:
                session.busy -= 1
                session.touch()
        elapsed = int((time.monotonic() - started) * 1000)
        return replace(shape(call, result), execution_time_ms=elapsed)

    async def _call(self, session: Session, request: dict[str, Any], capture: bool, timeout: int) -> CallResult:
        sandbox = session.box.sandbox
        if not sandbox.alive:
            # A previous call lost the interpreter: a fresh one on the same workspace.
            try:
                await sandbox.start()
            except SandboxUnavailable as exc:
                return CallResult(-1, stderr=f"sandbox: {exc}\n".encode(), failure=None)
            if session.closed:
                await sandbox.stop("destroyed")
                return CallResult(-1, failure="destroyed")
        return await sandbox.call(request, capture=capture, deadline=timeout + self.config.kill_grace_seconds)

    # -- reclaiming ---------------------------------------------------------------------

    def _make_dirs(self, workspace: Path, uid: int | None) -> None:
        """The workspace and, on a mounted layout, the sized tmpfs mounts of the sandbox."""
        config, layout = self.config, self.layout
        workspace.mkdir(mode=0o700)
        if layout.mounted:
            if config.workspace_mb:
                mounts.mount_tmpfs(workspace, config.workspace_mb * MIB, config.workspace_inodes, 0o700)
            scratch = layout.scratch / workspace.name
            scratch.mkdir(mode=0o711)
            mounts.mount_tmpfs(scratch, config.tmp_mb * MIB, config.tmp_inodes, 0o711)
            for name in ("tmp", "shm"):
                (scratch / name).mkdir()
                os.chmod(scratch / name, 0o1777)
        if uid is not None:
            os.chown(workspace, uid, uid)

    def _remove_dirs(self, workspace: Path) -> None:
        """Unmount and remove what _make_dirs made; a workspace on disk goes to the reclaimer."""
        scratch = self.layout.scratch / workspace.name
        if self.layout.mounted:
            mounts.unmount(scratch)
            with contextlib.suppress(OSError):
                scratch.rmdir()
        if self.layout.mounted and self.config.workspace_mb and mounts.unmount(workspace):
            with contextlib.suppress(OSError):
                workspace.rmdir()
                return
        self._reclaim(workspace)

    async def drain_reclaimer(self) -> None:
        """Wait until every ended session's workspace is deleted."""
        await asyncio.gather(*self._reclaiming, return_exceptions=True)

    def _reclaim(self, workspace: Path) -> None:
        """Move a workspace out of sight at once; delete it in the reclaimer's thread."""
        target = self.layout.trash / workspace.name
        try:
            os.rename(workspace, target)
        except OSError:
            target = workspace
        future = asyncio.wrap_future(self._reclaimer.submit(_remove_quietly, target))
        self._reclaiming.add(future)
        future.add_done_callback(self._reclaiming.discard)

    async def reap(self, now: float | None = None) -> list[str]:
        """Destroy every session past its idle timeout or lifetime."""
        now = time.time() if now is None else now
        expired = [sid for sid, s in self._sessions.items() if s.expired(now)]
        await asyncio.gather(*(self.destroy(sid, "reaped") for sid in expired))
        return expired

    async def _reap_loop(self) -> None:
        while True:
            await asyncio.sleep(self.config.reap_interval_seconds)
            try:
                reaped = await self.reap()
            except Exception:
                logger.exception("session reaper failed")
                continue
            if reaped:
                logger.info("reaped %d idle or expired session(s)", len(reaped))


def _remove_quietly(path: Path) -> None:
    try:
        remove_tree(path)
    except OSError as exc:
        logger.warning("could not remove %s: %s", path, exc)
