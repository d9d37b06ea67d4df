"""Fixtures for the otari-sandbox tests: one event loop in a thread for the whole run, so
sandboxes (which die with the thread that started them) outlive individual tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from otari_sandbox.processes import become_subreaper
from otari_sandbox.sessions import SessionManager
from otari_support import LoopThread, make_manager


@pytest.fixture(scope="session")
def loop_thread() -> Iterator[LoopThread]:
    # As the service does at start (app.main): orphans of sandboxes come back to us, not PID 1.
    become_subreaper()
    runner = LoopThread()
    yield runner
    runner.stop()


@pytest.fixture(scope="module")
def manager(loop_thread: LoopThread) -> Iterator[SessionManager]:
    mgr = make_manager(loop_thread)
    yield mgr
    loop_thread.run(mgr.close())
