"""Hostile tenants and hostile peers against the real service (uvicorn on loopback, real
bubblewrap): deep trees, oversized and malformed bodies, restarts after a kill -9."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from otari_sandbox.processes import become_subreaper, list_children
from otari_sandbox.trees import remove_tree
from otari_support import Service, assert_full_at


@pytest.fixture
def state_root() -> Iterator[Path]:
    # Traversable by the sandboxes' uids (pytest's own tmp is 0700).
    root = Path(tempfile.mkdtemp(prefix="otari-state-"))
    yield root
    remove_tree(root)


def request(service: Service, method: str, path: str, **kwargs: Any) -> httpx.Response:
    return httpx.request(method, service.url + path, timeout=60, **kwargs)


@pytest.mark.slow
def test_a_1100_level_upload_lists_deletes_and_survives_restarts(state_root: Path) -> None:
    service = Service("--pool-size", "1", "--workspace-root", str(state_root))
    try:
        sid = request(service, "POST", "/sessions").json()["session_id"]
        deep = "d/" * 1100 + "leaf.txt"
        stored = request(service, "POST", f"/sessions/{sid}/files", files={"file": ("x", b"hi")}, data={"path": deep})
        assert stored.status_code == 201, stored.text
        listing = request(service, "GET", f"/sessions/{sid}/files/list")
        assert listing.status_code == 200
        assert deep in [f["path"] for f in listing.json()["files"]]
        assert request(service, "DELETE", f"/sessions/{sid}").status_code == 204
        assert len(os.listdir(state_root / "workspaces")) <= 1  # the pooled sandbox's alone
        # A tree left behind by a service that was killed: the next start removes it.
        second = request(service, "POST", "/sessions").json()["session_id"]
        request(service, "POST", f"/sessions/{second}/files", files={"file": ("x", b"hi")}, data={"path": deep})
    finally:
        service.proc.send_signal(signal.SIGKILL)
        service.proc.wait()
    assert any(os.listdir(state_root / "workspaces"))
    restarted = Service("--pool-size", "1", "--workspace-root", str(state_root))
    try:
        assert request(restarted, "GET", "/health").json()["session_count"] == 0
        assert len(os.listdir(state_root / "workspaces")) <= 1
    finally:
        restarted.stop()


# -- bodies -------------------------------------------------------------------------------

BODY_CAP = 100_000


@pytest.fixture(scope="module")
def open_service() -> Iterator[Service]:
    """No token (so the Host/Origin guard is on) and a small JSON body cap."""
    svc = Service("--pool-size", "1", "--max-sessions", "4", "--max-body-bytes", str(BODY_CAP))
    yield svc
    svc.stop()


@pytest.fixture
def open_sid(open_service: Service) -> Iterator[str]:
    sid = request(open_service, "POST", "/sessions").json()["session_id"]
    yield sid
    request(open_service, "DELETE", f"/sessions/{sid}")


def _rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def test_every_route_caps_its_body_before_parsing(open_service: Service, open_sid: str) -> None:
    code = {"tool": "code_execution", "input": {"code": "x = 1  # " + "y" * BODY_CAP}}
    response = request(open_service, "POST", f"/sessions/{open_sid}/exec", json=code)
    # Execute declares 400 for a request it refuses (no 413): the cap answers with it.
    assert response.status_code == 400 and "exceeds the" in response.json()["detail"]
    before = _rss(open_service.proc.pid)

    def endless() -> Iterator[bytes]:
        # No Content-Length: 64 MiB that must be cut off while it streams in.
        yield b'{"tool": "code_execution", "input": {"code": "'
        for _ in range(64):
            yield b"z" * (1 << 20)

    for path, status in ((f"/sessions/{open_sid}/exec", 400), ("/sessions", 413)):
        try:
            streamed = request(open_service, "POST", path, content=endless(), headers={"content-type": "application/json"})
        except (httpx.WriteError, httpx.RemoteProtocolError):
            continue  # cut off while still sending: refused just the same
        assert streamed.status_code == status
    assert _rss(open_service.proc.pid) - before < 32 * 1024 * 1024
    ok = request(open_service, "POST", f"/sessions/{open_sid}/exec", json={"tool": "code_execution", "input": {"code": "print(1)"}})
    assert ok.json()["result_block"]["content"]["stdout"] == "1"


@pytest.mark.parametrize("body", [b"\xff\xfe{", b"[" * 100_000, b'{"tool": "code_execution", "input": {"code": "\\ud800'])
def test_unparsable_bodies_are_422(open_service: Service, open_sid: str, body: bytes) -> None:
    response = request(
        open_service, "POST", f"/sessions/{open_sid}/exec", content=body,
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 422, response.text
    assert isinstance(response.json()["detail"], (str, list))


# -- authentication and browsers ------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("token", ["", "  \t"])
def test_a_blank_token_refuses_to_start(token: str) -> None:
    run = subprocess.run(
        [sys.executable, "-c", "from otari_sandbox.app import main; raise SystemExit(main())"],
        env={**os.environ, "SANDBOX_AUTH_TOKEN": token}, capture_output=True, text=True, timeout=60,
        check=False,
    )
    assert run.returncode == 2 and "SANDBOX_AUTH_TOKEN is set but blank" in run.stderr


@pytest.mark.slow
def test_without_a_token_a_public_address_is_refused() -> None:
    env = {k: v for k, v in os.environ.items() if k != "SANDBOX_AUTH_TOKEN"}
    run = subprocess.run(
        [sys.executable, "-c", "from otari_sandbox.app import main; raise SystemExit(main())", "--host", "0.0.0.0"],
        env=env, capture_output=True, text=True, timeout=60, check=False,
    )
    assert run.returncode == 2 and "without SANDBOX_AUTH_TOKEN" in run.stderr


def test_without_a_token_browsers_are_kept_out(open_service: Service) -> None:
    port = open_service.port
    refused = [
        {"host": f"evil.example:{port}"},
        {"host": f"127.0.0.1.evil.example:{port}"},
        {"origin": "http://evil.example"},
        {"origin": "null"},
        {"sec-fetch-site": "cross-site"},
    ]
    for headers in refused:
        response = request(open_service, "POST", "/sessions", headers={"content-type": "text/plain", **headers})
        assert response.status_code == 403, headers
        detail = response.json()["detail"]
        assert "refused" in detail or "must name a loopback address" in detail, detail
    for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}"):
        response = request(open_service, "POST", "/sessions", headers={"host": host, "origin": f"http://{host}"})
        assert response.status_code == 201, host
        request(open_service, "DELETE", f"/sessions/{response.json()['session_id']}")
    assert "NO AUTHENTICATION" in open_service.output()


# -- capacity ---------------------------------------------------------------------------------


def _parent_memory_limit(pid: int) -> int | None:
    for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if "memory" in controllers.split(","):
            base = Path("/sys/fs/cgroup/memory") / path.lstrip("/")
            for parent in base.glob(f"otari-sandbox-{pid}-*"):
                return int((parent / "memory.limit_in_bytes").read_text())
    return None


@pytest.mark.slow
def test_capacity_follows_the_aggregate_memory_limit() -> None:
    service = Service("--pool-size", "1", "--total-memory-mb", "64")
    try:
        health = request(service, "GET", "/health").json()
        limit = _parent_memory_limit(service.proc.pid)
        if limit is None:
            pytest.skip("no cgroup v1 memory hierarchy here")
        assert limit == 64 * 1024 * 1024
        assert health["max_sessions"] == 4  # 64 MiB / 16 MiB per idle session
        assert_full_at(service, 4)
    finally:
        service.stop()


@pytest.mark.slow
def test_capacity_follows_the_fd_budget() -> None:
    # A hard limit of 512 fds the service may not raise (no CAP_SYS_RESOURCE): (512 - 256
    # reserved - 12 for the pooled sandbox) / 12 per session; past it, 503 + Retry-After.
    drop = ("setpriv", "--bounding-set=-sys_resource", "--")
    service = Service("--pool-size", "1", fd_limit=512, wrap=drop if os.geteuid() == 0 else ())
    try:
        assert request(service, "GET", "/health").json()["max_sessions"] == 20
        assert "capacity lowered from 256 to 20" in service.output()
        assert_full_at(service, 20)
    finally:
        service.stop()


def _state_folder(pid: int) -> Path | None:
    for entry in Path(tempfile.gettempdir()).glob("otari-sandbox-*"):
        owner = entry / ".otari-owner"
        if owner.exists() and owner.read_text().split(" ")[0] == str(pid):
            return entry
    return None


def _cgroups_of(pid: int) -> list[Path]:
    found: list[Path] = []
    for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(","):
            base = Path("/sys/fs/cgroup") / controller / path.lstrip("/")
            found += base.glob(f"otari-sandbox-{pid}-*") if controller else []
    return found


@pytest.mark.slow
def test_a_start_after_kill_9_removes_the_previous_state_and_cgroups() -> None:
    # The killed service's sandboxes are orphaned to us (as to init on a normal machine,
    # whose PID 1 reaps them; this one's does not): reap them as init would.
    become_subreaper()
    killed = Service("--pool-size", "2")
    pid = killed.proc.pid
    sid = request(killed, "POST", "/sessions").json()["session_id"]
    request(killed, "POST", f"/sessions/{sid}/exec", json={"tool": "code_execution", "input": {"code": "x = 1"}})
    folder, cgroups, orphans = _state_folder(pid), _cgroups_of(pid), _descendants(pid)
    # Its watchdog first (it would clean up at once, see test_otari_memory): the next start
    # is the fallback when both are gone.
    for orphan in orphans:
        if b"otari_sandbox.watchdog" in Path(f"/proc/{orphan}/cmdline").read_bytes():
            os.kill(orphan, signal.SIGKILL)
    killed.proc.send_signal(signal.SIGKILL)
    killed.proc.wait()
    killed.log.close()
    reapers = [threading.Thread(target=_reap, args=(orphan,), daemon=True) for orphan in orphans]
    for reaper in reapers:
        reaper.start()
    # The session's sandbox was frozen between calls: SIGKILL waits on it until a thaw.
    assert folder is not None and folder.exists() and orphans
    successor = Service("--pool-size", "1")
    try:
        assert not folder.exists()
        assert not any(path.exists() for path in cgroups)
        assert not any(str(folder) in line for line in Path("/proc/self/mountinfo").read_text().splitlines())
    finally:
        successor.stop()


def _descendants(pid: int) -> list[int]:
    found, stack = [], [pid]
    while stack:
        children = list_children(stack.pop())
        found += children
        stack += children
    return found


def _reap(pid: int) -> None:
    # It becomes our child only when its parent dies: until then, waitpid refuses it.
    while os.path.exists(f"/proc/{pid}"):
        with contextlib.suppress(ChildProcessError):
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                return
        threading.Event().wait(0.01)
