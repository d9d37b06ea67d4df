"""Limits for a whole tool run: one cgroup per run, or rlimits where cgroups are unusable.

A run's memory (V8 heap, Buffers and other off-heap memory, child processes, files written
to its RAM-backed /tmp and /dev/shm) and its number of tasks are capped together by a cgroup
of its own, below a parent made under the service's cgroup (so whatever the service lives
under still applies). The run's first process (a shell that then execs bwrap) joins it before
anything else starts, so every process of the run is born inside. cgroup v2 needs the memory
and pids controllers delegated to the service's cgroup, v1 the two hierarchies writable. With
neither, each process gets RLIMIT_DATA (memory) and RLIMIT_NPROC (processes, per user, not
enforced when the service runs as root) instead.

otari-sandbox's cgroups.py (and its agent/limits.py for rlimits) does the same for its
sandboxes. The two stay apart on purpose: the backends are installed separately and share only
their generated `api/` runtime, and their lifecycles differ. A run here is one short call whose
cgroup goes when it ends, with RLIMIT_DATA as the fallback (V8 reserves far more address space
than it uses, so RLIMIT_AS would kill it); an otari sandbox lives across calls, is frozen
between them, has a CPU rate cap, all sandboxes share one memory cap, and its fallback is
RLIMIT_AS. A fix to the common part (v1/v2 detection, the join before exec, removal) is due in
both.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import shlex
import shutil
import signal
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Limits", "RunCgroup"]

log = logging.getLogger("tpmjs_executor.limits")

MIB = 1024 * 1024
_REMOVE_BUDGET_S = 2.0
_CONTROLLERS = ("memory", "pids")

# Numbers the Limits of this process, so their parent cgroups never collide.
_INSTANCES = itertools.count(1)


def _write(path: Path, value: str) -> None:
    with open(path, "w", encoding="ascii") as handle:
        handle.write(value)


def _counter(path: Path, key: str) -> int:
    with contextlib.suppress(OSError, ValueError):
        for line in path.read_text().splitlines():
            name, _, value = line.partition(" ")
            if name == key:
                return int(value)
    return 0


def _mounts() -> dict[str, Path]:
    """ "unified" (cgroup2), "memory", "pids" -> a mount point, from /proc/self/mountinfo."""
    found: dict[str, Path] = {}
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        head, _, tail = line.partition(" - ")
        fields, rest = head.split(), tail.split()
        if len(fields) < 5 or len(rest) < 3 or fields[3] != "/":
            continue
        point = Path(fields[4].replace("\\040", " "))
        if rest[0] == "cgroup2":
            found.setdefault("unified", point)
        elif rest[0] == "cgroup":
            for option in set(rest[2].split(",")) & set(_CONTROLLERS):
                found.setdefault(option, point)
    return found


def _own_paths() -> dict[str, str]:
    """Controller ("unified" for v2) -> this process's cgroup, from /proc/self/cgroup."""
    own: dict[str, str] = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for name in controllers.split(",") if controllers else ["unified"]:
            own[name] = path.lstrip("/")
    return own


def _sweep_stale(base: Path, own: Path) -> None:
    """Remove the cgroups of executors that died without cleaning up (kill -9), killing
    whatever they still hold; and ``own``, the parent about to be made, if it is there: a dead
    process that had our pid left it (names are unique within a process)."""
    for parent in base.glob("tpmjs-executor-*"):
        # tpmjs-executor-<pid>-<instance>: one parent per Limits of a process
        pid = parent.name.removeprefix("tpmjs-executor-").partition("-")[0]
        if parent != own and (not pid.isdigit() or int(pid) == os.getpid() or Path(f"/proc/{pid}").exists()):
            continue
        for run in [*sorted(parent.glob("run-*")), parent]:
            RunCgroup([run], run, run).kill_all()
            with contextlib.suppress(OSError):
                run.rmdir()


