"""How a tool process is started: the bubblewrap sandbox, or a plain process group.

Under bubblewrap a tool sees a read-only system (/usr and the library dirs, a few /etc files),
its own package at /pkg (read-only), the harness at /harness, sized private tmpfs at /tmp (also
its HOME and cwd) and /dev/shm, a fresh /proc and a read-only /dev, and nothing else: not the
service's files, not the store's other packages. It runs as `nobody` in new user, PID, IPC, UTS,
cgroup and network namespaces (network.py: loopback only, or a user-mode stack that reaches
only non-local addresses), cannot make user namespaces of its own (--disable-userns), under a
seccomp filter (seccomp.py). bwrap's options travel through a pipe, so the sandbox's
/proc/1/cmdline shows no host path, and so do its /etc files and the harness (mountinfo names
only /pkg's source). Without bubblewrap a tool is a separate process in its own process group
with a private HOME, and can read whatever the service's user can. Either way the run is
capped as a whole (limits.py).

otari-sandbox's sandbox.py builds its own bwrap arguments on the same rules (options through a
pipe, an empty environment, a sized tmpfs for every writable place) over different mounts: a persistent, writable workspace and a Python agent there, a read-only
package and a Node harness here. One builder for both would be a list of special cases.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from .config import Settings
from .limits import Limits, RunCgroup
from .network import DNS, NetworkStack, RunNetwork, parse_networks, read_some
from .seccomp import filter_program

__all__ = ["HARNESS", "Sandbox", "SandboxPlan"]

log = logging.getLogger("tpmjs_executor.sandbox")

HARNESS = Path(str(resources.files("tpmjs_executor") / "harness" / "harness.mjs"))
_SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32")
_ETC_FILES = (
    "/etc/ssl",
    "/etc/ca-certificates",
    "/etc/pki",
    "/etc/hosts",
    "/etc/nsswitch.conf",
    "/etc/host.conf",
    "/etc/gai.conf",
    "/etc/localtime",
)
_PASSWD = (
    "root:x:0:0:root:/root:/usr/sbin/nologin\nnobody:x:65534:65534:nobody:/tmp:/usr/sbin/nologin\n"
)
_GROUP = "root:x:0:\nnogroup:x:65534:\n"
_PATH = "/usr/local/bin:/usr/bin:/bin"


@dataclass(frozen=True)
class SandboxPlan:
    """One process to start: its argv, environment, working directory, the descriptors it
    inherits (ours to close once it has started) and its cgroup."""

    argv: list[str]
    env: dict[str, str]
    cwd: str
    package_dir: str
    scratch: Path | None  # host dir to delete when the process is gone
    pass_fds: tuple[int, ...] = ()
    cgroup: RunCgroup | None = None
    # The read end of bwrap's --info-fd (ours, at most one): where the run's pid comes from.
    info_fds: list[int] = field(default_factory=list)
    # The write end of bwrap's --args pipe while its package is not chosen yet (`launch`).
    args_fds: list[int] = field(default_factory=list)

    def close_fds(self) -> None:
        """Close our copies of the descriptors handed to the process."""
        for fd in self.pass_fds:
            os.close(fd)

    def close_info(self) -> None:
        """Close the read end of bwrap's info pipe (once the network is attached)."""
        while self.info_fds:
            os.close(self.info_fds.pop())

    def close_args(self) -> None:
        """Close the args pipe of a run that will never be launched (bwrap then exits)."""
        while self.args_fds:
            os.close(self.args_fds.pop())


