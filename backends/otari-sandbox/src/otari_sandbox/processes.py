"""Host-side process plumbing shared by the service: adopting orphans, listing children,
and the fd budget."""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource

_PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> bool:
    """Adopt orphans of our own process tree (PID 1 here does not reap them)."""
    libc = ctypes.CDLL(None, use_errno=True)
    return bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)


def list_children(pid: int) -> list[int]:
    """The direct children of ``pid`` (every thread's), sorted; [] once it is gone."""
    found: set[int] = set()
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    for task in tasks:
        with contextlib.suppress(OSError, ValueError):
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as handle:
                found.update(int(child) for child in handle.read().split())
    return sorted(found)


def raise_fd_limit() -> int:
    """Raise the soft RLIMIT_NOFILE to the hard limit (every sandbox and connection holds
    fds); the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]
