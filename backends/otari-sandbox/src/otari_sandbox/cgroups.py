"""Per-sandbox cgroups: one memory cap and one process cap for everything a sandbox runs,
a CPU rate cap, a freezer that stops the whole sandbox between calls, and CPU accounting.

The service makes a parent cgroup below its own (so whatever limits the service itself lives
under still apply) and one child per sandbox, which the sandbox's outer bwrap process joins
before it execs: every process inside inherits it. cgroup v2 needs the memory and pids
controllers delegated to the service's cgroup; cgroup v1 needs the memory and pids
hierarchies mounted writable. Neither: ``CgroupTree.detect`` returns None and the agent's
rlimits are all there is. The freezer and cpu controllers (v1: freezer, cpu, cpuacct) are
used when present: without them sandboxes are not frozen between calls.

The parent carries the aggregate memory limit of all sandboxes together. Its name holds the
service's pid, so a service that was SIGKILLed has its parents removed by the next start.

tpmjs-executor's limits.py applies the same approach to one short tool run; its docstring says
why the two stay apart and what they share.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path

from .charging import MemoryCharge

logger = logging.getLogger(__name__)

MIB = 1024 * 1024
# After a sandbox's PID 1 is reaped its processes may take a moment to leave the cgroup.
REMOVE_BUDGET = 2.0
PREFIX = "otari-sandbox-"
_V1_REQUIRED = ("memory", "pids")
_V1_CONTROLLERS = ("memory", "pids", "freezer", "cpu", "cpuacct")
CFS_PERIOD_US = 100_000
UPLOADS = "uploads"


def _mounts() -> dict[str, Path]:
    """Controller ("memory", "pids", or "unified" for cgroup2) -> a mount point of it."""
    found: dict[str, Path] = {}
    with open("/proc/self/mountinfo", encoding="utf-8") as handle:
        for line in handle:
            head, _, tail = line.partition(" - ")
            fields, rest = head.split(), tail.split()
            if len(fields) < 5 or len(rest) < 3 or fields[3] != "/":
                continue
            point = Path(fields[4].replace("\\040", " "))
            if rest[0] == "cgroup2":
                found.setdefault("unified", point)
            elif rest[0] == "cgroup":
                for option in rest[2].split(","):
                    if option in _V1_CONTROLLERS:
                        found.setdefault(option, point)
    return found


def _own_paths() -> dict[str, str]:
    """Controller -> this process's cgroup path, from /proc/self/cgroup."""
    own: dict[str, str] = {}
    with open("/proc/self/cgroup", encoding="utf-8") as handle:
        for line in handle:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            for name in controllers.split(",") if controllers else ["unified"]:
                own[name] = path.lstrip("/")
    return own


def _write(path: Path, value: str) -> None:
    with open(path, "w", encoding="ascii") as handle:
        handle.write(value)


def _counter(fd: int, key: str) -> int:
    """The value of ``key`` in an open flat-keyed cgroup file; 0 when absent or unreadable."""
    with contextlib.suppress(OSError, ValueError):
        for line in os.pread(fd, 4096, 0).decode().splitlines():
            name, _, value = line.partition(" ")
            if name == key:
                return int(value)
    return 0


