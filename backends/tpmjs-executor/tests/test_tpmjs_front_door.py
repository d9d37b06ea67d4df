"""tpmjs-executor's command behind the front door (api/_serving.py): a real service on loopback."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest


def start(tmp: Path, *args: str) -> tuple[subprocess.Popen[bytes], str]:
    command = [
        sys.executable, "-c", "from tpmjs_executor.app import main; main()",
        "--port", "0", "--store-dir", str(tmp / "store"), "--registry", "http://127.0.0.1:9",
        "--log-level", "warning", *args,
    ]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdout is not None
    url = proc.stdout.readline().decode().split()[-1]
    assert url.startswith("http://127.0.0.1:"), url
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(f"{url}/health", timeout=1)
            return proc, url
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("tpmjs-executor did not come up")


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[str]:
    """One service per configuration, shared by the tests of this module (none changes it)."""
    tmp_path = tmp_path_factory.mktemp(request.param)
    args: tuple[str, ...] = ()
    if request.param == "key":
        (tmp_path / "key").write_text("k-" + "x" * 30)
        args = ("--api-key-file", str(tmp_path / "key"))
    proc, url = start(tmp_path, *args)
    yield url
    proc.terminate()
    proc.wait(15)


@pytest.mark.parametrize("service", ["anonymous"], indirect=True)
def test_without_a_key_only_loopback_names_and_pages_get_in(service: str) -> None:
    assert httpx.get(f"{service}/health").status_code == 200
    # Refused with the contract's 400 INVALID_REQUEST (it declares no 403).
    rebound = httpx.get(f"{service}/health", headers={"Host": "evil.example"})
    assert rebound.status_code == 400 and rebound.json()["error"]["code"] == "INVALID_REQUEST"
    page = {"Origin": "http://evil.example", "Content-Type": "text/plain"}
    assert httpx.post(f"{service}/execute-tool", headers=page, content="{}").status_code == 400


@pytest.mark.parametrize("service", ["key"], indirect=True)
def test_with_a_key_the_guard_stays_out(service: str) -> None:
    assert httpx.get(f"{service}/health", headers={"Host": "evil.example"}).status_code == 200


@pytest.mark.parametrize("service", ["anonymous", "key"], indirect=True)
def test_an_oversized_head_is_431_before_anything_else(service: str) -> None:
    port = int(service.rpartition(":")[2])
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(b"POST /execute-tool HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * (1 << 20))
        assert sock.recv(100).startswith(b"HTTP/1.1 431")
