"""A new user's day, replayed from a clean folder (issue 31): a new project, moved to a second
clean folder as a clone elsewhere would be; `make setup` under a terminal (it says what it
installs and how long it took); its tests; its server; the contract grown; `make check` (a
summary first, under 40 lines); `make regen`; `contractgen diff`; an operation renamed (the
hint names the operation now at its route); `make watch` through two edits.

Also `make run` of this repository, which shows the published TPMJS contract's expected
refusal as expected, with no make error line. Both under a pty, as a person runs them."""

from __future__ import annotations

import os
import pty
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import yaml
from gen_support import OTARI_SPEC, ROOT
from test_watch import Watcher, save

pytestmark = pytest.mark.slow
BIN = Path(sys.executable).parent


def in_terminal(*command: str, cwd: Path, env: dict[str, str], timeout: float = 900) -> tuple[
        int, str]:
    """Run `command` with a pty as its stdout and stderr: what a person sees, and the exit code."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                               stdout=follower, stderr=follower, start_new_session=True)
    os.close(follower)
    seen = bytearray()
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 1)
            if ready:
                try:
                    chunk = os.read(leader, 65536)
                except OSError:  # the child closed its end
                    break
                if not chunk:
                    break
                seen += chunk
            elif process.poll() is not None:
                break
        else:
            os.killpg(process.pid, signal.SIGKILL)
            pytest.fail(f"{command} took over {timeout} s:\n{seen.decode(errors='replace')}")
    finally:
        os.close(leader)
    return process.wait(60), seen.decode(errors="replace").replace("\r\n", "\n")


def clean_env() -> dict[str, str]:
    """No venv or PYTHONPATH of this checkout; the interpreter the venv is made from is this
    one's base (no download)."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = f"{Path(sys.base_prefix) / 'bin'}{os.pathsep}{env['PATH']}"
    return env


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def edit(spec: Path, change: object) -> None:
    data = yaml.safe_load(spec.read_text("utf-8"))
    change(data)  # type: ignore[operator]
    spec.write_text(yaml.safe_dump(data, sort_keys=False), "utf-8")


def grow(data: dict) -> None:  # type: ignore[type-arg]
    data["components"]["schemas"]["CreateSessionRequest"]["properties"]["note"] = {
        "type": "string"}
    data["paths"]["/sessions/{session_id}/status"] = {"get": {
        "operationId": "GetSessionStatus",
        "parameters": [{"name": "session_id", "in": "path", "required": True,
                        "schema": {"type": "string"}}],
        "responses": {"200": {"description": "alive"}}}}


def rename(data: dict) -> None:  # type: ignore[type-arg]
    for item in data["paths"].values():
        for operation in item.values():
            if isinstance(operation, dict) and operation.get("operationId") == "DestroySession":
                operation["operationId"] = "ReleaseSession"


def test_a_new_users_day(tmp_path: Path) -> None:
    made = subprocess.run([BIN / "contractgen", "new", "otari", "--spec", OTARI_SPEC],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False)
    assert made.returncode == 0, made.stderr
    assert "its setup and CI install contractgen from vendor/" in made.stdout
    project = tmp_path / "second" / "otari"
    shutil.copytree(tmp_path / "otari", project)
    shutil.rmtree(tmp_path / "otari")
    env = clean_env()

    code, shown = in_terminal("make", "setup", cwd=project, env=env)
    assert code == 0, shown
    # pip's wording, or uv's where it is installed ("creating .venv and installing ...")
    assert re.search(r"^setup: (creating \.venv and )?installing contractgen "
                     r"\(vendor/contractgen-[^)]+\.whl\)", shown, re.M), shown
    assert re.search(r"^setup: (Collecting|Successfully installed|Installed|Resolved) ", shown,
                     re.M) or "uv" in shown, shown
    assert re.search(r"^setup: \.venv is ready \(\d+ s\)$", shown, re.M), shown

    code, shown = in_terminal("make", "test", cwd=project, env=env)
    assert code == 0 and re.search(r"\d+ passed", shown), shown

    port = free_port()
    server = subprocess.Popen(["make", "run", f"PORT={port}"], cwd=project, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    try:
        for _ in range(300):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/openapi.json",
                                            timeout=2) as answer:
                    assert answer.status == 200
                    break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail("the server did not answer")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(60)

    service = project / "src/otari/service.py"
    service.write_text(service.read_text("utf-8").replace(
        '    """otari\'s operations."""\n',
        '    """otari\'s operations."""\n\n'
        "    async def destroy_session(self, session_id: str) -> None:\n"
        "        return None\n"), "utf-8")
    spec = project / "specs" / OTARI_SPEC.name
    before = project / "before.yaml"
    shutil.copyfile(spec, before)
    edit(spec, grow)
    code, shown = in_terminal("make", "check", cwd=project, env=env)
    assert code != 0
    lines = shown[shown.index("drift:"):].splitlines()
    assert lines[0] == (f"drift: specs/{OTARI_SPEC.name} changed: 1 operation added, "
                        "1 schema changed"), lines
    assert lines[2] == "  fix: make regen"
    assert len(lines) < 40, shown

    code, shown = in_terminal("make", "regen", cwd=project, env=env)
    assert code == 0, shown
    code, shown = in_terminal(".venv/bin/contractgen", "diff", before.name, f"specs/{spec.name}",
                              cwd=project, env=env)
    assert code == 0 and "0 breaking" in shown, shown

    edit(spec, rename)
    code, shown = in_terminal("make", "regen", cwd=project, env=env)
    assert code == 0, shown
    code, shown = in_terminal(".venv/bin/contractgen", "check", cwd=project, env=env)
    assert code == 1
    assert ("otari.service:Service.destroy_session overrides no operation any more (was it "
            "renamed to release_session? the operation of DELETE /sessions/{session_id} now)"
            ) in shown, shown

    watch = Watcher(cwd=project, command=["make", "watch"])
    try:
        watch.wait_run(1)
        for n, text in enumerate(("Run a zsh command.", "Run a fish command."), start=2):
            data = spec.read_text("utf-8")
            save(spec, re.sub(r"Run a (shell|zsh) command[^.]*\.", text, data, count=1))
            assert "generated src/otari/api" in watch.wait_run(n)
            assert text in (project / "src/otari/api/models.py").read_text("utf-8")
    finally:
        watch.stop()


def test_make_run_shows_the_expected_refusal_as_expected() -> None:
    code, shown = in_terminal("make", "run", cwd=ROOT, env=dict(os.environ))
    assert code == 0, shown
    assert "error" in shown.split("(its refusal is expected):")[1].split("expected: ")[0]
    assert "expected: the published file is invalid; the overlay repairs it" in shown
    assert "Error 1" not in shown and "(ignored)" not in shown


def test_a_new_projects_setup_uses_uv_where_it_is_installed(tmp_path: Path) -> None:
    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("uv is not installed here (make setup then uses pip: test_a_new_users_day)")
    made = subprocess.run([BIN / "contractgen", "new", "otari", "--spec", OTARI_SPEC, "--no-git"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False)
    assert made.returncode == 0, made.stderr
    code, shown = in_terminal("make", "setup", cwd=tmp_path / "otari", env=clean_env())
    assert code == 0, shown
    assert re.search(r"^setup: creating \.venv and installing contractgen \(vendor/[^)]+\), this "
                     r"project and its dev tools with uv$", shown, re.M), shown
    assert re.search(r"^setup: \.venv is ready \(\d+ s\)$", shown, re.M), shown
