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
    """Where an upload's pages are charged: ``procs`` to join, and the (limit, usage) files
    of that cgroup and its ancestors whose room bounds an upload."""

    procs: Path
    counters: tuple[tuple[Path, Path], ...]

    def room(self) -> int:
        """Bytes the tightest of the cgroups can still take (a huge number when unlimited)."""
        room = 1 << 62
        for limit_file, usage_file in self.counters:
            with contextlib.suppress(OSError, ValueError):
                limit = limit_file.read_text().strip()
                if limit != "max":
                    room = min(room, int(limit) - int(usage_file.read_text()))
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
