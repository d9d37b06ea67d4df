"""Helpers to drive an Executor from synchronous code (tests, benchmarks)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

from tpmjs_executor.config import Settings
from tpmjs_executor.executor import ExecutionRequest, ExecutionResult, Executor

__all__ = ["accepted_socket_option", "execute", "processes_with", "run", "with_executor"]

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to completion in a fresh event loop."""
    return asyncio.run(coro)


async def with_executor(settings: Settings, body: Callable[[Executor], Awaitable[T]]) -> T:
    """Start an Executor, run `body` with it, close it."""
    executor = Executor(settings)
    await executor.start()
    try:
        return await body(executor)
    finally:
        await executor.close()


def execute(settings: Settings, package: str, name: str, **kwargs: Any) -> ExecutionResult:
    """One call through a fresh Executor, from synchronous code."""
    request = ExecutionRequest(package_name=package, name=name, **kwargs)
    return run(with_executor(settings, lambda ex: ex.execute(request)))


def processes_with(needle: str) -> list[int]:
    """Pids of the processes whose command line contains `needle`."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if needle in cmdline:
                found.append(int(entry.name))
    return found


def accepted_socket_option(pid: int, peer: tuple[str, int], level: int, option: int) -> int:
    """`getsockopt(level, option)` on the socket process `pid` accepted from `peer` (our end's
    address), read through a duplicate of its descriptor (pidfd_getfd, Linux 5.6+)."""
    import ctypes
    import socket
    import stat

    libc = ctypes.CDLL(None, use_errno=True)
    pidfd = os.pidfd_open(pid)
    try:
        for name in os.listdir(f"/proc/{pid}/fd"):
            fd = libc.syscall(_SYS_PIDFD_GETFD, pidfd, int(name), 0)
            if fd < 0:
                error = ctypes.get_errno()
                raise OSError(error, f"pidfd_getfd: {os.strerror(error)}")
            if not stat.S_ISSOCK(os.fstat(fd).st_mode):
                os.close(fd)
                continue
            with socket.socket(fileno=fd) as sock:
                try:
                    if sock.getpeername() == peer:
                        return sock.getsockopt(level, option)
                except OSError:  # a listening or unconnected socket
                    continue
    finally:
        os.close(pidfd)
    raise LookupError(f"process {pid} holds no socket connected to {peer}")


_SYS_PIDFD_GETFD = 438  # the same number on every architecture