@dataclass
class SandboxCgroup:
    """One sandbox's cgroup: a directory per hierarchy in v1 (by controller), one in v2."""

    version: int
    dirs: dict[str, Path]
    memory_mb: int
    nproc: int
    _seen: tuple[int, int] = (0, 0)
    # Kept open: a pread is a microsecond, an open of a cgroup file tens (this runs per call).
    _fds: dict[str, int] | None = None
    frozen: bool = False
    # cgroup v2: where uploads are charged (a process joining the sandbox's would freeze with it).
    uploads: Path | None = None

    def _file(self, role: str) -> Path | None:
        """The file that plays ``role`` in this cgroup version, None without its controller."""
        v1 = {
            "oom": ("memory", "memory.oom_control"), "pids": ("pids", "pids.events"),
            "freeze": ("freezer", "freezer.state"), "cpu": ("cpuacct", "cpuacct.usage"),
            "procs": ("pids", "cgroup.procs"), "count": ("pids", "pids.current"),
        }
        v2 = {
            "oom": "memory.events", "pids": "pids.events", "freeze": "cgroup.freeze",
            "cpu": "cpu.stat", "procs": "cgroup.procs", "count": "pids.current",
        }
        if self.version == 2:
            directory = self.dirs["unified"]
            name = v2[role]
            return directory / name if (directory / name).exists() else None
        controller, name = v1[role]
        return self.dirs[controller] / name if controller in self.dirs else None

    def open(self) -> None:
        """Open the files read or written on every call (the counters, the freezer); take the
        counters' values as the baseline. The process list and CPU time, read rarely, are
        opened when read: each sandbox holds as few of the service's fds as it can."""
        fds: dict[str, int] = {}
        try:
            for role in ("oom", "pids", "freeze", "count"):
                path = self._file(role)
                if path is not None:
                    flags = os.O_RDWR if role == "freeze" else os.O_RDONLY
                    fds[role] = os.open(path, flags | os.O_CLOEXEC)
        except OSError:
            for fd in fds.values():
                os.close(fd)
            raise
        self._fds = fds
        self.tripped()

    @property
    def procs_files(self) -> list[Path]:
        """The ``cgroup.procs`` files a process writes its pid to, to join."""
        return [d / "cgroup.procs" for d in dict.fromkeys(self.dirs.values())]

    def memory_charge(self) -> MemoryCharge | None:
        """Where an upload to this sandbox's workspace is charged (see charging.py)."""
        if self.version == 1 and "memory" in self.dirs:
            own = self.dirs["memory"]
            return MemoryCharge(own / "cgroup.procs", own, own.parent)
        if self.uploads is not None:
            files = ("memory.max", "memory.current")
            return MemoryCharge(self.uploads / "cgroup.procs", None, self.uploads.parent, files)
        return None

    @property
    def can_freeze(self) -> bool:
        """True when the sandbox can be stopped whole between calls."""
        return self._fds is not None and "freeze" in self._fds

    def tripped(self) -> list[str]:
        """Notes for the limits hit since the last look (an OOM kill, a refused fork)."""
        if self._fds is None:
            return []
        now = (_counter(self._fds["oom"], "oom_kill"), _counter(self._fds["pids"], "max"))
        notes = []
        if now[0] > self._seen[0]:
            notes.append(
                f"memory limit reached (the session's processes together are capped at "
                f"{self.memory_mb} MiB); a process was killed"
            )
        if now[1] > self._seen[1]:
            notes.append(f"process limit reached ({self.nproc} processes per session)")
        self._seen = now
        return notes

    def freeze(self) -> None:
        """Stop every process of the sandbox where it stands (no CPU until ``thaw``)."""
        if self.can_freeze and not self.frozen:
            assert self._fds is not None
            os.pwrite(self._fds["freeze"], b"FROZEN" if self.version == 1 else b"1", 0)
            self.frozen = True

    def thaw(self) -> None:
        """Let the sandbox run again."""
        if self.frozen and self._fds is not None:
            os.pwrite(self._fds["freeze"], b"THAWED" if self.version == 1 else b"0", 0)
            self.frozen = False

    def tasks(self) -> int:
        """Tasks (threads included) in the cgroup: a counter, cheap to read, unlike ``pids``."""
        if self._fds is None or "count" not in self._fds:
            return 0
        with contextlib.suppress(OSError, ValueError):
            return int(os.pread(self._fds["count"], 32, 0))
        return 0

    def pids(self) -> list[int]:
        """Host pids of every process in the cgroup."""
        path = self._file("procs")
        if self._fds is None or path is None:
            return []
        with contextlib.suppress(OSError, ValueError):
            return [int(p) for p in path.read_bytes().split()]
        return []

    def cpu_seconds(self) -> float:
        """CPU time used by every process of the sandbox since the cgroup was made."""
        path = self._file("cpu")
        if self._fds is None or path is None:
            return 0.0
        with contextlib.suppress(OSError, ValueError):
            text = path.read_text()
            if self.version == 2:
                return next(int(v) for k, v in map(str.split, text.splitlines()) if k == "usage_usec") / 1e6
            return int(text) / 1e9
        return 0.0

    def close(self) -> None:
        """Close the counter files."""
        for fd in (self._fds or {}).values():
            os.close(fd)
        self._fds = None

    async def remove(self) -> bool:
        """Remove the directories once their processes are gone; False if they linger."""
        with contextlib.suppress(OSError):
            self.thaw()
        self.close()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + REMOVE_BUDGET
        for path in reversed(list(dict.fromkeys(self.dirs.values()))):
            while True:
                try:
                    os.rmdir(path)
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    if loop.time() > deadline:
                        logger.warning("cgroup %s still busy; left for service shutdown", path)
                        return False
                    await asyncio.sleep(0.005)
        return True


