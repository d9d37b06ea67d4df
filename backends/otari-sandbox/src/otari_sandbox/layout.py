"""The service's state directory: the agent's read-only copy, the sandbox's /etc files and
/dev skeleton, the workspaces (each session's under a directory of its own), their scratch
/tmp, and the trash ended workspaces are deleted from.

When the service may mount (root), the agent copy, /etc and /dev skeleton are small tmpfs
mounts, and each workspace and scratch directory a sized one (see mounts.py): nothing bound
into a sandbox then shows the host's state path. A marker file names the owning process, so
a state folder left by a service that was SIGKILLed is removed by the next start.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import mounts
from .trees import remove_tree

AGENT_PACKAGE = "otari_agent"
SANDBOX_UID = 1000
SANDBOX_USER = "sandbox"

_PASSWD = (
    "root:x:0:0:root:/root:/usr/sbin/nologin\n"
    f"{SANDBOX_USER}:x:{SANDBOX_UID}:{SANDBOX_UID}:{SANDBOX_USER}:/workspace:/bin/bash\n"
    "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"
)
_GROUP = f"root:x:0:\n{SANDBOX_USER}:x:{SANDBOX_UID}:\nnogroup:x:65534:\n"
OWNER_FILE = ".otari-owner"
STATE_PREFIX = "otari-sandbox-"
DEV_NODES = ("null", "zero", "full", "random", "urandom", "tty")
_DEV_LINKS = {
    "fd": "/proc/self/fd", "stdin": "/proc/self/fd/0", "stdout": "/proc/self/fd/1",
    "stderr": "/proc/self/fd/2", "ptmx": "pts/ptmx",
}
_HOSTS = "127.0.0.1\tlocalhost sandbox\n::1\tlocalhost ip6-localhost ip6-loopback\n"


@dataclass(frozen=True)
class Layout:
    """Paths under the state root; ``owned`` when the service created the root itself,
    ``mounted`` when its parts are tmpfs mounts of the service's own."""

    root: Path
    owned: bool
    mounted: bool = False

    @property
    def agent_home(self) -> Path:
        """Directory holding the ``otari_agent`` package (bound at /opt/otari)."""
        return self.root / "agent"

    @property
    def etc(self) -> Path:
        """Generated passwd, group and hosts."""
        return self.root / "etc"

    @property
    def dev(self) -> Path:
        """The /dev skeleton (mounted layouts only): device nodes are bound over its files."""
        return self.root / "dev"

    @property
    def workspaces(self) -> Path:
        """Parent of every workspace."""
        return self.root / "workspaces"

    @property
    def scratch(self) -> Path:
        """Parent of every sandbox's /tmp and /dev/shm (mounted layouts only)."""
        return self.root / "scratch"

    @property
    def trash(self) -> Path:
        """Workspaces of ended sessions, renamed here at once and deleted in the background."""
        return self.root / "trash"

    @classmethod
    def create(cls, root: Path | None, *, mount: bool = False) -> Layout:
        """Make (or reuse) the state root and refresh the agent copy and /etc files.

        ``mount``: use tmpfs mounts when this process may make them.
        """
        owned = root is None
        if root is None:
            remove_stale_states(Path(tempfile.gettempdir()))
            root = Path(tempfile.mkdtemp(prefix=STATE_PREFIX))
        root.mkdir(parents=True, exist_ok=True)
        # Traversable but not listable: sandbox uids reach their own workspace only.
        os.chmod(root, 0o711)
        root = root.resolve()
        blocked = [p for p in root.parents if not os.stat(p).st_mode & stat.S_IXOTH]
        if blocked and os.geteuid() == 0:
            raise NotADirectoryError(
                f"{blocked[0]} is not traversable by other users; the sandboxes' own uids "
                "must reach the workspaces below it (choose another workspace root)"
            )
        # A fresh service has no sessions: whatever is here was left by one that died.
        _unmount_inside(root)
        (root / OWNER_FILE).write_text(_owner_token(os.getpid()))
        layout = cls(root, owned, mount and mounts.can_mount(root / ".mount-probe"))
        for part, size in ((layout.agent_home, 16), (layout.etc, 1), (layout.dev, 1)):
            remove_tree(part)
            part.mkdir()
            if layout.mounted:
                mounts.mount_tmpfs(part, size << 20, 1024)
            os.chmod(part, 0o755)
        source = Path(__file__).resolve().parent / "agent"
        target = layout.agent_home / AGENT_PACKAGE
        target.mkdir()
        os.chmod(target, 0o755)
        for path in sorted(source.glob("*.py")):
            shutil.copyfile(path, target / path.name)
            os.chmod(target / path.name, 0o644)
        for name, text in (("passwd", _PASSWD), ("group", _GROUP), ("hosts", _HOSTS)):
            (layout.etc / name).write_text(text)
            os.chmod(layout.etc / name, 0o644)
        for name in ("shm", "pts"):
            (layout.dev / name).mkdir()
        for node in DEV_NODES:
            (layout.dev / node).touch()
        for name, target_path in _DEV_LINKS.items():
            (layout.dev / name).symlink_to(target_path)
        for parent, mode in ((layout.workspaces, 0o711), (layout.scratch, 0o711), (layout.trash, 0o700)):
            remove_tree(parent)
            parent.mkdir()
            os.chmod(parent, mode)
        return layout

    def remove(self) -> None:
        """Delete the root if the service made it, else only what the service put there."""
        _unmount_inside(self.root)
        parts = [self.agent_home, self.etc, self.dev, self.workspaces, self.scratch, self.trash]
        for path in [self.root] if self.owned else [*parts, self.root / OWNER_FILE]:
            with contextlib.suppress(OSError):
                remove_tree(path)


def _unmount_inside(root: Path) -> None:
    # Strictly below the root: the root itself may be a mount the operator made.
    for point in mounts.mounts_below(root):
        if point != root:
            mounts.unmount(point)


def _owner_token(pid: int) -> str:
    """``pid`` and its start time: a pid reused by another process does not match."""
    try:
        stat_line = Path(f"/proc/{pid}/stat").read_bytes()
        start = stat_line[stat_line.rfind(b")") + 2 :].split()[19].decode()
    except (OSError, IndexError):
        return ""
    return f"{pid} {start}"


def remove_stale_states(directory: Path) -> list[Path]:
    """Remove the state folders (ours: named so and holding the owner file) whose service is
    gone, as one SIGKILLed leaves them, with whatever they had mounted."""
    removed = []
    with contextlib.suppress(OSError):
        for entry in sorted(directory.iterdir()):
            if not entry.name.startswith(STATE_PREFIX) or entry.is_symlink() or not entry.is_dir():
                continue
            try:
                token = (entry / OWNER_FILE).read_text()
            except OSError:
                continue
            pid = token.split(" ", 1)[0]
            if pid.isdigit() and _owner_token(int(pid)) == token:
                continue  # its service still runs
            _unmount_inside(entry)
            with contextlib.suppress(OSError):
                remove_tree(entry)
                removed.append(entry)
    return removed
