"""What one call to a sandbox returns, shaped from the agent's (untrusted) reply, and the
small waits a call is made of: an fd becoming readable, processes having exited."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .agentio import Capture

logger = logging.getLogger(__name__)


@dataclass
class CallResult:
    """What came back from one call, before it is shaped into a tool result."""

    return_code: int
    stdout: bytes = b""
    stdout_dropped: int = 0
    stderr: bytes = b""
    stderr_dropped: int = 0
    timed_out: bool = False
    notes: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    # Why the interpreter is gone, when it is: "unresponsive", "died", "destroyed", "reaped".
    failure: str | None = None


def is_dead(pid: int) -> bool:
    """True once ``pid`` has exited (gone, or a zombie waiting on its parent)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return True
    return stat[stat.rfind(b")") + 2 : stat.rfind(b")") + 3] in (b"Z", b"X")


async def until_dead(pids: list[int], budget: float) -> None:
    """Wait (at most ``budget`` seconds) until every one of ``pids`` has exited."""
    deadline = time.monotonic() + budget
    pending = [pid for pid in pids if not is_dead(pid)]
    while pending and time.monotonic() < deadline:
        await asyncio.sleep(0.002)
        pending = [pid for pid in pending if not is_dead(pid)]
    if pending:
        logger.warning("%d killed stray process(es) still alive after %.1f s", len(pending), budget)


async def readable(fd: int, timeout: float | None = None) -> bool:
    """Wait until ``fd`` is readable (a pidfd: until its process exits); False on timeout."""
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[None] = loop.create_future()

    def _done() -> None:
        if not ready.done():
            ready.set_result(None)

    loop.add_reader(fd, _done)
    try:
        await asyncio.wait_for(ready, timeout)
        return True
    except TimeoutError:
        return False
    finally:
        loop.remove_reader(fd)


def shape_reply(reply: dict[str, Any], captures: list[Capture], failure: str | None, cap: int) -> CallResult:
    """Shape an (untrusted) reply and the captured streams into a CallResult."""
    rc = reply.get("rc")
    result = CallResult(
        return_code=rc if isinstance(rc, int) and not isinstance(rc, bool) else -1,
        timed_out=reply.get("timed_out") is True,
        notes=[n[:500] for n in _strings(reply.get("notes"))[:10]],
        files=[f for f in _strings(reply.get("files"))[:1000] if not f.startswith(("/", "../"))],
        failure=failure,
    )
    if failure is not None:
        result.return_code = -1
    if captures:
        result.stdout, result.stdout_dropped = bytes(captures[0].data), captures[0].dropped
        result.stderr, result.stderr_dropped = bytes(captures[1].data), captures[1].dropped
    else:
        # The agent caps what it sends, but it runs user code: the cap is enforced here too.
        for key in ("stdout", "stderr"):
            value = reply.get(key)
            data = value.encode("utf-8", "replace") if isinstance(value, str) else b""
            setattr(result, key, data[:cap])
            setattr(result, f"{key}_dropped", max(0, len(data) - cap))
        dropped = reply.get("stdout_dropped")
        if isinstance(dropped, int) and not isinstance(dropped, bool) and dropped > 0:
            result.stdout_dropped += dropped
    return result


def _strings(value: object) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
