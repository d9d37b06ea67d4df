"""Install scheduling and restarts: slow installs do not hold back others, every registry fetch
has a deadline, an install stops when nobody waits for it any more, stale staging goes away on
start, and npm dies with the executor. Real npm against the loopback registry, whose slow-drip
mode sends one byte at a time for as long as the client keeps reading."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from tpmjs_executor.reaper import list_children
from tpmjs_executor.store import PackageUnavailable
from tpmjs_support import ExecutorProcess, NpmRegistry, run
from tpmjs_support.stores import lease_label, make_store

HANG_GUARD_S = 60.0  # only a failing test waits this long


def _folder(root: Path, name: str) -> Path:
    folder = root / name.replace("/", "+")
    folder.mkdir(parents=True)
    (folder / "package.json").write_text(json.dumps({"name": name, "version": "1.0.0"}))
    (folder / "index.mjs").write_text("export const tool = { execute: async () => 1 };\n")
    return folder


@pytest.fixture
def drip(tmp_path: Path) -> Iterator[NpmRegistry]:
    """`slow-a`, `slow-b` (tarballs dripped a byte a second) and `quick`, all at 1.0.0."""
    with NpmRegistry() as reg:
        for name in ("slow-a", "slow-b", "quick"):
            reg.publish_dir(_folder(tmp_path / "src", name))
        yield reg


async def until(condition: Callable[[], bool], what: str) -> None:
    """Wait for `condition` (checked every 20 ms); fail if it never comes."""
    deadline = time.monotonic() + HANG_GUARD_S
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0.02)


def tarball_requested(registry: NpmRegistry, name: str) -> Callable[[], bool]:
    """Whether npm has started fetching `name`'s tarball."""
    return lambda: f"/{name}/-/{name}-1.0.0.tgz" in registry.requests


def npm_of(pid: int) -> list[int]:
    """npm processes started by `pid` (npm retitles itself `npm install <specs>`)."""
    return [c for c in list_children(pid) if _cmdline(c).startswith("npm install")]


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def drip_tarballs(registry: NpmRegistry, *names: str) -> None:
    """Send only the tarballs of `names` a byte a second (their packuments stay fast)."""
    for name in names:
        registry.set_slow_drip(f"{name}/-/{name}-1.0.0.tgz", 1.0)


@pytest.mark.slow
def test_two_slow_installs_do_not_hold_back_a_cold_one(drip: NpmRegistry, tmp_path: Path) -> None:
    drip_tarballs(drip, "slow-a", "slow-b")

    async def main() -> tuple[str, list[bool]]:
        store = make_store(tmp_path, drip.url, install_concurrency=2, slot_hold_s=0.5)
        await store.start()
        try:
            slow = [
                asyncio.create_task(lease_label(store, n, "1.0.0")) for n in ("slow-a", "slow-b")
            ]
            for name in ("slow-a", "slow-b"):
                await until(tarball_requested(drip, name), f"{name} fetched")
            label = await lease_label(store, "quick", "1.0.0")
            return label, [task.done() for task in slow]
        finally:
            await store.close()

    label, slow_done = run(main())
    assert label == "quick@1.0.0"
    assert slow_done == [False, False]  # still dripping while the cold install finished
    assert npm_of(os.getpid()) == []


@pytest.mark.slow
def test_a_slow_drip_packument_meets_the_fetch_deadline(drip: NpmRegistry, tmp_path: Path) -> None:
    drip.set_slow_drip("slow-a", 0.2)  # a byte every 200 ms: never idle, never done

    async def main() -> list[str]:
        store = make_store(tmp_path, drip.url, fetch_timeout_s=1.0)
        await store.start()
        messages = []
        try:
            for version in ("latest", "1.0.0"):  # resolution, then the dependency check
                with pytest.raises(PackageUnavailable) as caught:
                    await lease_label(store, "slow-a", version)
                messages.append(str(caught.value))
            return messages
        finally:
            await store.close()

    for message in run(main()):
        assert "did not answer within 1s" in message


@pytest.mark.slow
def test_a_slow_drip_tarball_frees_its_slot_at_the_deadline(
    drip: NpmRegistry, tmp_path: Path
) -> None:
    drip_tarballs(drip, "slow-a")

    async def main() -> tuple[str, str]:
        # One slot, never lent out: only the install deadline can free it.
        store = make_store(
            tmp_path, drip.url, install_concurrency=1, slot_hold_s=3600, timeout_s=5.0
        )
        await store.start()
        try:
            with pytest.raises(PackageUnavailable) as caught:
                await lease_label(store, "slow-a", "1.0.0")
            return str(caught.value), await lease_label(store, "quick", "1.0.0")
        finally:
            await store.close()

    message, label = run(main())
    assert "took longer than 5s" in message
    assert label == "quick@1.0.0"
    assert npm_of(os.getpid()) == []


