"""User code turned against the agent it runs in (it shares the interpreter): the service
enforces deadlines and caps itself, and nothing of the host shows through."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from otari_sandbox.sessions import SessionManager
from otari_support import LoopThread


class Session:
    def __init__(self, loop_thread: LoopThread, manager: SessionManager) -> None:
        self.loop_thread, self.manager = loop_thread, manager
        self.id = loop_thread.run(manager.create()).session_id

    def __call__(self, tool: str, timeout: int | None = None, **payload: object):  # type: ignore[no-untyped-def]
        return self.loop_thread.run(self.manager.execute(self.id, tool, payload, timeout))


@pytest.fixture
def session(loop_thread: LoopThread, manager: SessionManager) -> Iterator[Session]:
    s = Session(loop_thread, manager)
    yield s
    loop_thread.run(manager.destroy(s.id))


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
    if os.geteuid() == 0:
        assert f"uid={manager.config.uid_base}" not in seen and "uid=" not in seen
