"""The service's state directory: the agent's read-only copy, the sandbox's /etc files and
the workspaces, each session's under a directory of its own."""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

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
_HOSTS = "127.0.0.1\tlocalhost sandbox\n::1\tlocalhost ip6-localhost ip6-loopback\n"


@dataclass(frozen=True)
class Layout:
    """Paths under the state root; ``owned`` when the service created the root itself."""

    root: Path
    owned: bool

    @property
    def agent_home(self) -> Path:
        """Directory holding the ``otari_agent`` package (bound at /opt/otari)."""
        return self.root / "agent"

    @property
    def etc(self) -> Path:
        """Generated passwd, group and hosts."""
        return self.root / "etc"

    @property
    def workspaces(self) -> Path:
        """Parent of every workspace."""
        return self.root / "workspaces"

    @property
    def trash(self) -> Path:
        """Workspaces of ended sessions, renamed here at once and deleted in the background."""
        return self.root / "trash"

    @classmethod
    def create(cls, root: Path | None) -> Layout:
        """Make (or reuse) the state root and refresh the agent copy and /etc files."""
        owned = root is None
        if root is None:
            root = Path(tempfile.mkdtemp(prefix="otari-sandbox-"))
        root.mkdir(parents=True, exist_ok=True)
        # Traversable but not listable: sandbox uids reach their own workspace only.
        os.chmod(root, 0o711)
        layout = cls(root.resolve(), owned)
        blocked = [p for p in layout.root.parents if not os.stat(p).st_mode & stat.S_IXOTH]
        if blocked and os.geteuid() == 0:
            raise NotADirectoryError(
                f"{blocked[0]} is not traversable by other users; the sandboxes' own uids "
                "must reach the workspaces below it (choose another workspace root)"
            )
        source = Path(__file__).resolve().parent / "agent"
        target = layout.agent_home / AGENT_PACKAGE
        shutil.rmtree(layout.agent_home, ignore_errors=True)
        target.mkdir(parents=True)
        for path in sorted(source.glob("*.py")):
            shutil.copyfile(path, target / path.name)
            os.chmod(target / path.name, 0o644)
        for directory in (layout.agent_home, target):
            os.chmod(directory, 0o755)
        layout.etc.mkdir(exist_ok=True)
        os.chmod(layout.etc, 0o755)
        for name, text in (("passwd", _PASSWD), ("group", _GROUP), ("hosts", _HOSTS)):
            (layout.etc / name).write_text(text)
            os.chmod(layout.etc / name, 0o644)
        # A fresh service has no sessions: whatever is here was left by one that died.
        for directory, mode in ((layout.workspaces, 0o711), (layout.trash, 0o700)):
            remove_tree(directory)
            directory.mkdir()
            os.chmod(directory, mode)
        return layout

    def remove(self) -> None:
        """Delete the root if the service made it, else only what the service put there."""
        for path in [self.root] if self.owned else [self.agent_home, self.etc, self.workspaces, self.trash]:
            with contextlib.suppress(OSError):
                remove_tree(path)