@dataclass
class CgroupTree:
    """The service's parent cgroup(s); makes one child per sandbox."""

    version: int
    parents: dict[str, Path]
    memory_mb: int
    nproc: int
    cpus: float = 0.0
    total_memory_mb: int = 0
    _count: int = 0

    @classmethod
    def detect(
        cls, name: str, memory_mb: int, nproc: int, cpus: float = 0.0, total_memory_mb: int = 0
    ) -> CgroupTree | None:
        """Make the parent cgroup ``name``; None (and nothing left behind) if cgroups are unusable."""
        try:
            mounts, own = _mounts(), _own_paths()
        except (OSError, ValueError):
            return None
        limits = (memory_mb, nproc, cpus, total_memory_mb)
        unified = mounts.get("unified")
        if unified is not None and "unified" in own:
            base = unified / own["unified"]
            with contextlib.suppress(OSError):
                if {"memory", "pids"} <= set((base / "cgroup.controllers").read_text().split()):
                    wanted = {"memory", "pids", "cpu"} & set((base / "cgroup.controllers").read_text().split())
                    if not wanted <= set((base / "cgroup.subtree_control").read_text().split()):
                        # Refused (EBUSY) while the service's own cgroup holds processes: then
                        # the delegation is incomplete and _make fails, cleanly.
                        with contextlib.suppress(OSError):
                            _write(base / "cgroup.subtree_control", " ".join(f"+{c}" for c in sorted(wanted)))
                    remove_stale({"unified": base})
                    tree = cls._make(2, {"unified": base / name}, limits)
                    if tree is not None:
                        return tree
        if all(c in mounts and c in own for c in _V1_REQUIRED):
            bases = {c: mounts[c] / own[c] for c in _V1_CONTROLLERS if c in mounts and c in own}
            remove_stale(bases)
            return cls._make(1, {c: base / name for c, base in bases.items()}, limits)
        return None

    @classmethod
    def _make(
        cls, version: int, parents: dict[str, Path], limits: tuple[int, int, float, int]
    ) -> CgroupTree | None:
        memory_mb, nproc, cpus, total_memory_mb = limits
        made: list[Path] = []
        try:
            for path in dict.fromkeys(parents.values()):
                path.mkdir()
                made.append(path)
            if version == 2:
                # The parent holds no processes, so it may hand its controllers down.
                controllers = (parents["unified"] / "cgroup.controllers").read_text().split()
                wanted = [c for c in ("cpu", "memory", "pids") if c in controllers]
                _write(parents["unified"] / "cgroup.subtree_control", " ".join(f"+{c}" for c in wanted))
            tree = cls(version, parents, memory_mb, nproc, cpus, total_memory_mb)
            if total_memory_mb:
                limit = str(total_memory_mb * MIB)
                if version == 2:
                    _write(parents["unified"] / "memory.max", limit)
                else:
                    _write(parents["memory"] / "memory.limit_in_bytes", limit)
            # Proof that the whole path works: a child can be made, limited and removed.
            probe = tree.child()
            probe.close()
            for path in reversed(list(dict.fromkeys(probe.dirs.values()))):
                path.rmdir()
            if version == 2:
                (parents["unified"] / UPLOADS).mkdir()
            return tree
        except OSError as exc:
            logger.info("cgroups (v%d) unusable: %s", version, exc)
            for path in reversed(made):
                with contextlib.suppress(OSError):
                    path.rmdir()
            return None

    def child(self) -> SandboxCgroup:
        """A fresh, limited cgroup for one sandbox."""
        self._count += 1
        name = f"sandbox-{self._count}"
        dirs = {controller: parent / name for controller, parent in self.parents.items()}
        unique = list(dict.fromkeys(dirs.values()))
        limit = str(self.memory_mb * MIB)
        quota = int(self.cpus * CFS_PERIOD_US)
        try:
            for path in unique:
                path.mkdir()
            if self.version == 2:
                cg = dirs["unified"]
                _write(cg / "memory.max", limit)
                with contextlib.suppress(FileNotFoundError):
                    _write(cg / "memory.swap.max", "0")
                _write(cg / "pids.max", str(self.nproc))
                if quota and (cg / "cpu.max").exists():
                    _write(cg / "cpu.max", f"{quota} {CFS_PERIOD_US}")
            else:
                memory = dirs["memory"]
                _write(memory / "memory.limit_in_bytes", limit)
                # With swap accounting the cap covers memory plus swap, so swap is no way out.
                with contextlib.suppress(FileNotFoundError):
                    _write(memory / "memory.memsw.limit_in_bytes", limit)
                _write(dirs["pids"] / "pids.max", str(self.nproc))
                if quota and "cpu" in dirs:
                    _write(dirs["cpu"] / "cpu.cfs_period_us", str(CFS_PERIOD_US))
                    _write(dirs["cpu"] / "cpu.cfs_quota_us", str(quota))
            uploads = self.parents["unified"] / UPLOADS if self.version == 2 else None
            group = SandboxCgroup(self.version, dirs, self.memory_mb, self.nproc, uploads=uploads)
            group.open()
        except OSError:
            for path in reversed(unique):
                with contextlib.suppress(OSError):
                    path.rmdir()
            raise
        return group

    @property
    def freezes(self) -> bool:
        """True when sandboxes are frozen between calls."""
        return self.version == 2 or "freezer" in self.parents

    def describe(self) -> str:
        """What is in force, for the log."""
        cpu = f", {self.cpus:g} CPU" if self.cpus and (self.version == 2 or "cpu" in self.parents) else ""
        total = f"; {self.total_memory_mb} MiB for all sandboxes together" if self.total_memory_mb else ""
        frozen = "; frozen between calls" if self.freezes else "; not frozen between calls (no freezer)"
        where = ", ".join(map(str, dict.fromkeys(self.parents.values())))
        return (
            f"cgroup v{self.version}: {self.memory_mb} MiB, {self.nproc} processes{cpu} per "
            f"sandbox (and RLIMIT_AS per process){total}{frozen}, under {where}"
        )

    def remove(self) -> None:
        """Remove the parent cgroup(s) and any child left behind (at service close)."""
        remove_parents(list(dict.fromkeys(self.parents.values())))