@pytest.mark.slow
def test_an_install_stops_when_its_last_caller_leaves(drip: NpmRegistry, tmp_path: Path) -> None:
    drip_tarballs(drip, "slow-a")

    async def main() -> tuple[bool, list[int], str]:
        store = make_store(tmp_path, drip.url, install_concurrency=1, slot_hold_s=3600)
        await store.start()
        try:
            first, second = (
                asyncio.create_task(lease_label(store, "slow-a", "1.0.0")) for _ in range(2)
            )
            await until(tarball_requested(drip, "slow-a"), "slow-a fetched")
            await until(lambda: bool(npm_of(os.getpid())), "npm running")
            first.cancel()
            await asyncio.gather(first, return_exceptions=True)
            # One caller still waits: the install goes on.
            still_running = bool(npm_of(os.getpid())) and not second.done()
            second.cancel()
            await asyncio.gather(second, return_exceptions=True)
            await until(lambda: not store.installing, "install cancelled")
            left = npm_of(os.getpid())
            # Its slot is free again: the only slot.
            return still_running, left, await lease_label(store, "quick", "1.0.0")
        finally:
            await store.close()

    still_running, left, label = run(main())
    assert still_running
    assert left == []
    assert label == "quick@1.0.0"


def test_stale_staging_is_removed_on_start(tmp_path: Path, drip: NpmRegistry) -> None:
    async def main() -> tuple[list[str], list[str]]:
        # A store killed mid-install leaves its staging folder, unlocked once it is gone.
        killed = make_store(tmp_path, drip.url)
        await killed.start()
        left = [p.name for p in (tmp_path / "staging").iterdir()]
        (tmp_path / "staging" / left[0] / "install-x").mkdir()
        (tmp_path / "staging" / left[0] / "install-x" / "half.js").write_text("x")
        await killed.close()  # releases the lock as a kill would, leaves the folder
        legacy = tmp_path / "staging" / "p1"  # from an executor of before the locks
        legacy.mkdir()
        live = make_store(tmp_path, drip.url)
        await live.start()
        try:
            now = [p.name for p in (tmp_path / "staging").iterdir()]
            # Another store over the same root, alive: its folder is kept.
            other = make_store(tmp_path, drip.url)
            await other.start()
            after = [p.name for p in (tmp_path / "staging").iterdir()]
            await other.close()
            return [n for n in now if n not in left], sorted(set(now) - set(after))
        finally:
            await live.close()

    now, lost = run(main())
    assert len(now) == 1 and not now[0].startswith("p1-")  # only the new store's own
    assert lost == []


@pytest.mark.slow
def test_npm_dies_with_a_killed_executor(drip: NpmRegistry, tmp_path: Path) -> None:
    drip_tarballs(drip, "slow-a")
    store = tmp_path / "store"
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "EXECUTOR_API_KEY": "k-0123"}
    server = ExecutorProcess(
        ["--registry", drip.url, "--store-dir", str(store), "--pool-size", "0"],
        env,
        tmp_path / "log",
    )
    try:
        with httpx.Client(timeout=HANG_GUARD_S) as client:
            body = {"packageName": "slow-a", "name": "tool", "version": "1.0.0"}
            headers = {"Authorization": "Bearer k-0123"}

            executor = server.proc.pid
            future = _in_thread(
                lambda: client.post(server.url + "/execute-tool", json=body, headers=headers)
            )
            run(until(lambda: bool(npm_of(executor)), "npm running"))
            npm = npm_of(executor)
            server.proc.send_signal(signal.SIGKILL)
            server.proc.wait()
            run(until(lambda: not any(_alive(pid) for pid in npm), "npm gone"))
            with pytest.raises(httpx.HTTPError):
                future.result()
    finally:
        server.stop()


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _in_thread(call: Callable[[], httpx.Response]) -> Future[httpx.Response]:
    pool = ThreadPoolExecutor(1)
    future = pool.submit(call)
    pool.shutdown(wait=False)
    return future


@pytest.mark.slow
def test_a_client_that_leaves_frees_its_install(drip: NpmRegistry, tmp_path: Path) -> None:
    drip_tarballs(drip, "slow-a")
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "EXECUTOR_API_KEY": "k-0123"}
    server = ExecutorProcess(
        [
            "--registry",
            drip.url,
            "--store-dir",
            str(tmp_path / "store"),
            "--pool-size",
            "0",
            "--install-timeout-s",
            "600",
        ],  # only the caller leaving can stop it
        env,
        tmp_path / "log",
    )
    try:
        executor = server.proc.pid
        body = json.dumps({"packageName": "slow-a", "name": "tool", "version": "1.0.0"})
        host, port = httpx.URL(server.url).host, httpx.URL(server.url).port
        with socket.create_connection((host, port or 80)) as sock:
            sock.sendall(
                f"POST /execute-tool HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer k-0123\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n{body}".encode()
            )
            run(until(lambda: bool(npm_of(executor)), "npm running"))
        # The caller has left (its connection is closed) long before the install could end.
        run(until(lambda: not npm_of(executor), "install stopped"))
    finally:
        server.stop()
