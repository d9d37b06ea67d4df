"""Trees deeper than Python's recursion limit, wider than a few fds, longer than PATH_MAX:
listed, removed and cleaned up at start without recursion."""

from __future__ import annotations

import asyncio
import io
import os
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from otari_sandbox.exceptions import SandboxUnavailable
from otari_sandbox.files import MAX_LISTED, Workspace
from otari_sandbox.layout import Layout
from otari_sandbox.sessions import SessionManager
from otari_sandbox.trees import remove_tree
from otari_support import LoopThread, make_chain, make_manager


@pytest.fixture
def fast_tmp(tmp_path: Path) -> Iterator[Path]:
    """A scratch directory on tmpfs when there is one: removing a directory on this machine's
    disk costs ~4 ms, and these trees have thousands."""
    if not os.path.isdir("/dev/shm"):
        yield tmp_path
        return
    path = Path(tempfile.mkdtemp(prefix="otari-test-", dir="/dev/shm"))
    yield path
    remove_tree(path)


def test_remove_tree_handles_chains_past_path_max(fast_tmp: Path) -> None:
    root = fast_tmp / "deep"
    root.mkdir()
    # 5000 levels of "d/" is 10 000 characters: past PATH_MAX and Python's recursion limit.
    make_chain(str(root), 5000)
    (root / "link").symlink_to("/etc")
    os.mkfifo(root / "fifo")
    locked = root / "locked"
    locked.mkdir()
    (locked / "f").write_text("x")
    locked.chmod(0)
    remove_tree(root)
    assert not root.exists()
    assert Path("/etc/passwd").exists()
    remove_tree(root)  # already gone


def test_remove_tree_of_a_symlink_removes_only_the_link(fast_tmp: Path) -> None:
    target = fast_tmp / "target"
    target.mkdir()
    (target / "kept").write_text("x")
    (fast_tmp / "link").symlink_to(target)
    remove_tree(fast_tmp / "link")
    assert (target / "kept").exists() and not (fast_tmp / "link").exists()


def test_list_walks_deep_trees_with_few_fds(fast_tmp: Path) -> None:
    make_chain(str(fast_tmp), 1100)
    before = len(os.listdir("/proc/self/fd"))
    listed = Workspace(fast_tmp).list(".")
    assert len(os.listdir("/proc/self/fd")) == before
    assert len(listed) == 1101 and listed[-1].path == "d/" * 1100 + "leaf.txt"


def test_list_stops_at_path_max(fast_tmp: Path) -> None:
    make_chain(str(fast_tmp), 3000)
    listed = Workspace(fast_tmp).list(".")
    assert listed and max(len(f.path) for f in listed) < 4096
    assert len(listed) < MAX_LISTED


def test_layout_start_removes_deep_leftovers() -> None:
    # A state root must be traversable by the sandboxes' uids: not below pytest's 0700 tmp.
    state = Path(tempfile.mkdtemp(prefix="otari-test-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None))
    layout = Layout.create(state)
    left = layout.workspaces / "abc"
    left.mkdir()
    make_chain(str(left), 1500)
    (layout.trash / "old").mkdir()
    make_chain(str(layout.trash / "old"), 1500)
    again = Layout.create(state)
    assert os.listdir(again.workspaces) == [] and os.listdir(again.trash) == []
    again.remove()
    assert os.listdir(state) == []
    state.rmdir()


def test_the_reaper_removes_deep_workspaces(loop_thread: LoopThread, manager: SessionManager) -> None:
    session = loop_thread.run(manager.create())
    root = session.box.workspace.root
    make_chain(str(root), 1100)
    assert loop_thread.run(manager.reap(now=time.time() + 10**6)) == [session.session_id]
    assert not root.exists()
    loop_thread.run(manager.drain_reclaimer())
    assert os.listdir(manager.layout.trash) == []


@pytest.fixture(scope="module")
def on_disk(loop_thread: LoopThread) -> Iterator[SessionManager]:
    """Workspaces on the host's disk (a tmpfs workspace is unmounted, not deleted)."""
    manager = make_manager(loop_thread, pool_size=1, workspace_mb=0)
    yield manager
    loop_thread.run(manager.close())


def test_deleting_a_workspace_holds_up_no_file_operation(loop_thread: LoopThread, on_disk: SessionManager) -> None:
    manager = on_disk
    busy, release = threading.Event(), threading.Event()

    def long_deletion() -> None:
        busy.set()
        release.wait(60)

    # The reclaimer thread is held, as by a huge tree; file operations must not wait for it.
    blocker = manager._reclaimer.submit(long_deletion)
    busy.wait(10)
    doomed, other = loop_thread.run(manager.create()), loop_thread.run(manager.create())
    try:
        loop_thread.run(manager.destroy(doomed.session_id))
        assert os.listdir(manager.layout.trash) == [doomed.box.workspace.root.name]
        workspace = manager.workspace(other.session_id)
        workspace.write("f.txt", io.BytesIO(b"x"), 10)
        assert [f.path for f in loop_thread.run(asyncio.to_thread(workspace.list, "."))] == ["f.txt"]
    finally:
        release.set()
        blocker.result(10)
        loop_thread.run(manager.destroy(other.session_id))
    loop_thread.run(manager.drain_reclaimer())
    assert os.listdir(manager.layout.trash) == []


def test_the_pool_refill_survives_errors_and_resumes(loop_thread: LoopThread) -> None:
    manager = make_manager(loop_thread, pool_size=1, refill_delay_seconds=0.0)
    try:
        workspaces = manager.layout.workspaces
        away = workspaces.with_name("workspaces.away")
        # Every mkdir of a new workspace now fails (ENOTDIR), as a full disk fails them.
        workspaces.rename(away)
        workspaces.write_text("not a directory")
        session = loop_thread.run(manager.create())
        while manager.refill_errors < 2:
            loop_thread.run(asyncio.sleep(0.01))
        assert manager.pooled() == 0 and not any(task.done() for task in manager._tasks)
        with pytest.raises(SandboxUnavailable):  # 503 + Retry-After over HTTP, not a 500
            loop_thread.run(manager.create())
        workspaces.unlink()
        away.rename(workspaces)
        while manager.pooled() < 1:
            loop_thread.run(asyncio.sleep(0.01))
        loop_thread.run(manager.destroy(session.session_id))
    finally:
        loop_thread.run(manager.close())
