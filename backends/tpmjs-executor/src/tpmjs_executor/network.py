"""A tool run's network: a namespace of its own, and with the network on, a user-mode stack.

Every bubblewrap run gets a network namespace of its own (--unshare-net), so the host's
loopback services and abstract unix sockets are out of reach. With the network off it has
loopback only. With the network on, slirp4netns (a user-mode TCP/IP stack: the tool's
packets become ordinary sockets of the slirp4netns process on the host) is attached to the
run's namespace through a TAP device, and the namespace gets its address, default route and
one `prohibit` route per denied range before any tool code runs: loopback, private,
link-local, CGNAT, multicast and reserved ranges, and every local address of the host (read
from /proc/net/fib_trie at each run), minus the ranges the operator allows. slirp4netns runs
with --disable-host-loopback (its gateway 10.0.2.2 never reaches the host's 127.0.0.1), under
its seccomp filter (and in its sandbox when the service runs as root), and dies with the run
or the service. The tool runs as an unprivileged user without capabilities and cannot make
namespaces, so it cannot change the routes. IPv6 is not offered. We configure the interface
ourselves rather than with slirp4netns --configure: that one also sets up `lo`, racing
bubblewrap's own loopback setup (which then fails).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import ipaddress
import os
import shutil
from collections.abc import Callable, Iterable
from ipaddress import IPv4Interface
from pathlib import Path

from . import netlink, reaper

__all__ = ["DEFAULT_DENY", "NetworkStack", "RunNetwork", "parse_networks"]

Net = ipaddress.IPv4Network

# Where a tool may not connect, on top of the host's own addresses (RFC 6890 special ranges).
DEFAULT_DENY = (
    "0.0.0.0/8",  # "this host": 0.0.0.0 reaches the host's own listeners
    "10.0.0.0/8",
    "100.64.0.0/10",
    "127.0.0.0/8",
    "169.254.0.0/16",  # link-local, cloud metadata services
    "172.16.0.0/12",
    "192.168.0.0/16",
    "224.0.0.0/4",  # multicast
    "240.0.0.0/4",  # reserved and broadcast
)
TAP = "tap0"
_SUBNET = Net("10.0.2.0/24")  # slirp4netns's: gateway .2 (the host), DNS .3
_ADDRESS = "10.0.2.100/24"  # local: a prohibit route does not apply to it
_GATEWAY = "10.0.2.2"
DNS = "10.0.2.3"
_MTU = 65520
_NS_GET_USERNS = 0xB701  # _IO(0xb7, 0x1), linux/nsfs.h
_SETUP_TIMEOUT_S = 10.0


def parse_networks(text: str) -> list[Net]:
    """Comma- or space-separated IPv4 CIDR ranges (ValueError naming a bad one)."""
    nets = []
    for item in text.replace(",", " ").split():
        try:
            nets.append(Net(item, strict=True))
        except ValueError as exc:
            raise ValueError(f"{item!r} is not an IPv4 network in CIDR form ({exc})") from None
    return nets


def host_addresses(fib_trie: str | None = None) -> list[Net]:
    """The host's local IPv4 addresses (as /32), from the kernel's local routing table."""
    if fib_trie is None:
        try:
            fib_trie = Path("/proc/net/fib_trie").read_text()
        except OSError:
            return []
    found: set[Net] = set()
    last = ""
    for line in fib_trie.splitlines():
        text = line.strip()
        if text.startswith("|-- "):
            last = text[4:]
        elif text.startswith("/32 host LOCAL") and last:
            found.add(Net(f"{last}/32"))
    return sorted(found)


def _subtract(nets: Iterable[Net], holes: Iterable[Net]) -> list[Net]:
    """The addresses of `nets` outside every hole, as few networks as possible."""
    pieces = list(ipaddress.collapse_addresses(nets))
    for hole in holes:
        rest: list[Net] = []
        for piece in pieces:
            if piece.subnet_of(hole):
                continue
            if hole.subnet_of(piece):
                rest.extend(piece.address_exclude(hole))
            else:
                rest.append(piece)
        pieces = rest
    return sorted(ipaddress.collapse_addresses(pieces))


class NetworkStack:
    """slirp4netns (and, unless the service is root, nsenter and ip), found at start, and the
    policy every run gets."""

    def __init__(
        self, allow: Iterable[Net] = (), deny: Iterable[Net] = (), *, in_process: bool | None = None
    ) -> None:
        self.allow = list(allow)
        self.deny = [*parse_networks(" ".join(DEFAULT_DENY)), *deny]
        # As root the routes go in over rtnetlink from this process (netlink.py); otherwise
        # `nsenter` enters the run's user namespace (a threaded process cannot) to run `ip`.
        self._in_process = netlink.can_join() if in_process is None else in_process
        self._denied: tuple[str, list[Net]] | None = None
        tools = ("slirp4netns",) if self._in_process else ("slirp4netns", "nsenter", "ip")
        missing = [t for t in tools if shutil.which(t) is None]
        if missing:
            raise ValueError(
                f"the network on needs {' and '.join(missing)} (apt-get install slirp4netns "
                f"iproute2 util-linux); install it, or pass --no-network"
            )
        self._slirp, self._nsenter, self._ip = (
            str(shutil.which(t) or t) for t in ("slirp4netns", "nsenter", "ip")
        )

    def denied(self) -> list[Net]:
        """What a run may not reach now (see `_denied`), worked out again only when the
        host's addresses change."""
        try:
            fib_trie = Path("/proc/net/fib_trie").read_text()
        except OSError:
            fib_trie = ""
        if self._denied is None or self._denied[0] != fib_trie:
            self._denied = (fib_trie, self._denied_for(host_addresses(fib_trie)))
        return self._denied[1]

    def _denied_for(self, host: list[Net]) -> list[Net]:
        """What a run may not reach now, one route each: the deny-list and the host's
        addresses minus the allowed ranges; and, whatever is allowed, slirp4netns's subnet
        but its DNS (its gateway is the host: --disable-host-loopback refuses it, and so does
        this route). Those last pieces stay apart: a /24 route would be its connected route,
        and one less specific would lose to it."""
        wide = _subtract([*self.deny, *host], [*self.allow, _SUBNET])
        return [*wide, *_subtract([_SUBNET], [Net(f"{DNS}/32")])]

    def script(self) -> bytes:
        """The `ip -batch` commands that configure a run's namespace."""
        lines = [
            f"link set {TAP} mtu {_MTU} up",
            f"address add {_ADDRESS} dev {TAP}",
            f"route add default via {_GATEWAY} dev {TAP}",  # before its address is prohibited
            *(f"route add prohibit {net}" for net in self.denied()),
        ]
        return "".join(line + "\n" for line in lines).encode()

    async def attach(self, pid: int, parent: int, join: Callable[[int], None]) -> RunNetwork:
        """Give the network namespace of `pid` (a child of bubblewrap, `parent`) a slirp4netns
        stack and its routes (ready on return; `join(pid)` puts slirp4netns into the run's
        cgroup)."""
        net_fd = os.open(f"/proc/{pid}/ns/net", os.O_RDONLY | os.O_CLOEXEC)
        fds = [net_fd]
        try:
            # Never the host's namespace: had the sandbox died and its pid been reused, the
            # namespace opened above would be another process's. Still bwrap's child after the
            # open means it was the sandbox's (bwrap, not yet reaped, forks only that one).
            own = os.stat("/proc/self/ns/net")
            opened = os.fstat(net_fd)
            if (opened.st_dev, opened.st_ino) == (own.st_dev, own.st_ino) or _ppid(pid) != parent:
                raise RuntimeError("the sandbox ended before its network was attached")
            # The user namespace that owns the network namespace: entering it gives the
            # service (root or not) CAP_NET_ADMIN there, as bubblewrap's creator.
            user_fd = fcntl.ioctl(net_fd, _NS_GET_USERNS)
            fds.append(user_fd)
            ready_r, ready_w = os.pipe()
            fds += [ready_r, ready_w]
            exit_r, exit_w = os.pipe()
            fds += [exit_r]
            user, net = f"/proc/self/fd/{user_fd}", f"/proc/self/fd/{net_fd}"
            # --enable-sandbox (a mount namespace of its own, capabilities dropped) becomes
            # uid 0 in the run's user namespace when not run by root, where bubblewrap maps
            # only the tool's uid: there it cannot start, so only root asks for it.
            sandbox = ["--enable-sandbox"] if os.geteuid() == 0 else []
            argv = [
                self._slirp, f"--mtu={_MTU}", "--disable-host-loopback",
                *sandbox, "--enable-seccomp",
                f"--ready-fd={ready_w}", f"--exit-fd={exit_r}",
                f"--userns-path={user}", "--netns-type=path", net, TAP,
            ]  # fmt: skip
            try:
                with reaper.spawning():
                    slirp = await asyncio.create_subprocess_exec(
                        *argv,
                        stdin=asyncio.subprocess.DEVNULL,
                        stdout=asyncio.subprocess.DEVNULL,
                        stderr=asyncio.subprocess.DEVNULL,
                        pass_fds=(user_fd, net_fd, ready_w, exit_r),
                        start_new_session=True,
                        # No PR_SET_PDEATHSIG: a preexec function costs a full fork of this
                        # process (no vfork). The exit descriptor already ends slirp4netns
                        # with the service: only the service holds its other end.
                    )
                    reaper.track(slirp.pid)
            except BaseException:
                os.close(exit_w)
                raise
            run = RunNetwork(slirp, exit_w)
            os.close(ready_w)
            fds.remove(ready_w)
            try:
                join(slirp.pid)
                async with asyncio.timeout(_SETUP_TIMEOUT_S):
                    await self._configure(slirp, ready_r, user, net, (user_fd, net_fd))
            except BaseException:
                await run.close()
                raise
            return run
        finally:
            for fd in fds:
                os.close(fd)

    async def _configure(
        self, slirp: asyncio.subprocess.Process, ready_r: int, user: str, net: str,
        fds: tuple[int, int],
    ) -> None:  # fmt: skip
        if await read_some(ready_r) != b"1":
            status = await slirp.wait()
            raise RuntimeError(f"slirp4netns did not start (exit status {status})")
        if self._in_process:
            try:
                sock, index = netlink.open_route_socket(fds[1], TAP)
                with sock:
                    netlink.configure(
                        sock, index, mtu=_MTU, address=IPv4Interface(_ADDRESS),
                        gateway=_GATEWAY, prohibit=self.denied(),
                    )  # fmt: skip
            except OSError as exc:
                raise RuntimeError(f"could not configure the tool's network: {exc}") from exc
            return
        with reaper.spawning():
            ip = await asyncio.create_subprocess_exec(
                self._nsenter, f"--user={user}", f"--net={net}", "--preserve-credentials",
                self._ip, "-batch", "-",
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.PIPE, pass_fds=fds,
                preexec_fn=reaper.dying_with(os.getpid()),
            )  # fmt: skip
            reaper.track(ip.pid)
        try:
            _, err = await ip.communicate(self.script())
        finally:
            if ip.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    ip.kill()
                await ip.wait()
            reaper.untrack(ip.pid)
        if ip.returncode != 0:
            raise RuntimeError(f"could not configure the tool's network: {err.decode()[-300:]}")


class RunNetwork:
    """The slirp4netns of one run; `close()` ends it."""

    def __init__(self, process: asyncio.subprocess.Process, exit_w: int) -> None:
        self.process = process
        self._exit_w: int | None = exit_w

    async def close(self) -> None:
        """End slirp4netns: it keeps no state worth a graceful exit, so it is killed (its
        exit descriptor, closed too, also ends it should the kill not reach it)."""
        if self._exit_w is not None:
            os.close(self._exit_w)
            self._exit_w = None
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
        await self.process.wait()
        reaper.untrack(self.process.pid)


def _ppid(pid: int) -> int | None:
    """The parent of `pid`, None when it is gone."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


async def read_some(fd: int) -> bytes:
    """What a non-blocking read of `fd` first gives (b"" at its end), without a thread."""
    loop = asyncio.get_running_loop()
    os.set_blocking(fd, False)
    got: asyncio.Future[bytes] = loop.create_future()

    def readable() -> None:
        try:
            data = os.read(fd, 4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not got.done():
            got.set_result(data)

    loop.add_reader(fd, readable)
    try:
        return await got
    finally:
        loop.remove_reader(fd)
