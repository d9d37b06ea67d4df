"""Resource limits, secrets and the isolation switch, against real sandboxes."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest
from otari_sandbox.config import Settings
from otari_sandbox.exceptions import SandboxUnavailable
from otari_sandbox.sessions import SessionManager
from otari_sandbox.tools import ExecOutcome
from otari_support import FORK_BOMB, LoopThread, call, make_manager

SECRET = "OTARI_TEST_SECRET"


@pytest.fixture(scope="module")
def tight(loop_thread: LoopThread) -> Iterator[SessionManager]:
    os.environ[SECRET] = "hunter2"
    try:
        manager = make_manager(
            loop_thread, pool_size=1, memory_mb=256, nproc=32, fsize_mb=1, cpu_seconds=1
        )
    finally:
        del os.environ[SECRET]
    os.environ[SECRET] = "hunter2"  # also present while calls run
    yield manager
    del os.environ[SECRET]
    loop_thread.run(manager.close())


def test_memory_limit_is_reported(loop_thread: LoopThread, tight: SessionManager) -> None:
    result = call(loop_thread, tight, "code_execution", code="x = bytearray(512 * 1024 * 1024)")
    assert result.return_code == 1 and "MemoryError" in result.stderr
    assert "memory limit reached" in result.stderr


def test_process_limit_contains_a_fork_bomb(loop_thread: LoopThread, tight: SessionManager) -> None:
    result = call(loop_thread, tight, "code_execution", code=FORK_BOMB)
    assert result.return_code == 0 and 20 < int(result.stdout) < 32


def test_file_size_limit_is_reported(loop_thread: LoopThread, tight: SessionManager) -> None:
    result = call(loop_thread, tight, "code_execution", code="open('big', 'wb').write(b'x' * 2_000_000)")
    assert result.return_code == 1 and "file size limit reached" in result.stderr
    shell = call(loop_thread, tight, "bash_code_execution", command="head -c 2000000 /dev/zero > big")
    assert shell.return_code != 0 and "File size limit exceeded" in shell.stderr


@pytest.mark.slow
def test_cpu_limit_is_per_call(loop_thread: LoopThread, tight: SessionManager) -> None:
    session = loop_thread.run(tight.create())
    try:
        def py(code: str) -> ExecOutcome:
            return loop_thread.run(tight.execute(session.session_id, "code_execution", {"code": code}, 20))

        burn = py("while True: pass")
        assert burn.return_code == -1 and "CPU time limit exceeded (1 s per call)" in burn.stderr
        assert "timed out" not in burn.stderr
        # The allowance is reset for the next call; the state survived.
        assert py("t = 0\nfor i in range(10**6): t += i\nprint(t)").stdout == str(sum(range(10**6)))
    finally:
        loop_thread.run(tight.destroy(session.session_id))


def test_service_environment_is_invisible(loop_thread: LoopThread, tight: SessionManager) -> None:
    code = (
        "import os, glob\n"
        "blobs = [os.environ.get('OTARI_TEST_SECRET', '')]\n"
        "for path in glob.glob('/proc/*/environ'):\n"
        "    try:\n        blobs.append(open(path, 'rb').read().decode())\n"
        "    except OSError:\n        pass\n"
        "print(any('hunter2' in b for b in blobs), len(blobs) > 2)\n"
    )
    assert call(loop_thread, tight, "code_execution", code=code).stdout == "False True"
    shell = call(loop_thread, tight, "bash_code_execution", command="cat /proc/1/environ /proc/*/environ | grep -c hunter2")
    assert shell.stdout == "0\n"


def test_missing_bubblewrap_refuses_to_start(loop_thread: LoopThread) -> None:
    manager = SessionManager(Settings(bwrap="/nonexistent/bwrap", pool_size=1))
    with pytest.raises(SandboxUnavailable, match="--isolation none"):
        loop_thread.run(manager.start())


def test_isolation_none_still_works(loop_thread: LoopThread) -> None:
    manager = make_manager(loop_thread, isolation="none", pool_size=1)
    try:
        session = loop_thread.run(manager.create())
        root = session.box.workspace.root
        result = loop_thread.run(
            manager.execute(session.session_id, "bash_code_execution", {"command": "pwd; sleep 30 & echo ok"}, 10)
        )
        assert result.stdout == f"{root}\nok\n"
        state = loop_thread.run(
            manager.execute(session.session_id, "code_execution", {"code": "x = 2; print(x * 21)"}, 10)
        )
        assert state.stdout == "42"
    finally:
        loop_thread.run(manager.close())


@pytest.mark.slow
def test_descendant_killing_without_a_namespace() -> None:
    """The fallback of isolation "none" without root: the process tree, grandchildren too."""
    script = (
        "import os, subprocess, time\n"
        "from otari_sandbox.agent import limits\n"
        "subprocess.Popen(['sh', '-c', 'sleep 60 & sleep 60'])\n"
        "subprocess.Popen(['sleep', '60'], start_new_session=True)\n"
        "time.sleep(0.3)\n"
        "limits.kill_others('descendants')\n"
        "print(len(limits._descendants(os.getpid())))\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=30, check=True)
    assert run.stdout == "0\n"
