"""User code turned against the agent it runs in (it shares the interpreter): the service
enforces deadlines and caps itself, and nothing of the host shows through."""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterator

import pytest
from otari_sandbox.exceptions import TooLarge
from otari_sandbox.sessions import SessionManager
from otari_sandbox.tools import ExecOutcome
from otari_support import LoopThread, make_manager


class Session:
    def __init__(self, loop_thread: LoopThread, manager: SessionManager) -> None:
        self.loop_thread, self.manager = loop_thread, manager
        self.id = loop_thread.run(manager.create()).session_id

    def __call__(self, tool: str, timeout: int | None = None, **payload: object) -> ExecOutcome:
        return self.loop_thread.run(self.manager.execute(self.id, tool, payload, timeout))


@pytest.fixture
def session(loop_thread: LoopThread, manager: SessionManager) -> Iterator[Session]:
    s = Session(loop_thread, manager)
    yield s
    loop_thread.run(manager.destroy(s.id))


@pytest.mark.slow
def test_an_agent_that_stops_reading_still_times_out(session: Session) -> None:
    stall = "import sys, time\nsys.modules['otari_agent.channel'].receive = lambda sock: time.sleep(10**6)"
    assert session("code_execution", code=stall).return_code == 0
    # 4 MiB cannot fit in the control socket's buffer: the send itself has to give up.
    big = "x = 1\n" + "#" * (4 << 20)
    stalled = session("code_execution", timeout=2, code=big)
    assert stalled.return_code == -1 and "timed out after 2s" in stalled.stderr
    assert session("code_execution", code="print(2)").stdout == "2"


def test_the_editor_output_cap_holds_even_if_the_agent_lifts_it(session: Session, manager: SessionManager) -> None:
    cap = manager.config.output_cap_bytes
    lift = "import gc\nfor o in gc.get_objects():\n    if type(o).__name__ == 'Agent':\n        o.output_cap = 10**9"
    session("code_execution", code=f"open('big.txt', 'w').write('a' * {3 * cap})\n{lift}")
    view = session("text_editor_code_execution", command="view", path="big.txt")
    assert len(view.stdout) < cap + 200 and view.stdout.endswith("bytes elided]")


def test_the_sandbox_shows_no_host_paths_or_uids(session: Session, manager: SessionManager) -> None:
    seen = session("bash_code_execution", command="tr '\\0' '\\n' < /proc/1/environ; cat /proc/self/mountinfo").stdout
    assert os.getcwd() not in seen
    assert str(manager.layout.root) not in seen
    if manager.layout.mounted:
        # Every mount but bwrap's own root tmpfs (its owner is bwrap's host uid, printed by
        # the kernel; unavoidable while each sandbox has a host uid of its own).
        others = [line for line in seen.splitlines() if len(line.split()) > 4 and line.split()[4] != "/"]
        assert others and not any(re.search(r"[ ,]uid=", line) for line in others)


@pytest.mark.parametrize("cgroups", [True, False])
def test_the_sandbox_init_has_an_empty_environment(loop_thread: LoopThread, cgroups: bool) -> None:
    manager = make_manager(loop_thread, pool_size=0, cgroups=cgroups)
    try:
        s = Session(loop_thread, manager)
        seen = s("bash_code_execution", command="tr '\\0' ' ' < /proc/1/environ; echo end")
        assert seen.stdout.strip() == "end", seen.stdout
        loop_thread.run(manager.destroy(s.id))
    finally:
        loop_thread.run(manager.close())


@pytest.fixture(scope="module")
def quota(loop_thread: LoopThread) -> Iterator[SessionManager]:
    manager = make_manager(loop_thread, pool_size=1, workspace_mb=8, workspace_inodes=200, tmp_mb=4, tmp_inodes=100)
    if not manager.layout.mounted:
        loop_thread.run(manager.close())
        pytest.skip("the service cannot mount here (not root): no disk quota")
    yield manager
    loop_thread.run(manager.close())


def test_disk_quotas_hold_in_bytes_and_inodes(loop_thread: LoopThread, quota: SessionManager) -> None:
    s = Session(loop_thread, quota)
    try:
        fill = "import os\ntry:\n    {body}\nexcept OSError as e:\n    print(os.strerror(e.errno))"
        big = fill.format(body="open('big', 'wb').write(b'x' * (20 << 20))")
        assert s("code_execution", code=big).stdout == "No space left on device"
        many = fill.format(body="[open(f'f{i}', 'w').close() for i in range(1000)]")
        assert s("code_execution", code=many).stdout == "No space left on device"
        tmp = fill.format(body="open('/tmp/big', 'wb').write(b'x' * (8 << 20))")
        assert s("code_execution", code=tmp).stdout == "No space left on device"
        shm = fill.format(body="open('/dev/shm/big', 'wb').write(b'x' * (8 << 20))")
        assert s("code_execution", code=f"import os; os.remove('/tmp/big')\n{shm}").stdout == "No space left on device"
        # The service's own writes meet the same quota: an upload is then too large (413).
        s("bash_code_execution", command="rm -f big f*")
        workspace = quota.workspace(s.id)
        with pytest.raises(TooLarge):
            workspace.write("upload.bin", io.BytesIO(b"y" * (12 << 20)), 100 << 20)
        assert [f.path for f in workspace.list(".")] == []
    finally:
        loop_thread.run(quota.destroy(s.id))
