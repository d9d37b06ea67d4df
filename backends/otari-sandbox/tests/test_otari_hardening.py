"""Hostile tenants and hostile peers against the real service (uvicorn on loopback, real
bubblewrap): deep trees, oversized and malformed bodies, restarts after a kill -9."""

from __future__ import annotations

import os
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from otari_sandbox.trees import remove_tree
from otari_support import Service


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
