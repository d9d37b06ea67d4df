"""A guard that ends the service's sandboxes and removes its state when the service dies,
however it dies (issue 27).

``--die-with-parent`` sends each sandbox SIGKILL when the service dies, but a sandbox frozen
between calls (cgroup freezer) takes no signal until it is thawed, and nothing thaws it: after
a ``kill -9`` it stayed, with its workspace mounts, until the next start. The guard is a shell
of its own session, blocked reading a pipe whose only write end the service holds (close-on-
exec, so no sandbox inherits it). A clean close writes ``done``; anything else (EOF: the
service is gone, whatever the signal) runs ``cleanup``, which kills and thaws every sandbox
cgroup, then unmounts and removes the state, as the next start would. Waiting costs one idle
``sh``; Python starts only when there is something to clean.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path

from .cgroups import remove_parents
from .layout import Layout

_GUARD = 'read -r line; [ "$line" = done ] || exec "$@"'
_CLEANUP = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from otari_sandbox.watchdog import cleanup; cleanup(sys.argv[2])"
)


class Watchdog:
    """The guard process of one running service."""

    def __init__(self, layout: Layout, cgroup_parents: list[Path]) -> None:
        plan = json.dumps(
            {"root": str(layout.root), "owned": layout.owned, "mounted": layout.mounted,
             "cgroups": [str(p) for p in cgroup_parents]}
        )
        read_end, self._write_end = os.pipe2(os.O_CLOEXEC)
        source = str(Path(__file__).resolve().parent.parent)
        try:
            self._proc = subprocess.Popen(
                ["/bin/sh", "-c", _GUARD, "sh", sys.executable, "-I", "-c", _CLEANUP, source, plan],
                stdin=read_end, stdout=subprocess.DEVNULL, start_new_session=True, cwd="/",
            )
        finally:
            os.close(read_end)

    @property
    def pid(self) -> int:
        """The guard's pid (for tests)."""
        return self._proc.pid

    def release(self) -> None:
        """The service cleaned up after itself: let the guard go without doing anything."""
        if self._write_end < 0:
            return
        with contextlib.suppress(OSError):
            os.write(self._write_end, b"done\n")
        os.close(self._write_end)
        self._write_end = -1
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=5)


def cleanup(plan_text: str) -> None:
    """Kill (thawing) every sandbox of a dead service, then remove its mounts and state."""
    plan = json.loads(plan_text)
    remove_parents([Path(p) for p in plan["cgroups"]])
    Layout(Path(plan["root"]), bool(plan["owned"]), bool(plan["mounted"])).remove()
