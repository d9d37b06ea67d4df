"""Helpers of the otari-sandbox tests (a module name of its own: two backends' conftests
share the name `conftest`, so tests import from here)."""

from __future__ import annotations

import asyncio
import itertools
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import httpx
from otari_sandbox.config import Settings
from otari_sandbox.sessions import SessionManager
from otari_sandbox.tools import ExecOutcome

T = TypeVar("T")

# Forks until refused and prints how many children it made.
FORK_BOMB = (
    "import os, time\nn = 0\n"
    "try:\n"
    "    while True:\n"
    "        if os.fork() == 0:\n            time.sleep(5); os._exit(0)\n"
    "        n += 1\n"
    "except OSError:\n    print(n)\n"
)


class LoopThread:
    """An asyncio loop running in a daemon thread; ``run`` waits for a coroutine's result."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 60.0) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def submit(self, coro: Coroutine[Any, Any, T]) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()


_managers = itertools.count()


def uid_base() -> int:
    """A host uid range of its own for each manager (xdist workers run side by side)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return 300_000 + 100_000 * int(worker.removeprefix("gw") or 0) + 1_000 * next(_managers)


def make_manager(loop_thread: LoopThread, **overrides: Any) -> SessionManager:
    """A started manager with small, test-friendly defaults."""
    settings: dict[str, Any] = {
        "uid_base": uid_base(),
        "pool_size": 2,
        "capacity": 8,
        "reap_interval_seconds": 3600.0,
        "kill_grace_seconds": 0.5,
    }
    settings.update(overrides)
    manager = SessionManager(Settings(**settings))
    loop_thread.run(manager.start())
    return manager


def call(loop_thread: LoopThread, manager: SessionManager, tool: str, **payload: object) -> ExecOutcome:
    """One call in a fresh session, destroyed afterwards."""
    session = loop_thread.run(manager.create())
    try:
        return loop_thread.run(manager.execute(session.session_id, tool, payload, 20))
    finally:
        loop_thread.run(manager.destroy(session.session_id))


def processes(match: Callable[[str], bool]) -> list[int]:
    """Host pids whose /proc entry name passes ``match`` (see callers for what they test)."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                if match(name):
                    found.append(int(name))
            except OSError:
                pass
    return found


class Service:
    """``otari-sandbox`` in a subprocess on a free loopback port."""

    def __init__(
        self, *args: str, env: dict[str, str] | None = None, fd_limit: int | None = None,
        wrap: tuple[str, ...] = (),
    ) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.uid_base = uid_base()
        command = [
            sys.executable, "-c", "from otari_sandbox.app import main; raise SystemExit(main())",
            "--port", str(self.port), "--uid-base", str(self.uid_base), "--log-level", "warning",
            *args,
        ]
        self.log = tempfile.TemporaryFile()
        command = [*wrap, *command]
        if fd_limit is not None:
            command = ["prlimit", f"--nofile={fd_limit}:{fd_limit}", "--", *command]
        self.proc = subprocess.Popen(
            command, env={**os.environ, **(env or {})}, stdout=self.log, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"service exited: {self.output()}")
            try:
                if httpx.get(f"{self.url}/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"service did not come up: {self.output()}")

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def assert_full_at(service: Service, capacity: int) -> None:
    """``capacity`` sessions are created, the next is refused with 503 + Retry-After; then
    they are destroyed again."""
    url = service.url
    ids = [httpx.post(f"{url}/sessions", timeout=60).json()["session_id"] for _ in range(capacity)]
    refused = httpx.post(f"{url}/sessions", timeout=60)
    assert refused.status_code == 503 and refused.headers["retry-after"] == "1"
    for sid in ids:
        httpx.delete(f"{url}/sessions/{sid}", timeout=60)


def make_chain(root: str, depth: int, leaf: str = "leaf.txt") -> None:
    """A directory chain ``depth`` levels deep below ``root`` (no recursion, no long paths)."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(depth):
            os.mkdir("d", dir_fd=fd)
            sub = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = sub
        os.close(os.open(leaf, os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd))
    finally:
        os.close(fd)
