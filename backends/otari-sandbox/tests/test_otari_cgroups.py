"""Per-sandbox cgroups, against real sandboxes and the machine's real cgroups."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from otari_sandbox.sessions import SessionManager
from otari_support import FORK_BOMB, LoopThread, call, make_manager


@pytest.fixture(scope="module")
def capped(loop_thread: LoopThread) -> Iterator[SessionManager]:
    manager = make_manager(loop_thread, pool_size=1, memory_mb=256, nproc=32)
    if manager.cgroups is None:
        loop_thread.run(manager.close())
        pytest.skip("cgroups are unusable here (neither v2 with memory+pids nor v1 memory+pids)")
    yield manager
    parents = manager.cgroups.parents
    loop_thread.run(manager.close())
    assert not any(parent.exists() for parent in parents)


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
    assert not any(path.exists() for path in cgroup.dirs)


def test_without_cgroups_rlimits_stay(loop_thread: LoopThread) -> None:
    manager = make_manager(loop_thread, pool_size=1, nproc=32, cgroups=False)
    try:
        assert manager.cgroups is None
        result = call(loop_thread, manager, "code_execution", code=FORK_BOMB)
        assert result.return_code == 0 and 20 < int(result.stdout) < 32
    finally:
        loop_thread.run(manager.close())
