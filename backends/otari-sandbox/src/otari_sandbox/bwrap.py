"""The bubblewrap command line of one sandbox: what it sees of the host, and the whole
environment user code starts with."""

from __future__ import annotations

import os
from pathlib import Path

from .config import Settings
from .layout import DEV_NODES, SANDBOX_UID, SANDBOX_USER, Layout

WORKSPACE = "/workspace"
AGENT_HOME = "/opt/otari"

_SYSTEM_DIRS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
_ETC_ENTRIES = (
    "alternatives", "bash.bashrc", "ca-certificates", "ca-certificates.conf", "debian_version",
    "fonts", "host.conf", "inputrc", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime",
    "magic", "magic.mime", "mime.types", "nsswitch.conf", "os-release", "protocols", "python3",
    "python3.11", "services", "ssl", "timezone",
)


def sandbox_environment(workspace: str) -> dict[str, str]:
    """The whole environment user code sees."""
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": workspace,
        "USER": SANDBOX_USER,
        "LOGNAME": SANDBOX_USER,
        "SHELL": "/bin/bash",
        "LANG": "C.UTF-8",
        "TERM": "dumb",
        "TMPDIR": "/tmp",
        "PAGER": "cat",
        "PYTHONUNBUFFERED": "1",
        "MPLBACKEND": "Agg",
        "MPLCONFIGDIR": "/tmp/.matplotlib",
        "XDG_CACHE_HOME": "/tmp/.cache",
    }


def bwrap_arguments(config: Settings, layout: Layout, workspace: Path) -> list[str]:
    """The bwrap options (passed through ``--args``) for one sandbox."""
    args = ["--unshare-all", "--unshare-user", "--disable-userns"]
    if config.network:
        args.append("--share-net")
    args += ["--die-with-parent", "--new-session", "--hostname", "sandbox"]
    args += ["--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID)]
    args += ["--ro-bind", "/usr", "/usr"]
    for name in _SYSTEM_DIRS:
        host = Path("/") / name
        if host.is_symlink():
            args += ["--symlink", os.readlink(host), str(host)]
        elif host.is_dir():
            args += ["--ro-bind", str(host), str(host)]
    for name in _ETC_ENTRIES:
        args += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    if config.network:
        args += ["--ro-bind-try", "/etc/resolv.conf", "/etc/resolv.conf"]
    for name in ("passwd", "group", "hosts"):
        args += ["--ro-bind", str(layout.etc / name), f"/etc/{name}"]
    args += ["--proc", "/proc"]
    scratch = layout.scratch / workspace.name
    if layout.mounted:
        # The service's own /dev skeleton and sized scratch tmpfs: bwrap's --dev and --tmpfs
        # would show the sandbox's host uid in mountinfo, and have no inode quota.
        args += ["--ro-bind", str(layout.dev), "/dev"]
        for node in DEV_NODES:
            args += ["--dev-bind", f"/dev/{node}", f"/dev/{node}"]
        args += ["--bind", str(scratch / "shm"), "/dev/shm", "--bind", str(scratch / "tmp"), "/tmp"]
    else:
        tmp_size = str(config.tmp_mb * 1024 * 1024)
        args += ["--dev", "/dev"]
        args += ["--size", tmp_size, "--tmpfs", "/dev/shm", "--size", tmp_size, "--tmpfs", "/tmp"]
    args += ["--dir", "/var/tmp", "--ro-bind", str(layout.agent_home), AGENT_HOME]
    args += ["--bind", str(workspace), WORKSPACE, "--chdir", WORKSPACE, "--clearenv"]
    for key, value in sorted(sandbox_environment(WORKSPACE).items()):
        args += ["--setenv", key, value]
    return args
