"""Per-sandbox cgroups, against real sandboxes and the machine's real cgroups."""

from __future__ import annotations

import asyncio
import signal
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from otari_sandbox.cgroups import CgroupTree
from otari_sandbox.exceptions import SandboxUnavailable
from otari_sandbox.sessions import SessionManager
from otari_support import FORK_BOMB, LoopThread, call, make_manager


@pytest.fixture(scope="module")
def capped(loop_thread: LoopThread) -> Iterator[SessionManager]:
    # Unusable cgroups are a refusal to start (below), never a silent skip of these tests.
    manager = make_manager(loop_thread, pool_size=1, memory_mb=256, nproc=32)
    assert manager.cgroups is not None
    yield manager
    parents = manager.cgroups.parents
    loop_thread.run(manager.close())
    assert not any(parent.exists() for parent in parents.values())


def test_processes_together_exceeding_the_session_cap_are_killed(
    loop_thread: LoopThread, capped: SessionManager
) -> None:
    # Each 150 MiB process is well under its own 256 MiB address-space cap; two are not.
    hog = "python3 -c 'import time; x = b\"x\" * (150 << 20); time.sleep(1); print(\"alive\")'"
    result = call(loop_thread, capped, "bash_code_execution", command=f"{hog} & {hog} & wait")
    assert result.stdout.count("alive") < 2
    assert "memory limit reached (the session's processes together are capped at 256 MiB)" in result.stderr


def test_one_process_under_the_cap_is_untouched(loop_thread: LoopThread, capped: SessionManager) -> None:
    result = call(loop_thread, capped, "code_execution", code="x = b'x' * (150 << 20); print(len(x) >> 20)")
    assert result.stdout == "150" and "limit" not in result.stderr


def test_fork_bomb_is_capped_by_the_cgroup(loop_thread: LoopThread, capped: SessionManager) -> None:
    result = call(loop_thread, capped, "code_execution", code=FORK_BOMB)
    assert result.return_code == 0 and 20 < int(result.stdout) < 32
    assert "process limit reached (32 processes per session)" in result.stderr


def test_cgroup_is_removed_with_its_session(loop_thread: LoopThread, capped: SessionManager) -> None:
    session = loop_thread.run(capped.create())
    cgroup = session.box.sandbox.cgroup
    assert cgroup is not None
    for procs in cgroup.procs_files:
        assert len(procs.read_text().split()) >= 3  # bwrap, its PID 1, the agent
    loop_thread.run(capped.destroy(session.session_id))
    assert not any(path.exists() for path in cgroup.dirs.values())