def remove_parents(parents: list[Path]) -> None:
    children = []
    for parent in parents:
        with contextlib.suppress(OSError):
            children += [child for child in sorted(parent.iterdir()) if child.is_dir()]
    # Everything is killed (and thawed, so that the kills land) before anything is removed.
    for child in children:
        _kill_members(child)
    deadline = time.monotonic() + REMOVE_BUDGET
    for path in [*children, *reversed(parents)]:
        while True:
            try:
                path.rmdir()
                break
            except FileNotFoundError:
                break
            except OSError:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.005)


def _kill_members(cgroup: Path) -> None:
    with contextlib.suppress(OSError):
        for pid in (cgroup / "cgroup.procs").read_text().split():
            with contextlib.suppress(OSError):
                os.kill(int(pid), 9)
    freezer = cgroup / "freezer.state"
    with contextlib.suppress(OSError):
        if freezer.exists():
            _write(freezer, "THAWED")
        elif (cgroup / "cgroup.freeze").exists():
            _write(cgroup / "cgroup.freeze", "0")


def remove_stale(bases: dict[str, Path]) -> list[Path]:
    """Remove the parent cgroups of services that are gone (SIGKILLed): their name holds
    their pid. Their sandboxes died with them (``--die-with-parent``), unless frozen: those
    are killed and thawed here, in every hierarchy at once, before anything is removed."""
    stale: list[Path] = []
    for base in dict.fromkeys(bases.values()):
        with contextlib.suppress(OSError):
            for entry in sorted(base.iterdir()):
                pid = entry.name.removeprefix(PREFIX).split("-", 1)[0]
                if entry.name.startswith(PREFIX) and pid.isdigit() and not _alive(int(pid)):
                    stale.append(entry)
    if stale:
        remove_parents(stale)
        logger.info("removed the cgroups of %d service(s) that were killed", len(stale))
    return [entry for entry in stale if not entry.exists()]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
