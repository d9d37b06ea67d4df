"""The runtime against real bubblewrap sandboxes, without HTTP: interpreter semantics,
output capture, timeouts, produced files and the session manager."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Iterator
from typing import Any

import pytest
from otari_sandbox.exceptions import AtCapacity, InvalidRequest, SessionNotFound, UnknownTool
from otari_sandbox.sandbox import Sandbox
from otari_sandbox.sessions import SessionManager
from otari_sandbox.tools import ExecOutcome
from otari_support import LoopThread, make_manager, processes


class Runner:
    """Synchronous calls into one session."""

    def __init__(self, loop_thread: LoopThread, manager: SessionManager, session_id: str) -> None:
        self.loop_thread = loop_thread
        self.manager = manager
        self.session_id = session_id

    def __call__(self, tool: str, timeout: int | None = None, **payload: Any) -> ExecOutcome:
        return self.loop_thread.run(self.manager.execute(self.session_id, tool, payload, timeout))

    def py(self, code: str, timeout: int | None = None) -> ExecOutcome:
        return self("code_execution", timeout, code=code)

    def sh(self, command: str, timeout: int | None = None) -> ExecOutcome:
        return self("bash_code_execution", timeout, command=command)


@pytest.fixture
def run(loop_thread: LoopThread, manager: SessionManager) -> Iterator[Runner]:
    session = loop_thread.run(manager.create())
    yield Runner(loop_thread, manager, session.session_id)
    loop_thread.run(manager.destroy(session.session_id))


def test_python_state_errors_and_exit_codes(run: Runner) -> None:
    assert run.py("x = 40\nprint(x + 2)").stdout == "42"
    failed = run.py("def f():\n    return 1 / 0\nf()")
    assert failed.return_code == 1
    assert failed.stderr.startswith("Traceback (most recent call last):\n  File \"<sandbox-")
    assert "return 1 / 0" in failed.stderr and "ZeroDivisionError" in failed.stderr
    assert "otari" not in failed.stderr and "main.py" not in failed.stderr
    assert run.py("import sys\nprint('bye')\nsys.exit(3)").return_code == 3
    assert run.py("sys.exit('message')").stderr == "message"
    assert run.py("print(x)").stdout == "40"
    syntax = run.py("def (:")
    assert syntax.return_code == 1 and "SyntaxError" in syntax.stderr


def test_python_captures_fd_level_and_child_output_in_order(run: Runner) -> None:
    result = run.py(
        "import os, subprocess, sys\n"
        "print('a')\n"
        "os.write(1, b'b\\n')\n"
        "subprocess.run(['echo', 'c'])\n"
        "os.system('echo d >&2')\n"
        "print('e', file=sys.stderr)\n"
    )
    assert (result.stdout, result.stderr) == ("a\nb\nc", "d\ne")
    assert run.py("print('one trailing newline only\\n')").stdout == "one trailing newline only\n"


def test_bash_output_is_exact_and_each_call_is_a_fresh_shell(run: Runner) -> None:
    result = run.sh("cd /tmp; printf 'x\\n\\n'; echo err >&2; exit 7")
    assert (result.stdout, result.stderr, result.return_code) == ("x\n\n", "err\n", 7)
    assert result.block_type == "bash_code_execution_tool_result"
    assert run.sh("pwd; id -un").stdout == "/workspace\nsandbox\n"


def test_protocol_looking_output_cannot_desynchronise(run: Runner) -> None:
    noise = "---SBX_DONE--- 0\n\x00\xff" + '{"rc": 0, "id": 1}'
    assert run.py(f"print({noise!r})").stdout == noise
    assert run.py("print('still fine')").stdout == "still fine"


def test_background_processes_do_not_hold_the_call_and_do_not_survive_it(run: Runner) -> None:
    # Held by either, a call would outlast the 60 s the test waits for it.
    assert run.sh("sleep 300 & echo started").stdout == "started\n"
    assert run.py("import subprocess; p = subprocess.Popen(['sleep', '300'])").return_code == 0
    alive = run.py("import os; print(sorted(int(p) for p in os.listdir('/proc') if p.isdigit()))")
    assert alive.stdout == "[1, 2]"  # bwrap's init and the agent, nothing else


def test_python_timeout_keeps_state_and_returns_partial_output(run: Runner) -> None:
    run.py("kept = 'yes'")
    result = run.py("import time\nprint('partial', flush=True)\ntime.sleep(30)", timeout=1)
    assert result.return_code == -1 and result.stdout == "partial"
    assert "timed out after 1s (interpreter state kept)" in result.stderr
    assert run.py("print(kept)").stdout == "yes"


@pytest.mark.slow
def test_unstoppable_python_is_killed_and_the_session_recovers(run: Runner) -> None:
    run.py("kept = 'yes'\nopen('survives.txt', 'w').write('on disk')")
    code = (
        "import signal, time\n"
        "signal.signal(signal.SIGALRM, signal.SIG_IGN)\n"
        "print('before', flush=True)\n"
        "time.sleep(30)"
    )
    result = run.py(code, timeout=1)
    assert result.return_code == -1 and result.stdout == "before"
    assert "state was lost" in result.stderr
    after = run.py("print(open('survives.txt').read()); print('kept' in globals())")
    assert after.stdout == "on disk\nFalse"


def test_bash_timeout_kills_background_work(run: Runner) -> None:
    result = run.sh("(sleep 60; echo never) & echo now; sleep 60", timeout=1)
    assert result.return_code == -1 and result.stdout == "now\n"
    assert "bash: command timed out after 1s" in result.stderr
    alive = run.py("import os; print(sorted(int(p) for p in os.listdir('/proc') if p.isdigit()))")
    assert alive.stdout == "[1, 2]"


def test_outputs_are_capped_with_a_marker(run: Runner) -> None:
    result = run.py("import sys; sys.stdout.write('x' * (3 * 1024 * 1024))")
    assert len(result.stdout) < 1024 * 1024 + 100
    assert result.stdout.endswith(f"[output truncated by sandbox: {2 * 1024 * 1024} bytes elided]")
    huge = run.sh("head -c 50000000 /dev/zero | tr '\\0' 'y'; echo; echo tail >&2")
    assert huge.return_code == 0 and huge.stderr == "tail\n" and "bytes elided" in huge.stdout


def test_produced_files_are_listed(run: Runner) -> None:
    result = run.py(
        "import os\nos.makedirs('out', exist_ok=True)\n"
        "open('out/chart.png', 'wb').write(b'png')\nopen('.hidden', 'w').write('x')"
    )
    assert result.files == ["out/chart.png"]
    assert run.sh("touch out/chart.png notes.txt").files == ["notes.txt", "out/chart.png"]
    assert run.py("x = 1").files == []
    editor = run("text_editor_code_execution", command="create", path="e.txt", file_text="hi")
    assert editor.files == [] and editor.stdout == "File created: e.txt\n"


def test_editor_runs_in_the_sandbox(run: Runner) -> None:
    run.sh("mkdir -p d && printf 'a\\nb\\n' > d/f.txt && ln -s /etc/passwd d/pw")
    view = run("text_editor_code_execution", command="view", path="d/f.txt", view_range=[2, -1])
    assert (view.stdout, view.return_code) == ("b", 0)
    assert view.block_type == "text_editor_code_execution_tool_result"
    escape = run("text_editor_code_execution", command="view", path="d/pw")
    assert escape.return_code == 1 and "escapes workspace" in escape.stderr
    missing = run("text_editor_code_execution", command="str_replace", path="d", old_str="a", new_str="b")
    assert missing.return_code == 1 and missing.stderr == "text_editor: path is a directory: d\n"


def test_isolation_from_host_and_other_sessions(
    loop_thread: LoopThread, manager: SessionManager, run: Runner
) -> None:
    other = loop_thread.run(manager.create())
    try:
        other_root = other.box.workspace.root
        (other_root / "theirs.txt").write_text("private")
        probe = run.py(
            "import os, socket\n"
            "print(os.path.exists('/work'), os.path.exists('/root'), os.listdir('/opt/otari'))\n"
            f"print(os.path.exists({str(other_root)!r}))\n"
            "s = socket.socket()\n"
            "try:\n    s.connect(('127.0.0.1', 22)); print('connected')\n"
            "except OSError as e:\n    print(type(e).__name__)\n"
        )
        assert probe.stdout == "False False ['otari_agent']\nFalse\nConnectionRefusedError"
        assert run.sh("ls -A /").stdout.split() == [
            "bin", "dev", "etc", "lib", "lib64", "opt", "proc", "sbin", "tmp", "usr", "var", "workspace"
        ]
    finally:
        loop_thread.run(manager.destroy(other.session_id))


def test_validation_errors(run: Runner) -> None:
    with pytest.raises(UnknownTool):
        run("web_search", code="x")
    with pytest.raises(InvalidRequest):
        run.py("x = 1", timeout=121)
    with pytest.raises(InvalidRequest):
        run("code_execution", command="ls")
    with pytest.raises(InvalidRequest):
        run("text_editor_code_execution", command="create", path="x")
    with pytest.raises(InvalidRequest):
        run("text_editor_code_execution", command="insert", path="x", new_str="y")


def test_agent_protocol_abuse_only_hurts_its_own_session(run: Runner) -> None:
    code = (
        "import os, stat\n"
        "for fd in map(int, os.listdir('/proc/self/fd')):\n"
        "    try:\n"
        "        if stat.S_ISSOCK(os.fstat(fd).st_mode): os.write(fd, b'\\x00\\x00\\x00\\x05garbage')\n"
        "    except OSError: pass\n"
    )
    result = run.py(code)
    assert result.return_code == -1 and "state was lost" in result.stderr
    assert run.py("print('recovered')").stdout == "recovered"


def test_session_lifecycle_capacity_and_reaping(loop_thread: LoopThread) -> None:
    manager = make_manager(loop_thread, capacity=2, pool_size=1, idle_timeout_seconds=60)
    try:
        first = loop_thread.run(manager.create(idle_timeout_seconds=10_000, max_lifetime_seconds=5))
        assert (first.idle_timeout_seconds, first.max_lifetime_seconds) == (60, 5)
        second = loop_thread.run(manager.create())
        with pytest.raises(AtCapacity):
            loop_thread.run(manager.create())
        assert loop_thread.run(manager.reap(now=time.time() + 30)) == [first.session_id]
        with pytest.raises(SessionNotFound):
            loop_thread.run(manager.execute(first.session_id, "code_execution", {"code": "1"}, None))
        assert not first.box.workspace.root.exists()
        loop_thread.run(manager.create())
        assert loop_thread.run(manager.destroy(second.session_id)) is True
        assert loop_thread.run(manager.destroy(second.session_id)) is False
    finally:
        loop_thread.run(manager.close())


def test_destroy_during_a_call_returns_a_clean_result(
    loop_thread: LoopThread, manager: SessionManager
) -> None:
    session = loop_thread.run(manager.create())
    uid = session.box.sandbox.uid
    call = loop_thread.submit(
        manager.execute(session.session_id, "bash_code_execution", {"command": "sleep 5 & touch started; sleep 30"}, 60)
    )
    while not (session.box.workspace.root / "started").exists():
        assert not call.done()
        os.sched_yield()
    loop_thread.run(manager.destroy(session.session_id))
    result = call.result(5)
    assert result.return_code == -1 and "destroyed during the call" in result.stderr
    assert not session.box.workspace.root.exists()
    if uid is not None:
        assert _processes_of(uid) == []


def _processes_of(uid: int) -> list[int]:
    return processes(lambda pid: os.stat(f"/proc/{pid}").st_uid == uid)


def test_sessions_run_in_parallel(loop_thread: LoopThread, manager: SessionManager) -> None:
    sessions = [loop_thread.run(manager.create()) for _ in range(6)]
    # The monotonic clock is the host's inside the sandboxes (no time namespace).
    code = "import time; start = time.monotonic(); time.sleep(1); print(start, time.monotonic())"

    async def many() -> list[ExecOutcome]:
        return await asyncio.gather(*(manager.execute(s.session_id, "code_execution", {"code": code}, None) for s in sessions))

    try:
        spans = [tuple(map(float, r.stdout.split())) for r in loop_thread.run(many())]
    finally:
        for session in sessions:
            loop_thread.run(manager.destroy(session.session_id))
    # Every call was running at the same moment: the last to start began before the first ended.
    assert max(start for start, _ in spans) < min(end for _, end in spans)


_START_DELAYS = [0.0, 0.003, 0.01, 0.03, 0.1]


@pytest.mark.parametrize("delay", _START_DELAYS)
def test_a_cancelled_start_leaves_no_process(
    loop_thread: LoopThread, manager: SessionManager, delay: float
) -> None:
    # A uid per case, so a straggler of one case is never counted against the next.
    uid = manager.config.uid_base + 990 + _START_DELAYS.index(delay)
    workspace = manager.layout.workspaces / f"cancelled-{delay}"
    manager._make_dirs(workspace, uid)  # and, on a mounted layout, its scratch /tmp
    sandbox = Sandbox(manager.config, manager.layout, workspace, uid)

    async def attempt() -> None:
        task = asyncio.ensure_future(sandbox.start())
        await asyncio.sleep(delay)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        if not task.cancelled():
            # The start won the race and finished first: stopping must clean up just as well.
            await sandbox.stop()

    loop_thread.run(attempt())
    deadline = time.monotonic() + 3
    while _processes_of(uid) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _processes_of(uid) == []
