"""Uploads written so that their memory counts where the session's does (issue 27).

A workspace is a tmpfs: every byte stored in it is memory, charged to the memory cgroup of
the process that writes it. User code writes from inside its sandbox's cgroup, but an upload
written by the service itself would be charged to the service's cgroup, outside every limit.
The kernel charges by process, not by thread (a thread moved into a v1 memory cgroup still
charges its process's), so an upload is written by a short-lived ``cat`` that joins the
sandbox's memory cgroup (v1: only that hierarchy, so a frozen sandbox does not freeze it; v2:
the service's ``uploads`` cgroup beside the sandboxes, under the same total) before it execs.
The service opens the file (confined, see files.py) and streams the body into its stdin.

At a full cgroup the kernel kills a process of it: the writer asks to be that one
(``oom_score_adj`` 1000), so an upload that does not fit fails (413) and the session's own
processes live. Before writing, the upload's size is checked against the room left, so the
common case is refused without any kill.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from .exceptions import TooLarge

CHUNK = 1 << 20
_WRITER = 'echo 1000 > /proc/self/oom_score_adj && echo $$ > "$1" && exec cat'


@dataclass(frozen=True)
class MemoryCharge:
    """Where an upload's pages are charged: ``procs`` to join; the cgroup whose room bounds an
    upload (the session's, or v2's uploads cgroup) and the one holding the total for all
    sandboxes, given as directories of (limit, usage) files."""

    procs: Path
    own: Path | None
    total: Path
    files: tuple[str, str] = ("memory.limit_in_bytes", "memory.usage_in_bytes")

    def room(self) -> int:
        """Bytes an upload may take: what the session's cgroup can still hold, and what the
        total can, less a quarter of the total kept for what the sessions run (uploads alone
        never bring all the sandboxes to an out-of-memory kill)."""
        room = 1 << 62
        for cgroup, kept in ((self.own, 0), (self.total, 4)):
            if cgroup is None:
                continue
            with contextlib.suppress(OSError, ValueError):
                limit = (cgroup / self.files[0]).read_text().strip()
                if limit != "max":
                    usage = int((cgroup / self.files[1]).read_text())
                    room = min(room, int(limit) - (int(limit) // kept if kept else 0) - usage)
        return max(0, room)

    def copy(self, source: BinaryIO, fd: int, cap: int) -> int:
        """Copy ``source`` into ``fd`` through a writer charged to this cgroup; its size."""
        size = _size(source)
        if size is not None and size > self.room():
            raise TooLarge("the session's memory is full: stored files and processes hold it")
        writer = subprocess.Popen(
            ["/bin/sh", "-c", _WRITER, "sh", str(self.procs)],
            stdin=subprocess.PIPE, stdout=fd, stderr=subprocess.PIPE, env={}, cwd="/",
        )
        assert writer.stdin is not None and writer.stderr is not None
        written = 0
        try:
            while chunk := source.read(CHUNK):
                written += len(chunk)
                if written > cap:
                    raise TooLarge(f"file exceeds the {cap} byte limit")
                writer.stdin.write(chunk)
            writer.stdin.close()
        except BrokenPipeError:
            pass  # the writer failed: its exit status says why
        except BaseException:
            writer.kill()
            writer.wait()
            writer.stderr.close()
            raise
        error = writer.stderr.read().decode("utf-8", "replace").strip()
        writer.stderr.close()
        with contextlib.suppress(BrokenPipeError):
            writer.stdin.close()
        if writer.wait() != 0:
            why = "out of memory" if writer.returncode < 0 else (error.rpartition(": ")[2] or "failed")
            raise TooLarge(f"the workspace is full ({why})")
        return written


def _size(source: BinaryIO) -> int | None:
    """The bytes left to read in ``source``, when it can tell."""
    try:
        here = source.tell()
        end = source.seek(0, os.SEEK_END)
        source.seek(here)
    except (OSError, ValueError, AttributeError):
        return None
    return end - here
