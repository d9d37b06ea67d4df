"""Host-side process plumbing shared by the service: adopting orphans, listing children.
(The fd limit is raised by the generated front door, `api._serving.raise_fd_limit`.)

tpmjs-executor's reaper.py has the same two functions (the backends are installed apart) and
also sweeps zombies, which its unsandboxed mode needs and bwrap's PID 1 does for us here."""

from __future__ import annotations

import contextlib
import ctypes
import os

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

