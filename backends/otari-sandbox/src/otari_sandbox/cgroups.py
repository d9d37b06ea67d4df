"""Per-sandbox cgroups: one memory cap and one process cap for everything a sandbox runs.

The service makes a parent cgroup below its own (so whatever limits the service itself lives
under still apply) and one child per sandbox, which the sandbox's outer bwrap process joins
before it execs: every process inside inherits it. cgroup v2 needs the memory and pids
controllers delegated to the service's cgroup; cgroup v1 needs the memory and pids
hierarchies mounted writable. Neither: ``CgroupTree.detect`` returns None and the agent's
rlimits are all there is.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from dataclasses import dataclass
from pathlib import Path

logger = logging.getLogger(__name__)

MIB = 1024 * 1024
# After a sandbox's PID 1 is reaped its processes may take a moment to leave the cgroup.
REMOVE_BUDGET = 2.0


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
                    if option in ("memory", "pids"):
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
    """One sandbox's cgroup (a directory per hierarchy in v1, one in v2)."""

    dirs: list[Path]
    oom_file: Path
    pids_file: Path
    memory_mb: int
    nproc: int
    _seen: tuple[int, int] = (0, 0)
    # Kept open: a pread is a microsecond, an open of a cgroup file tens (this runs per call).
    _fds: tuple[int, int] | None = None

    def open(self) -> None:
        """Open the counter files and take their current values as the baseline."""
        flags = os.O_RDONLY | os.O_CLOEXEC
        oom = os.open(self.oom_file, flags)
        try:
            self._fds = (oom, os.open(self.pids_file, flags))
        except OSError:
            os.close(oom)
            raise
        self.tripped()

    @property
    def procs_files(self) -> list[Path]:
        """The ``cgroup.procs`` files a process writes its pid to, to join."""
        return [d / "cgroup.procs" for d in self.dirs]

    def tripped(self) -> list[str]:
        """Notes for the limits hit since the last look (an OOM kill, a refused fork)."""
        if self._fds is None:
            return []
        now = (_counter(self._fds[0], "oom_kill"), _counter(self._fds[1], "max"))
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

    def close(self) -> None:
        """Close the counter files."""
        for fd in self._fds or ():
            os.close(fd)
        self._fds = None

    async def remove(self) -> bool:
        """Remove the directories once their processes are gone; False if they linger."""
        self.close()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + REMOVE_BUDGET
        for path in reversed(self.dirs):
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
    parents: list[Path]
    memory_mb: int
    nproc: int
    _count: int = 0

    @classmethod
    def detect(cls, name: str, memory_mb: int, nproc: int) -> CgroupTree | None:
        """Make the parent cgroup ``name``; None (and nothing left behind) if cgroups are unusable."""
        try:
            mounts, own = _mounts(), _own_paths()
        except (OSError, ValueError):
            return None
        unified = mounts.get("unified")
        if unified is not None and "unified" in own:
            base = unified / own["unified"]
            with contextlib.suppress(OSError):
                if {"memory", "pids"} <= set((base / "cgroup.controllers").read_text().split()):
                    if not {"memory", "pids"} <= set((base / "cgroup.subtree_control").read_text().split()):
                        # Refused (EBUSY) while the service's own cgroup holds processes: then
                        # the delegation is incomplete and _make fails, cleanly.
                        with contextlib.suppress(OSError):
                            _write(base / "cgroup.subtree_control", "+memory +pids")
                    tree = cls._make(2, [base / name], memory_mb, nproc)
                    if tree is not None:
                        return tree
        if "memory" in mounts and "pids" in mounts and "memory" in own and "pids" in own:
            parents = [mounts[c] / own[c] / name for c in ("memory", "pids")]
            return cls._make(1, parents, memory_mb, nproc)
        return None

    @classmethod
    def _make(cls, version: int, parents: list[Path], memory_mb: int, nproc: int) -> CgroupTree | None:
        made: list[Path] = []
        try:
            for path in parents:
                path.mkdir()
                made.append(path)
            if version == 2:
                # The parent holds no processes, so it may hand both controllers down.
                _write(parents[0] / "cgroup.subtree_control", "+memory +pids")
            tree = cls(version, parents, memory_mb, nproc)
            # Proof that the whole path works: a child can be made, limited and removed.
            probe = tree.child()
            probe.close()
            for path in reversed(probe.dirs):
                path.rmdir()
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
        dirs = [parent / name for parent in self.parents]
        limit = str(self.memory_mb * MIB)
        try:
            for path in dirs:
                path.mkdir()
            if self.version == 2:
                (cg,) = dirs
                _write(cg / "memory.max", limit)
                with contextlib.suppress(FileNotFoundError):
                    _write(cg / "memory.swap.max", "0")
                _write(cg / "pids.max", str(self.nproc))
                group = SandboxCgroup(
                    dirs, cg / "memory.events", cg / "pids.events", self.memory_mb, self.nproc
                )
            else:
                memory, pids = dirs
                _write(memory / "memory.limit_in_bytes", limit)
                # With swap accounting the cap covers memory plus swap, so swap is no way out.
                with contextlib.suppress(FileNotFoundError):
                    _write(memory / "memory.memsw.limit_in_bytes", limit)
                _write(pids / "pids.max", str(self.nproc))
                group = SandboxCgroup(
                    dirs, memory / "memory.oom_control", pids / "pids.events", self.memory_mb,
                    self.nproc,
                )
            group.open()
        except OSError:
            for path in reversed(dirs):
                with contextlib.suppress(OSError):
                    path.rmdir()
            raise
        return group

    def describe(self) -> str:
        """What is in force, for the log."""
        return (
            f"cgroup v{self.version}: {self.memory_mb} MiB and {self.nproc} processes per "
            f"sandbox (and RLIMIT_AS per process), under {', '.join(map(str, self.parents))}"
        )

    def remove(self) -> None:
        """Remove the parent cgroup(s) and any child left behind (at service close)."""
        for parent in reversed(self.parents):
            with contextlib.suppress(OSError):
                for child in sorted(parent.iterdir()):
                    if child.is_dir():
                        with contextlib.suppress(OSError):
                            child.rmdir()
            with contextlib.suppress(OSError):
                parent.rmdir()
