"""The Otari reference backend, started as its users start it, passes the conformance replay."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from contractgen.project.conformance import run_scenario
from gen_support import OTARI_SPEC

SCENARIO = Path(__file__).parent / "scenarios" / "otari-session.yaml"
COMMAND = Path(sys.executable).parent / "otari-sandbox"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def otari_url() -> Iterator[str]:
    if shutil.which("bwrap") is None:
        pytest.fail("bubblewrap is required (make setup installs it)")
    port = _free_port()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    proc = subprocess.Popen(
        [str(COMMAND), "--host", "127.0.0.1", "--port", str(port), "--pool-size", "1",
         "--uid-base", "700000", "--log-level", "warning"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            httpx.get(f"{url}/openapi.json", timeout=1)
            break
        except httpx.HTTPError:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            time.sleep(0.05)
    try:
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


def test_every_operation_conforms(otari_url: str) -> None:
    results = run_scenario(OTARI_SPEC, SCENARIO, otari_url)
    failures = [(r.index + 1, r.operation, r.status, r.problems) for r in results if not r.ok]
    assert failures == []
    assert len(results) == 16
