"""Resource limits the agent applies to itself (and so to everything it starts), and the
clean-up that ends every process a call left behind."""

import contextlib
import math
import os
import resource
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass

MIB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """Per-sandbox limits; 0 means "not enforced"."""

    memory_mb: int = 0
    nproc: int = 0
    fsize_mb: int = 0
    open_files: int = 0
    cpu_seconds: int = 0


def apply(limits: Limits) -> None:
    """Lower the hard limits once, before any user code runs, so user code cannot raise them."""
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if limits.memory_mb:
        size = limits.memory_mb * MIB
        resource.setrlimit(resource.RLIMIT_AS, (size, size))
    if limits.nproc:
        resource.setrlimit(resource.RLIMIT_NPROC, (limits.nproc, limits.nproc))
    if limits.fsize_mb:
        size = limits.fsize_mb * MIB
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    if limits.open_files:
        # Never above what the service itself was given: that would be refused.
        _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        size = limits.open_files if hard == resource.RLIM_INFINITY else min(limits.open_files, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (size, size))
    # An oversized write then fails with EFBIG instead of killing the interpreter.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def cpu_used() -> float:
    """CPU seconds this process has consumed so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def arm_cpu(seconds: int) -> None:
    """Let the interpreter spend ``seconds`` more CPU from now (RLIMIT_CPU counts a lifetime)."""
    if seconds:
        _, hard = resource.getrlimit(resource.RLIMIT_CPU)
        soft = math.ceil(cpu_used() + seconds)
        if hard != resource.RLIM_INFINITY:
            soft = min(soft, hard)
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def disarm_cpu() -> None:
    """Lift the per-call CPU allowance between calls."""
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))


@contextlib.contextmanager
def child_cpu_limit(seconds: int) -> Iterator[None]:
    """While spawning: a soft limit of ``seconds`` for the child to inherit.

    Set on the agent itself for the instant of the fork rather than in a preexec hook,
    which is unsafe once user code has started threads. The agent's own handler ignores
    a SIGXCPU that lands while no call is armed.
    """
    if not seconds:
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    resource.setrlimit(resource.RLIMIT_CPU, (seconds, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def kill_others(mode: str) -> None:
    """End every process but this one and reap them.

    ``namespace``: in the sandbox's PID namespace ``kill(-1)`` reaches exactly its processes,
    atomically with respect to forks; orphans are PID 1's to reap, so wait until /proc holds
    only PID 1 and us. ``uid``: no namespace, but a host uid of the sandbox's own, so
    ``kill(-1)`` is still exact. ``descendants``: neither; only the processes descended from
    the agent can safely be found.
    """
    if mode in ("namespace", "uid"):
        try:
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:
            mode = "uid"  # nothing was left to kill
    else:
        for _ in range(3):
            targets = _descendants(os.getpid())
            for pid in targets:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            if not targets:
                break
    _reap()
    if mode == "namespace":
        _await_orphans()


def _await_orphans(budget: float = 2.0) -> None:
    deadline = time.monotonic() + budget
    me = str(os.getpid())
    while [p for p in os.listdir("/proc") if p.isdigit() and p not in ("1", me)]:
        if time.monotonic() > deadline:
            return
        time.sleep(0.001)
        _reap()


def _reap(budget: float = 2.0) -> None:
    deadline = time.monotonic() + budget
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            if time.monotonic() > deadline:
                return
            time.sleep(0.001)


def _descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        # The command name may hold spaces and parentheses; fields resume after the last ")".
        fields = stat[stat.rfind(b")") + 2 :].split()
        children.setdefault(int(fields[1]), []).append(int(name))
    found: list[int] = []
    stack = [root]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


def describe_signal(number: int) -> str | None:
    """A note for a process ended by a limit's signal, or None for any other signal."""
    if number == signal.SIGXCPU:
        return "CPU time limit exceeded"
    if number == signal.SIGXFSZ:
        return "file size limit exceeded"
    return None
