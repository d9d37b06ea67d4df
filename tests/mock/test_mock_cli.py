"""`contractgen mock` at the command line (a real process, a real port) and from
`[tool.contractgen]`, and the `make mock` target of a project `contractgen new` made."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from contractgen.project.scaffold import new_project

HERE = Path(__file__).resolve().parent
BOOKS = HERE / "books.yaml"
AUTH = {"Authorization": "Bearer t"}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def _running(command: list[str], cwd: Path, url: str) -> Iterator[subprocess.Popen[str]]:
    """`command` started in its own process group, until `url` answers (60 s at most)."""
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and process.poll() is None:
            try:
                httpx.get(url, timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        assert process.poll() is None, process.stdout.read() if process.stdout else ""
        yield process
    finally:
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=20)


@pytest.mark.slow
def test_the_command_serves_from_the_config(tmp_path: Path) -> None:
    port = _free_port()
    (tmp_path / "pyproject.toml").write_text(
        f'[tool.contractgen]\ntargets = [{{ spec = "{BOOKS.as_posix()}", out = "api" }}]\n'
        f'[tool.contractgen.mock]\nport = {port}\nseed = 3\n', "utf-8")
    command = [sys.executable, "-m", "contractgen.cli", "mock", "--stateless"]
    with _running(command, tmp_path, f"http://127.0.0.1:{port}/v1/profile"):
        answer = httpx.get(f"http://127.0.0.1:{port}/v1/books/x", headers=AUTH)
        assert answer.status_code == 422  # validated as the generated server validates
        made = httpx.post(f"http://127.0.0.1:{port}/v1/books", json={"title": "a"}, headers=AUTH)
        assert made.status_code == 201


def test_without_a_spec_or_a_config_it_says_what_to_do(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "contractgen.cli", "mock"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert "name SPEC" in done.stderr


@pytest.mark.slow
def test_a_new_project_has_make_mock(tmp_path: Path) -> None:
    project = tmp_path / "shop"
    new_project(project, spec=BOOKS, git=False)
    port = _free_port()
    command = ["make", "mock", f"PYTHON={sys.executable}", f"MOCK_PORT={port}"]
    with _running(command, project, f"http://127.0.0.1:{port}/v1/profile"):
        made = httpx.post(f"http://127.0.0.1:{port}/v1/books", json={"title": "a"}, headers=AUTH)
        got = httpx.get(f"http://127.0.0.1:{port}/v1/books/{made.json()['id']}", headers=AUTH)
        assert got.json() == made.json()
