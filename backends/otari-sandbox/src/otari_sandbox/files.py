"""Workspace file operations done by the service, confined against whatever user code left
behind: every path is opened with ``openat2(RESOLVE_BENEATH)``, so ``..`` and symlinks can
never lead out of the workspace, and there is no check-then-use gap. Without openat2 (Linux
< 5.6) a component-by-component ``O_NOFOLLOW`` walk refuses symlinks instead."""

from __future__ import annotations

import ctypes
import errno
import mimetypes
import os
import posixpath
import secrets
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from .charging import MemoryCharge
from .exceptions import FileMissing, InvalidPath, NotAFile, PathOutside, TooLarge

WORKSPACE_ALIAS = "/workspace"
MAX_LISTED = 10_000
CHUNK = 1 << 20
# Nothing longer is listed: no request could name it.
_PATH_MAX = 4096
# Out of space or inodes (the workspace's quota): an upload is then too large (413).
_FULL = (errno.ENOSPC, errno.EDQUOT)
_SUB_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC

_SYS_OPENAT2 = 437  # the same number on every architecture that has it
_RESOLVE_NO_MAGICLINKS = 0x02
_RESOLVE_BENEATH = 0x08


class _OpenHow(ctypes.Structure):
    _fields_ = (("flags", ctypes.c_uint64), ("mode", ctypes.c_uint64), ("resolve", ctypes.c_uint64))


_libc = ctypes.CDLL(None, use_errno=True)


class _Openat2:
    # Cleared for good the first time the kernel (or a seccomp filter) refuses openat2.
    works = True


@dataclass(frozen=True)
class FileInfo:
    """One listed entry; ``kind`` is "file", "directory" or "symlink"."""

    path: str
    size_bytes: int
    mime_type: str | None
    modified_at: float
    kind: str


def relative(path: str) -> str:
    """The workspace-relative, normalised form of a client path ("." for the root)."""
    if "\0" in path:
        raise PathOutside(f"invalid path: {path!r}")
    if path == WORKSPACE_ALIAS or path.startswith(WORKSPACE_ALIAS + "/"):
        path = path[len(WORKSPACE_ALIAS) :].lstrip("/") or "."
    if path.startswith("/"):
        raise PathOutside(f"path escapes workspace: {path}")
    normal = posixpath.normpath(path)
    if normal == ".." or normal.startswith("../"):
        raise PathOutside(f"path escapes workspace: {path}")
    return normal


def open_beneath(dir_fd: int, rel: str, flags: int, mode: int = 0) -> int:
    """Open ``rel`` below ``dir_fd`` without ever resolving outside it."""
    flags |= os.O_CLOEXEC
    if _Openat2.works:
        how = _OpenHow(flags=flags, mode=mode, resolve=_RESOLVE_BENEATH | _RESOLVE_NO_MAGICLINKS)
        fd = _libc.syscall(
            _SYS_OPENAT2, dir_fd, os.fsencode(rel), ctypes.byref(how), ctypes.sizeof(how)
        )
        if fd >= 0:
            return int(fd)
        code = ctypes.get_errno()
        if code not in (errno.ENOSYS, errno.EPERM):
            raise _translate(code, rel)
        _Openat2.works = False
    return _open_walk(dir_fd, rel, flags, mode)


