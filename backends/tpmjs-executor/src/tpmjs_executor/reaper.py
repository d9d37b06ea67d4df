"""Reaping orphans: the service adopts the process trees it starts and collects their zombies.

When a tool's process dies, its own children are re-parented. On hosts whose PID 1 does not
reap (containers started without an init), they would stay zombies forever, so the service
marks itself a child subreaper (prctl PR_SET_CHILD_SUBREAPER) and periodically waits for
zombie children it did not start itself. Processes it started (tracked here) are left to
asyncio, which waits for them by pid.

otari-sandbox's processes.py has the same `become_subreaper` and `list_children`, kept apart
because the backends are installed separately (a shared package would hold ten lines). It has
no sweep: every otari process runs under bwrap, whose PID 1 reaps inside; here a tool can also
run as a plain process group (`--isolation process`), whose orphans come to us.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import resource
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

__all__ = [
    "become_subreaper",
    "dying_with",
    "list_children",
    "reap_orphans",
    "spawning",
    "track",
    "untrack",
]

_PR_SET_CHILD_SUBREAPER = 36
_PR_SET_PDEATHSIG = 1
_libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
_tracked: set[int] = set()
_spawns_in_progress: list[None] = []  # one item per process being started


def become_subreaper() -> bool:
    """Ask Linux to re-parent orphaned descendants to this process; False when unsupported."""
    try:
        return bool(_libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except AttributeError:
        return False


def dying_with(parent: int, max_file_bytes: int | None = None) -> Callable[[], None]:
    """The preexec function of a helper child (npm, slirp4netns): die with `parent` however it
    dies (PR_SET_PDEATHSIG), optionally cap the size of any file it writes."""

    def setup() -> None:
        _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # the parent died before prctl: nobody would kill us
            os._exit(1)
        if max_file_bytes is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (max_file_bytes, max_file_bytes))

    return setup


@contextlib.contextmanager
def spawning() -> Iterator[None]:
    """Hold while starting a process, so a sweep never mistakes it for an orphan."""
    _spawns_in_progress.append(None)
    try:
        yield
    finally:
        _spawns_in_progress.pop()


def track(pid: int) -> None:
    """Mark `pid` as started by us (asyncio waits for it)."""
    _tracked.add(pid)


def untrack(pid: int) -> None:
    """Forget `pid` once it has been waited for."""
    _tracked.discard(pid)


def list_children(pid: int) -> list[int]:
    """The pids of `pid`'s children (all its threads'), from /proc; [] when it is gone."""
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError, ValueError):
            out.extend(int(p) for p in (task / "children").read_text().split())
    return out


def _is_zombie(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[-1].split()[0] == "Z"


def reap_orphans() -> int:
    """Wait for zombie children this process did not start; return how many were reaped."""
    if _spawns_in_progress:
        return 0
    reaped = 0
    for pid in list_children(os.getpid()):
        if pid in _tracked or not _is_zombie(pid):
            continue
        with contextlib.suppress(ChildProcessError):
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                reaped += 1
    return reaped
