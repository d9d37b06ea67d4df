"""Removing directory trees user code made, however deep: no recursion, two fds at a time.

``remove_tree`` flattens instead of descending: the children of each non-empty directory
are renamed up into the root (under names no user file can have), and the emptied directory
is removed. Every entry moves at most once, so a tree of n entries costs O(n) renames,
whatever its depth (a 100 000-level chain included), and paths never grow past the root's.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from pathlib import Path

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def remove_tree(path: Path) -> None:
    """Delete ``path`` and everything below it; a missing path is already gone."""
    try:
        root = _open_dir(path, None)
    except FileNotFoundError:
        return
    except OSError as exc:
        if exc.errno not in (errno.ENOTDIR, errno.ELOOP):
            raise
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        return
    try:
        _empty(root)
    finally:
        os.close(root)
    with contextlib.suppress(FileNotFoundError):
        os.rmdir(path)


def _empty(root: int) -> None:
    tag = f".otari-rm-{secrets.token_hex(6)}-"
    moved = 0
    while names := os.listdir(root):
        for name in names:
            try:
                info = os.stat(name, dir_fd=root, follow_symlinks=False)
            except FileNotFoundError:
                continue
            if not stat.S_ISDIR(info.st_mode):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(name, dir_fd=root)
                continue
            try:
                os.rmdir(name, dir_fd=root)
                continue
            except OSError as exc:
                if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST, errno.EACCES, errno.EPERM):
                    raise
            sub = _open_dir(name, root)
            try:
                for child in os.listdir(sub):
                    moved += 1
                    os.rename(child, f"{tag}{moved}", src_dir_fd=sub, dst_dir_fd=root)
            finally:
                os.close(sub)
            os.rmdir(name, dir_fd=root)


def _open_dir(name: str | Path, dir_fd: int | None) -> int:
    try:
        fd = os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
    except PermissionError:
        # User code may leave a directory unreadable; a non-root service reopens it.
        os.chmod(name, 0o700, dir_fd=dir_fd, follow_symlinks=False)
        fd = os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
    with contextlib.suppress(OSError):
        # Entries can only be renamed out of a writable directory.
        if not os.fstat(fd).st_mode & stat.S_IWUSR:
            os.fchmod(fd, 0o700)
    return fd
