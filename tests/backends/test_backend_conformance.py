"""The Otari reference backend, started as its users start it, passes the conformance replay."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from contractgen.project.conformance import run_scenario
from gen_support import OTARI_SPEC

SCENARIO = Path(__file__).parents[1] / "scenarios" / "otari-session.yaml"
COMMAND = Path(sys.executable).parent / "otari-sandbox"

# Slow: it starts the real backend, bubblewrap sandboxes included.
pytestmark = pytest.mark.slow


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
         "--uid-base", "700000", "--log-level", "info"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    assert proc.stderr is not None
    seen: list[str] = []
    for line in proc.stderr:  # waits on the server's own word that it is up
        seen.append(line)
        if "Application startup complete" in line:
            break
    else:
        pytest.fail("otari-sandbox exited before it was up:\n" + "".join(seen))
    # Keep reading its log, so that a full pipe never blocks it.
    threading.Thread(target=proc.stderr.read, daemon=True).start()
    url = f"http://127.0.0.1:{port}"
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
