"""Sized tmpfs mounts made by the service (root only): a quota in bytes and inodes for each
workspace and each sandbox's /tmp, and state that shows no host path inside the sandboxes.

A tmpfs is a filesystem of its own: what is bound from it into a sandbox shows as ``/`` (or a
path inside it) in the sandbox's mountinfo, never the host's state path; it is mounted
without a ``uid=`` option, so no host uid shows either; and its pages are charged to the
memory cgroup of the process that writes them (the sandbox's, for user code).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
from pathlib import Path

MS_NOSUID = 0x2
MS_NODEV = 0x4
MNT_DETACH = 0x2

_libc = ctypes.CDLL(None, use_errno=True)


def mount_tmpfs(path: Path, size_bytes: int, inodes: int, mode: int = 0o755) -> None:
    """Mount a tmpfs of at most ``size_bytes`` and ``inodes`` at ``path`` (OSError if refused)."""
    options = f"size={size_bytes},nr_inodes={inodes},mode={mode:o}"
    if _libc.mount(b"tmpfs", os.fsencode(path), b"tmpfs", MS_NOSUID | MS_NODEV, options.encode()) != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"mount tmpfs on {path}: {os.strerror(code)}")


def unmount(path: Path) -> bool:
    """Detach the mount at ``path`` (its contents vanish once unused); False if none was there."""
    return bool(_libc.umount2(os.fsencode(path), MNT_DETACH) == 0)


def mounts_below(root: Path) -> list[Path]:
    """Mount points at or below ``root``, deepest first."""
    prefix = str(root).rstrip("/") + "/"
    found: list[Path] = []
    with contextlib.suppress(OSError), open("/proc/self/mountinfo", encoding="utf-8") as handle:
        for line in handle:
            fields = line.split()
            if len(fields) > 4:
                point = fields[4].replace("\\040", " ").replace("\\011", "\t").replace("\\134", "\\")
                if point == str(root) or point.startswith(prefix):
                    found.append(Path(point))
    return sorted(set(found), key=lambda p: len(p.parts), reverse=True)


def unmount_below(root: Path) -> int:
    """Detach every mount at or below ``root``; how many there were."""
    count = 0
    for point in mounts_below(root):
        count += unmount(point)
    return count


def can_mount(probe: Path) -> bool:
    """True if this process may mount a tmpfs (root, not refused by a container)."""
    if os.geteuid() != 0:
        return False
    probe.mkdir(exist_ok=True)
    try:
        mount_tmpfs(probe, 1 << 20, 16)
    except OSError:
        return False
    finally:
        unmount(probe)
        with contextlib.suppress(OSError):
            probe.rmdir()
    return True
