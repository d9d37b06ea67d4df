"""One ``bash -c`` per call, in the workspace, writing straight to the call's descriptors."""

import os
import subprocess

from . import limits as _limits
from .pyexec import Outcome


def run_bash(command: str, *, cwd: str, timeout: float, limits: _limits.Limits, kill_mode: str) -> Outcome:
    """Run ``command`` with a fresh shell; the caller ends stray processes afterwards."""
    try:
        # The shell inherits a soft CPU limit of the whole allowance (its own usage starts
        # at zero); stdout/stderr are inherited too: fds 1 and 2 are the call's pipes.
        # restore_signals gives it default SIGPIPE/SIGXFSZ handling back.
        with _limits.child_cpu_limit(limits.cpu_seconds):
            proc = subprocess.Popen(
                ["/bin/bash", "-c", command],
                stdin=subprocess.DEVNULL,
                cwd=cwd,
                start_new_session=True,
            )
    except OSError as exc:
        os.write(2, f"bash: could not start: {exc.strerror}\n".encode())
        return Outcome(1)
    try:
        status = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        _limits.kill_others(kill_mode)
        proc.wait()
        return Outcome(-1, timed_out=True)
    if status >= 0:
        return Outcome(status)
    note = _limits.describe_signal(-status)
    return Outcome(128 - status, notes=[note] if note else [])
