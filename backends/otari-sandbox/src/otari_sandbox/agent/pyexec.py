"""The session's persistent Python interpreter: one namespace, one cell per call."""

import builtins
import errno
import linecache
import os
import signal
import sys
import traceback
import types
from dataclasses import dataclass, field
from typing import Any, TextIO

from . import limits as _limits

_AGENT_DIR = os.path.dirname(os.path.abspath(__file__))
# After the deadline the alarm keeps firing, so code that swallows one interrupt meets the
# next; the service's hard deadline is the backstop for code that swallows them all.
_REPEAT_SECONDS = 0.05


class CallInterrupted(BaseException):
    """Raised into user code when its call runs out of time or CPU."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class Outcome:
    """What one cell did; stdout and stderr went to the call's descriptors."""

    return_code: int
    timed_out: bool = False
    notes: list[str] = field(default_factory=list)


class Interpreter:
    """Runs cells in one ``__main__`` namespace that survives errors and ``sys.exit``."""

    def __init__(self, limits: _limits.Limits) -> None:
        self.limits = limits
        module = types.ModuleType("__main__")
        module.__dict__["__builtins__"] = builtins
        # pickle and friends look user classes up in sys.modules["__main__"].
        sys.modules["__main__"] = module
        self.namespace: dict[str, Any] = module.__dict__
        self.cells = 0
        self._armed = False
        self._stdout = sys.stdout
        self._stderr = sys.stderr
        self._stdin = sys.stdin
        signal.signal(signal.SIGALRM, self._on_alarm)
        signal.signal(signal.SIGXCPU, self._on_cpu)

    def _on_alarm(self, _signum: int, _frame: object) -> None:
        if self._armed:
            raise CallInterrupted("timeout")

    def _on_cpu(self, _signum: int, _frame: object) -> None:
        if self._armed:
            raise CallInterrupted("cpu")

    def run(self, code: str, timeout: float) -> Outcome:
        """Execute one cell with a wall-clock deadline and a fresh CPU allowance."""
        self.cells += 1
        filename = f"<sandbox-{self.cells}>"
        # Registered so tracebacks and inspect.getsource show the user's lines.
        linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
        try:
            outcome = self._run_armed(code, filename, timeout)
        except CallInterrupted as exc:
            outcome = self._interrupted(exc)
        finally:
            self._disarm()
            self._restore_streams()
        return outcome

    def _disarm(self) -> None:
        # The flag goes first: a signal landing after it is ignored by the handlers.
        self._armed = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        _limits.disarm_cpu()

    def _run_armed(self, code: str, filename: str, timeout: float) -> Outcome:
        _limits.arm_cpu(self.limits.cpu_seconds)
        self._armed = True
        signal.setitimer(signal.ITIMER_REAL, timeout, _REPEAT_SECONDS)
        try:
            try:
                compiled = compile(code, filename, "exec", dont_inherit=True)
                exec(compiled, self.namespace)
            finally:
                self._disarm()
        except CallInterrupted:
            raise
        except SystemExit as exc:
            return Outcome(self._exit_code(exc))
        except BaseException as exc:
            _print_user_traceback(exc, self._stderr)
            return Outcome(1, notes=self._notes_for(exc))
        return Outcome(0)

    def _interrupted(self, exc: CallInterrupted) -> Outcome:
        if exc.reason == "cpu":
            note = f"CPU time limit exceeded ({self.limits.cpu_seconds} s per call)"
            return Outcome(-1, notes=[note])
        return Outcome(-1, timed_out=True)

    def _exit_code(self, exc: SystemExit) -> int:
        code = exc.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        # What the interpreter itself does with sys.exit("message").
        print(code, file=self._stderr)
        return 1

    def _notes_for(self, exc: BaseException) -> list[str]:
        if isinstance(exc, MemoryError) and self.limits.memory_mb:
            return [f"memory limit reached (address space capped at {self.limits.memory_mb} MiB)"]
        if isinstance(exc, OSError) and exc.errno == errno.EFBIG and self.limits.fsize_mb:
            return [f"file size limit reached (files capped at {self.limits.fsize_mb} MiB)"]
        if isinstance(exc, BlockingIOError) and exc.errno == errno.EAGAIN and self.limits.nproc:
            return [f"process limit reached ({self.limits.nproc} processes per session)"]
        return []

    def _restore_streams(self) -> None:
        for stream in (sys.stdout, sys.stderr, self._stdout, self._stderr):
            _flush_quietly(stream)
        sys.stdout, sys.stderr, sys.stdin = self._stdout, self._stderr, self._stdin


def _flush_quietly(stream: TextIO | None) -> None:
    try:
        if stream is not None:
            stream.flush()
    except (OSError, ValueError):
        pass


def _print_user_traceback(exc: BaseException, stream: TextIO) -> None:
    """Print the traceback without the agent's own frames."""
    tb = exc.__traceback__
    while tb is not None and os.path.dirname(tb.tb_frame.f_code.co_filename) == _AGENT_DIR:
        tb = tb.tb_next
    lines = traceback.format_exception(type(exc), exc, tb)
    try:
        stream.write("".join(lines))
    except (OSError, ValueError):
        os.write(2, "".join(lines).encode("utf-8", "replace"))