def test_unusable_cgroups_refuse_to_start_unless_turned_off(
    loop_thread: LoopThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As in a container without a writable cgroup of its own (deploy/README.md).
    monkeypatch.setattr(CgroupTree, "detect", classmethod(lambda cls, *args: None))
    with pytest.raises(SandboxUnavailable, match=r"no usable cgroups: .*--no-cgroups \(SANDBOX_CGROUPS=0\)"):
        make_manager(loop_thread, pool_size=1)
    manager = make_manager(loop_thread, pool_size=1, cgroups=False)
    try:
        assert manager.cgroups is None and manager.pooled() == 1
    finally:
        loop_thread.run(manager.close())


def test_without_cgroups_rlimits_stay(loop_thread: LoopThread) -> None:
    manager = make_manager(loop_thread, pool_size=1, nproc=32, cgroups=False)
    try:
        assert manager.cgroups is None
        result = call(loop_thread, manager, "code_execution", code=FORK_BOMB)
        assert result.return_code == 0 and 20 < int(result.stdout) < 32
    finally:
        loop_thread.run(manager.close())


def _pending_kill(pid: int) -> bool:
    """True if SIGKILL waits on ``pid`` (a frozen process takes it when thawed)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True  # already gone
    pending = [int(line.split()[1], 16) for line in status.splitlines() if line.startswith(("SigPnd", "ShdPnd"))]
    return any(mask & (1 << (signal.SIGKILL - 1)) for mask in pending)


def _exited(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat[stat.rindex(")") + 2] in "ZX"


BURNER = (
    "import subprocess, threading\n"
    "def burn():\n"
    "    while True:\n"
    "        try:\n"
    "            subprocess.Popen(['sh', '-c', 'while :; do :; done'])\n"
    "        except OSError:\n"
    "            pass\n"
    "        for _ in range(10**6):\n"
    "            pass\n"
    "threading.Thread(target=burn, daemon=True).start()\n"
)


@pytest.mark.slow
def test_nothing_runs_between_calls(loop_thread: LoopThread, capped: SessionManager) -> None:
    session = loop_thread.run(capped.create())
    cgroup = session.box.sandbox.cgroup
    assert cgroup is not None
    if not cgroup.can_freeze:
        pytest.skip("no freezer controller here")
    try:
        run = lambda code: loop_thread.run(capped.execute(session.session_id, "code_execution", {"code": code}, 20))  # noqa: E731
        assert run(BURNER).return_code == 0
        # A thread of the interpreter keeps starting processes after the call's clean-up: the
        # whole sandbox is frozen (at once when a process outlived the call, else once idle
        # for FREEZE_AFTER), and whatever it started is killed.
        while not cgroup.frozen:
            loop_thread.run(asyncio.sleep(0.01))
        strays = [p for p in cgroup.pids() if p not in session.box.sandbox._resident]
        assert all(_pending_kill(pid) for pid in strays)
        before = cgroup.cpu_seconds()
        threading.Event().wait(1.0)  # an observation window, not an ordering
        assert cgroup.cpu_seconds() - before < 0.05
        assert run("print('thawed')").stdout == "thawed"
        # The kills land as the sandbox thaws, before the call runs: every stray has exited
        # (gone, or a zombie its frozen parent has not reaped yet; it holds no CPU or memory).
        assert all(_exited(pid) for pid in strays)
    finally:
        loop_thread.run(capped.destroy(session.session_id))


@pytest.mark.slow
def test_a_call_spends_at_most_one_cpu(loop_thread: LoopThread, capped: SessionManager) -> None:
    if capped.cgroups is None or not ({"cpu", "unified"} & set(capped.cgroups.parents)):
        pytest.skip("no cpu controller here")
    session = loop_thread.run(capped.create())
    cgroup = session.box.sandbox.cgroup
    assert cgroup is not None
    try:
        before = cgroup.cpu_seconds()
        busy = "for i in 1 2 3; do timeout 2 sh -c 'while :; do :; done' & done; wait"
        loop_thread.run(capped.execute(session.session_id, "bash_code_execution", {"command": busy}, 20))
        # Three busy processes for 2 s would take up to 4 CPU-seconds of this 2-core machine
        # (6 of a bigger one); capped at 1 CPU they get 2 (plus a period's rounding).
        assert cgroup.cpu_seconds() - before < 2.4
    finally:
        loop_thread.run(capped.destroy(session.session_id))


def test_a_thread_burning_cpu_alone_is_frozen(loop_thread: LoopThread, capped: SessionManager) -> None:
    session = loop_thread.run(capped.create())
    cgroup = session.box.sandbox.cgroup
    assert cgroup is not None
    if not cgroup.can_freeze:
        pytest.skip("no freezer controller here")
    try:
        spin = "import threading\ndef spin():\n    while True:\n        pass\nthreading.Thread(target=spin, daemon=True).start()"
        run = lambda code: loop_thread.run(capped.execute(session.session_id, "code_execution", {"code": code}, 20))  # noqa: E731
        assert run(spin).return_code == 0
        # No process outlived the call, only a thread: counted as a task, frozen at once.
        while not cgroup.frozen:
            loop_thread.run(asyncio.sleep(0.01))
        before = cgroup.cpu_seconds()
        threading.Event().wait(1.0)  # an observation window, not an ordering
        assert cgroup.cpu_seconds() - before < 0.05
        assert run("print('thawed')").stdout == "thawed"
    finally:
        loop_thread.run(capped.destroy(session.session_id))