@dataclass
class RunCgroup:
    """The cgroup of one run: a directory per hierarchy (v1) or one (v2)."""

    dirs: list[Path]
    oom_events: Path  # holds "oom_kill N"
    pids_events: Path  # holds "max N"

    @property
    def procs_files(self) -> list[Path]:
        """The files a process writes its pid to, to join."""
        return [d / "cgroup.procs" for d in self.dirs]

    def join(self, pid: int) -> None:
        """Move `pid` into this cgroup (a helper of the run, e.g. its slirp4netns)."""
        for procs in self.procs_files:
            _write(procs, str(pid))

    def tripped(self) -> tuple[bool, bool]:
        """(a process was killed for memory, a fork was refused for the task limit)."""
        return _counter(self.oom_events, "oom_kill") > 0, _counter(self.pids_events, "max") > 0

    def kill_all(self) -> None:
        """SIGKILL every process still in the cgroup (one that left the run's process group
        or PID namespace included)."""
        for procs in self.procs_files:
            with contextlib.suppress(OSError, ValueError):
                for pid in procs.read_text().split():
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.kill(int(pid), signal.SIGKILL)

    async def remove(self) -> None:
        """Kill what is left inside, then remove the directories once the processes are gone
        (they take a moment to leave)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + _REMOVE_BUDGET_S
        for path in reversed(self.dirs):
            while True:
                try:
                    os.rmdir(path)
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    if loop.time() > deadline:
                        log.warning("cgroup %s still busy; removed at shutdown", path)
                        return
                    self.kill_all()
                    await asyncio.sleep(0.01)


class Limits:
    """Caps every run at `memory_mb` and `tasks` (processes and threads): per-run cgroups when
    usable, else rlimits per process. `prefix(cgroup)` is the command that applies them."""

    def __init__(self, memory_mb: int, tasks: int, *, use_cgroups: bool = True) -> None:
        self.memory_mb = memory_mb
        self.tasks = tasks
        self.version = 0
        self._parents: list[Path] = []
        self._names = itertools.count(1)
        if use_cgroups:
            self._detect()
        self._prlimit = shutil.which("prlimit")

    @property
    def parents(self) -> list[Path]:
        """The parent cgroup directories (one per hierarchy); empty without cgroups."""
        return list(self._parents)

    @property
    def cgroups(self) -> bool:
        """Whether runs get cgroups of their own."""
        return bool(self.version)

    def describe(self) -> str:
        """What is in force, for the log."""
        what = f"{self.memory_mb} MiB and {self.tasks} tasks per run"
        if self.cgroups:
            return f"{what} (cgroup v{self.version} under {', '.join(map(str, self._parents))})"
        return f"{what} (cgroups off: RLIMIT_DATA and RLIMIT_NPROC per process)"

    def _detect(self) -> None:
        try:
            mounts, own = _mounts(), _own_paths()
        except (OSError, ValueError):
            return
        # Several executors may live in one process (tests do): each its own parent.
        name = f"tpmjs-executor-{os.getpid()}-{next(_INSTANCES)}"
        if "unified" in mounts and "unified" in own:
            base = mounts["unified"] / own["unified"]
            with contextlib.suppress(OSError):
                if set(_CONTROLLERS) <= set((base / "cgroup.controllers").read_text().split()):
                    with contextlib.suppress(OSError):  # refused while base holds processes
                        _write(base / "cgroup.subtree_control", "+memory +pids")
                    if self._make(2, [base / name]):
                        return
        if all(c in mounts and c in own for c in _CONTROLLERS):
            self._make(1, [mounts[c] / own[c] / name for c in _CONTROLLERS])

    def _make(self, version: int, parents: list[Path]) -> bool:
        made: list[Path] = []
        try:
            for path in parents:
                _sweep_stale(path.parent, path)
                path.mkdir()
                made.append(path)
            if version == 2:
                _write(parents[0] / "cgroup.subtree_control", "+memory +pids")
            self.version, self._parents = version, parents
            probe = self.child()  # proof that a child can be made, limited and removed
            for path in reversed(probe.dirs):
                path.rmdir()
            return True
        except OSError as exc:
            log.info("cgroups v%d unusable: %s", version, exc)
            self.version, self._parents = 0, []
            for path in reversed(made):
                with contextlib.suppress(OSError):
                    path.rmdir()
            return False

    def child(self) -> RunCgroup:
        """A fresh cgroup for one run, limited (OSError if it cannot be made)."""
        name = f"run-{next(self._names)}"
        dirs = [parent / name for parent in self._parents]
        limit = str(self.memory_mb * MIB)
        try:
            for path in dirs:
                path.mkdir()
            if self.version == 2:
                (cg,) = dirs
                _write(cg / "memory.max", limit)
                with contextlib.suppress(FileNotFoundError):
                    _write(cg / "memory.swap.max", "0")
                _write(cg / "pids.max", str(self.tasks))
                return RunCgroup(dirs, cg / "memory.events", cg / "pids.events")
            memory, pids = dirs
            _write(memory / "memory.limit_in_bytes", limit)
            with contextlib.suppress(OSError):  # only with swap accounting: swap is no way out
                _write(memory / "memory.memsw.limit_in_bytes", limit)
            _write(pids / "pids.max", str(self.tasks))
            return RunCgroup(dirs, memory / "memory.oom_control", pids / "pids.events")
        except OSError:
            for path in reversed(dirs):
                with contextlib.suppress(OSError):
                    path.rmdir()
            raise

    def prefix(self, cgroup: RunCgroup | None) -> list[str]:
        """The command that starts a run's first process under its limits."""
        if cgroup is not None:
            joins = " && ".join(f"echo $$ > {shlex.quote(str(f))}" for f in cgroup.procs_files)
            return ["/bin/sh", "-c", f'{joins} && exec "$@"', "sh"]
        if self._prlimit is None:
            return []
        # V8 reserves far more address space than it uses (so no RLIMIT_AS); RLIMIT_DATA
        # counts the writable memory it actually maps.
        data = self.memory_mb * MIB
        return [self._prlimit, f"--data={data}", f"--nproc={self.tasks}", "--"]

    def remove(self) -> None:
        """Remove the parent cgroups and any run's left behind (at shutdown)."""
        for parent in reversed(self._parents):
            with contextlib.suppress(OSError):
                for child in sorted(parent.iterdir()):
                    if child.is_dir():
                        with contextlib.suppress(OSError):
                            child.rmdir()
            with contextlib.suppress(OSError):
                parent.rmdir()