class Sandbox:
    """Builds the command line that runs the harness for one package entry."""

    def __init__(self, settings: Settings, work_dir: Path) -> None:
        self._settings = settings
        # `auto` is bubblewrap or nothing: running tools unsandboxed must be asked for.
        self.bwrap = settings.isolation != "process"
        if not settings.network and not self.bwrap:
            raise ValueError(
                "turning the network off needs the bubblewrap sandbox (isolation=bwrap)"
            )
        self._work_dir = work_dir
        node = shutil.which(settings.node)
        if node is None:
            raise ValueError(f"Node.js executable {settings.node!r} not found on PATH")
        self.node = os.path.realpath(node)
        self._bwrap_path = shutil.which(settings.bwrap) if self.bwrap else None
        if self.bwrap and self._bwrap_path is None:
            raise ValueError(
                f"bubblewrap executable {settings.bwrap!r} not found on PATH; install it, or "
                f"pass --isolation process to run tools without a sandbox (see the README for "
                f"what that does not protect)"
            )
        self._etc = work_dir / "sandbox-etc"  # an empty /pkg for the start-up probe
        self._etc.mkdir(parents=True, exist_ok=True)
        # Written into the sandbox from pipes (--ro-bind-data): its mountinfo shows no host
        # path for them. The host's resolver is not reachable from the run's namespace.
        self._data = {
            "/etc/passwd": _PASSWD.encode(),
            "/etc/group": _GROUP.encode(),
            "/etc/resolv.conf": f"nameserver {DNS}\n".encode(),
            "/harness/harness.mjs": HARNESS.read_bytes(),
        }
        self.network: NetworkStack | None = None
        if self.bwrap and settings.network:
            self.network = NetworkStack(
                parse_networks(settings.network_allow), parse_networks(settings.network_deny)
            )
        self.limits = Limits(settings.memory_mb, settings.max_tasks, use_cgroups=settings.cgroups)
        self._seccomp = filter_program()
        if self.bwrap and self._seccomp is None:
            log.warning("no seccomp table for this architecture: tools run without the filter")
        self._disable_userns = self.bwrap and _bwrap_has(str(self._bwrap_path), "--disable-userns")
        if self.bwrap and not self._disable_userns:
            # The seccomp filter still refuses unshare, setns and clone(CLONE_NEWUSER).
            log.warning("bubblewrap older than 0.8: no --disable-userns")

    @property
    def isolation(self) -> str:
        """The protocol's isolation level: namespaces make a container, else a process."""
        return "container" if self.bwrap else "process"

    def plan(self, entry_dir: Path | None, control_fd: int, result_fd: int) -> SandboxPlan:
        """The command that starts the harness for the package installed in `entry_dir`
        (with a cgroup of its own: the caller removes it once the process is gone).
        `entry_dir` None (bubblewrap only) starts a run that waits, already in its cgroup, for
        `launch` to name its package: joining a cgroup costs a few milliseconds of waiting,
        which a run started ahead does not put on a call's path."""
        node_args = [f"--max-old-space-size={self._settings.memory_mb}"]
        fds = ["--control-fd", str(control_fd), "--result-fd", str(result_fd)]
        harness = "/harness/harness.mjs" if self.bwrap else str(HARNESS)
        return self._plan([self.node, *node_args, harness, *fds], entry_dir)

    def launch(self, plan: SandboxPlan, entry_dir: Path) -> None:
        """Let a run planned without its package (`plan(None, ...)`) start, for `entry_dir`:
        bubblewrap reads its options, which bind the package at /pkg, and goes on."""
        try:
            _write_all(plan.args_fds[0], self._options(entry_dir, plan.pass_fds))
        finally:
            plan.close_args()

    def version_command(self) -> SandboxPlan:
        """Node's version, printed once stdin ends, run the way tools are (proves the sandbox
        and its network work on this host)."""
        script = "require('fs').readFileSync(0); console.log(process.version)"
        return self._plan([self.node, "-e", script], self._etc)

    async def attach_network(self, plan: SandboxPlan, bwrap_pid: int) -> RunNetwork | None:
        """Attach the network to the started run of `plan` (None with the network off);
        the tool must not run before this returns."""
        if self.network is None or not plan.info_fds:
            return None
        try:
            info = b""
            while not info.rstrip().endswith(b"}"):
                chunk = await read_some(plan.info_fds[0])
                if not chunk:
                    raise RuntimeError("bubblewrap ended before it started the sandbox")
                info += chunk
        finally:
            plan.close_info()
        pid = int(json.loads(info)["child-pid"])
        cgroup = plan.cgroup
        join = cgroup.join if cgroup is not None else _no_join
        return await self.network.attach(pid, bwrap_pid, join)

    def _plan(self, command: list[str], entry_dir: Path | None) -> SandboxPlan:
        cgroup = self.limits.child() if self.limits.cgroups else None
        try:
            prefix = self.limits.prefix(cgroup)
            if not self.bwrap:
                if entry_dir is None:
                    raise ValueError("only a bubblewrap run can wait for its package")
                scratch = Path(tempfile.mkdtemp(prefix="run-", dir=self._work_dir))
                env = self._env(str(scratch))
                argv = [*prefix, *command]
                return SandboxPlan(argv, env, str(scratch), str(entry_dir), scratch, (), cgroup)
            piped: list[int] = []
            info: int | None = None
            args_w: int | None = None
            try:
                for content in self._data.values():
                    piped.append(_pipe_with(content))
                if self.network is not None:
                    info, info_w = os.pipe()
                    piped.append(info_w)
                if self._seccomp is not None:
                    piped.append(_pipe_with(self._seccomp))
                # Through a pipe, so the sandbox's /proc/1/cmdline shows no host path.
                if entry_dir is None:
                    args_r, args_w = os.pipe()
                    piped.append(args_r)
                else:
                    options = self._options(entry_dir, tuple(piped))
                    piped.append(_pipe_with(options))
            except BaseException:
                for fd in [*piped, *(x for x in (info, args_w) if x is not None)]:
                    os.close(fd)
                raise
            argv = [*prefix, str(self._bwrap_path), *self._namespace_args(), "--args",
                    str(piped[-1]), "--", *command]  # fmt: skip
            infos = [info] if info is not None else []
            waiting = [args_w] if args_w is not None else []
            return SandboxPlan(
                argv, self._env("/tmp"), "/", "/pkg", None, tuple(piped), cgroup, infos, waiting
            )
        except BaseException:
            if cgroup is not None:
                for path in reversed(cgroup.dirs):
                    path.rmdir()
            raise

    def _options(self, entry_dir: Path, piped: tuple[int, ...]) -> bytes:
        """bubblewrap's options for a run of `entry_dir`, NUL-separated (its --args format);
        `piped` are the data, info and seccomp pipes `_plan` made, in its order."""
        options = self._bwrap_args(entry_dir)
        fds = iter(piped)
        for dest in self._data:
            options += ["--ro-bind-data", str(next(fds)), dest]
        options += ["--remount-ro", "/", "--chdir", "/tmp"]
        if self.network is not None:
            options += ["--info-fd", str(next(fds))]
        if self._seccomp is not None:
            options += ["--seccomp", str(next(fds))]
        return b"".join(os.fsencode(a) + b"\0" for a in options)

    def _env(self, home: str) -> dict[str, str]:
        # Only these reach a tool (and bwrap itself, whose environment a tool could read
        # through /proc): never the service's own variables.
        return {"PATH": _PATH, "HOME": home, "TMPDIR": home, "LANG": "C.UTF-8"}

    def _namespace_args(self) -> list[str]:
        """The options that name no host path: on bwrap's command line, ahead of the piped
        ones, so that a run whose options never came (the service died while it waited for
        them) still starts, if at all, with nothing of the host and nothing to run."""
        # No --new-session (it costs 10-20 ms a start): bwrap is started in a session of its
        # own (start_new_session), so the sandbox has no controlling terminal to inject into.
        args = [
            "--unshare-user", "--unshare-pid", "--unshare-ipc",
            "--unshare-uts", "--unshare-cgroup-try", "--die-with-parent",
            "--uid", "65534", "--gid", "65534", "--hostname", "tpmjs-tool",
        ]  # fmt: skip
        if self._disable_userns:
            args.append("--disable-userns")
        args.append("--unshare-net")  # loopback only, until attach_network
        return args

    def _bwrap_args(self, entry_dir: Path) -> list[str]:
        args: list[str] = []
        for path in _SYSTEM_DIRS:
            if os.path.islink(path):
                args += ["--symlink", os.readlink(path), path]
            elif os.path.isdir(path):
                args += ["--ro-bind", path, path]
        node_root = str(Path(self.node).parent.parent)
        if not any(self.node.startswith(d + "/") for d in _SYSTEM_DIRS):
            args += ["--ro-bind", node_root, node_root]
        for path in _ETC_FILES:
            args += ["--ro-bind-try", path, path]
        args += [
            "--proc", "/proc", "--dev", "/dev",
            "--size", str(self._settings.tmp_size_bytes), "--tmpfs", "/dev/shm",
            "--remount-ro", "/dev",
            "--size", str(self._settings.tmp_size_bytes), "--tmpfs", "/tmp",
            "--ro-bind", str(entry_dir), "/pkg",
            "--dir", "/harness",
        ]  # fmt: skip
        return args


def _no_join(pid: int) -> None:
    """Without cgroups slirp4netns stays where it is (it dies with the run anyway)."""


def _pipe_with(data: bytes) -> int:
    """The read end of a pipe holding `data` (at most a pipe's buffer), its write end closed."""
    read, write = os.pipe()
    try:
        os.write(write, data)
    except BaseException:
        os.close(read)
        raise
    finally:
        os.close(write)
    return read


def _write_all(fd: int, data: bytes) -> None:
    """Write all of `data` to a blocking pipe."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _bwrap_has(bwrap: str, option: str) -> bool:
    """Whether this bubblewrap knows `option` (from its --help)."""
    try:
        run = subprocess.run(
            [bwrap, "--help"], check=False, capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return option in run.stdout + run.stderr