def _open_walk(dir_fd: int, rel: str, flags: int, mode: int) -> int:
    parts = [p for p in rel.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        raise PathOutside(f"path escapes workspace: {rel}")
    current = os.dup(dir_fd)
    try:
        for part in parts[:-1]:
            nxt = _open_component(current, part, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC, 0, rel)
            os.close(current)
            current = nxt
        if not parts:
            return os.open(".", flags, mode, dir_fd=current)
        return _open_component(current, parts[-1], flags, mode, rel)
    finally:
        os.close(current)


def _open_component(dir_fd: int, name: str, flags: int, mode: int, rel: str) -> int:
    try:
        return os.open(name, flags | os.O_NOFOLLOW, mode, dir_fd=dir_fd)
    except OSError as exc:
        try:
            if stat.S_ISLNK(os.lstat(name, dir_fd=dir_fd).st_mode):
                raise PathOutside(f"symlinks are not followed: {rel}") from None
        except FileNotFoundError:
            pass
        raise _translate(exc.errno or 0, rel) from None


def _translate(code: int, rel: str) -> Exception:
    if code in (errno.EXDEV, errno.ELOOP):
        return PathOutside(f"path escapes workspace: {rel}")
    if code in (errno.ENOENT, errno.ENOTDIR):
        return FileMissing(f"file not found: {rel}")
    return InvalidPath(f"{os.strerror(code)}: {rel}")


class Workspace:
    """One session's workspace directory, seen from the host."""

    def __init__(
        self, root: Path, owner: tuple[int, int] | None = None, charge: MemoryCharge | None = None
    ) -> None:
        self.root = root
        self.owner = owner
        # Where an upload's memory is charged (a tmpfs workspace under cgroups); None: here.
        self.charge = charge

    def _root_fd(self) -> int:
        try:
            return os.open(self.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except FileNotFoundError:
            # The session was destroyed while this request was on its way.
            raise FileMissing("the session's workspace is gone") from None

    def _open(self, path: str) -> tuple[str, int]:
        # O_NONBLOCK: a FIFO left by user code must not hang the service.
        rel = relative(path)
        root = self._root_fd()
        try:
            return rel, open_beneath(root, rel, os.O_RDONLY | os.O_NONBLOCK)
        finally:
            os.close(root)

    def list(self, path: str = ".") -> list[FileInfo]:
        """Every entry under ``path``, recursively, sorted; a file path lists itself."""
        rel, fd = self._open(path)
        try:
            info = os.fstat(fd)
            if stat.S_ISREG(info.st_mode):
                return [_info(rel, info)]
            if not stat.S_ISDIR(info.st_mode):
                raise FileMissing(f"not a file or directory: {path}")
            found: list[FileInfo] = []
            _walk(fd, "" if rel == "." else rel + "/", found)
            return sorted(found, key=lambda f: f.path)
        finally:
            os.close(fd)

    def open_read(self, path: str) -> tuple[int, int, str]:
        """An fd positioned at the start of a regular file, its size and media type."""
        rel, fd = self._open(path)
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            os.close(fd)
            kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise NotAFile(f"path is {kind}: {path}")
        os.set_blocking(fd, True)
        mime = mimetypes.guess_type(posixpath.basename(rel))[0] or "application/octet-stream"
        return fd, info.st_size, mime

    def write(self, path: str, source: BinaryIO, cap: int) -> tuple[str, int]:
        """Store ``source`` at ``path`` atomically, refusing (and leaving nothing) past ``cap``."""
        rel = relative(path)
        if rel == ".":
            raise NotAFile("path is a directory: .")
        parent, name = posixpath.split(rel)
        dir_fd = self._ensure_dirs(parent)
        tmp = f".upload-{secrets.token_hex(8)}.part"
        try:
            fd = _create(
                tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644,
                dir_fd=dir_fd,
            )
            try:
                size = self.charge.copy(source, fd, cap) if self.charge else _copy(source, fd, cap)
                if self.owner is not None:
                    os.fchown(fd, *self.owner)
            except OSError as exc:
                if exc.errno in _FULL:
                    raise TooLarge(f"the workspace is full ({exc.strerror})") from None
                raise
            finally:
                os.close(fd)
            try:
                os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
            except IsADirectoryError:
                raise NotAFile(f"path is a directory: {path}") from None
            except OSError as exc:
                raise InvalidPath(f"{exc.strerror}: {path}") from None
        except BaseException:
            try:
                os.unlink(tmp, dir_fd=dir_fd)
            except FileNotFoundError:
                pass
            raise
        finally:
            os.close(dir_fd)
        return rel, size

    def _ensure_dirs(self, parent: str) -> int:
        root = self._root_fd()
        try:
            if not parent:
                return os.dup(root)
            try:
                return open_beneath(root, parent, os.O_RDONLY | os.O_DIRECTORY)
            except FileMissing:
                pass
            current = os.dup(root)
            for part in parent.split("/"):
                try:
                    os.mkdir(part, 0o755, dir_fd=current)
                    if self.owner is not None:
                        os.chown(part, *self.owner, dir_fd=current, follow_symlinks=False)
                except FileExistsError:
                    pass
                except OSError as exc:
                    os.close(current)
                    if exc.errno in _FULL:
                        raise TooLarge(f"the workspace is full ({exc.strerror})") from None
                    raise InvalidPath(f"{exc.strerror}: {parent}") from None
                try:
                    nxt = open_beneath(current, part, os.O_RDONLY | os.O_DIRECTORY)
                except FileMissing:
                    raise NotAFile(f"not a directory: {parent}") from None
                finally:
                    os.close(current)
                current = nxt
            return current
        finally:
            os.close(root)


def _create(name: str, flags: int, mode: int, *, dir_fd: int) -> int:
    try:
        return os.open(name, flags, mode, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno in _FULL:
            raise TooLarge(f"the workspace is full ({exc.strerror})") from None
        raise


def _copy(source: BinaryIO, fd: int, cap: int) -> int:
    size = 0
    while chunk := source.read(CHUNK):
        size += len(chunk)
        if size > cap:
            raise TooLarge(f"file exceeds the {cap} byte limit")
        view = memoryview(chunk)
        while view:
            view = view[os.write(fd, view) :]
    return size


def _info(rel: str, info: os.stat_result, kind: str = "file") -> FileInfo:
    mime = mimetypes.guess_type(posixpath.basename(rel))[0] if kind == "file" else None
    size = info.st_size if kind != "directory" else 0
    return FileInfo(rel, size, mime, info.st_mtime, kind)


def _walk(dir_fd: int, prefix: str, found: list[FileInfo]) -> None:
    """List below ``dir_fd`` depth first, without recursion.

    A directory's fd stays open only while it has subdirectories left to visit (a chain of
    any depth holds two), and nothing is listed past PATH_MAX, which no request could name.
    """
    stack = [(dir_fd, prefix, _scan(dir_fd, prefix, found))]
    try:
        while stack and len(found) < MAX_LISTED:
            fd, base, pending = stack[-1]
            if not pending:
                _release(stack.pop()[0], dir_fd)
                continue
            name = pending.pop()
            try:
                sub = os.open(name, _SUB_FLAGS, dir_fd=fd)
            except OSError:
                continue
            if not pending:
                # Nothing else to visit here: let go of the parent before descending.
                _release(stack.pop()[0], dir_fd)
            rel = base + name + "/"
            stack.append((sub, rel, []))
            stack[-1] = (sub, rel, _scan(sub, rel, found))
    finally:
        for fd, _, _ in stack:
            _release(fd, dir_fd)


def _release(fd: int, keep: int) -> None:
    if fd != keep:
        os.close(fd)


def _scan(dir_fd: int, prefix: str, found: list[FileInfo]) -> list[str]:
    """Record the entries of one directory; the names of its subdirectories to visit."""
    subdirs: list[str] = []
    try:
        listing = os.scandir(dir_fd)
    except OSError:
        return subdirs
    with listing as entries:
        for entry in entries:
            if len(found) >= MAX_LISTED:
                break
            name = entry.name
            try:
                name.encode("utf-8")
                info = entry.stat(follow_symlinks=False)
            except (UnicodeEncodeError, OSError):
                continue
            rel = prefix + name
            if len(rel) >= _PATH_MAX:
                continue
            if stat.S_ISREG(info.st_mode):
                found.append(_info(rel, info))
            elif stat.S_ISLNK(info.st_mode):
                found.append(_info(rel, info, "symlink"))
            elif stat.S_ISDIR(info.st_mode):
                found.append(_info(rel, info, "directory"))
                subdirs.append(name)
    return subdirs


def iter_chunks(fd: int) -> Iterator[bytes]:
    """Read an fd to its end in CHUNK pieces, closing it afterwards."""
    try:
        while chunk := os.read(fd, CHUNK):
            yield chunk
    finally:
        os.close(fd)
