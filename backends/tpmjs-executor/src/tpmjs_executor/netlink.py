"""Configuring a run's network namespace over rtnetlink, from the service's own process.

`ip -batch` under `nsenter` costs two process starts per run (~20 ms on a quiet 2-core
machine, on the path of every fresh call). When the service has CAP_SYS_ADMIN (it runs as
root), a short-lived thread joins the run's network namespace, opens a NETLINK_ROUTE socket
there and exits; the socket stays bound to that namespace, and the same requests `ip` would
send go through it, each acknowledged. Only that thread ever changes namespace: the service's
other threads, and every socket they open, stay in the host's.
"""

from __future__ import annotations

import ctypes
import os
import socket
import struct
import threading
from collections.abc import Iterable
from ipaddress import IPv4Interface, IPv4Network

__all__ = ["NetlinkError", "can_join", "configure", "open_route_socket", "requests"]

_CLONE_NEWNET = 0x40000000
_NLMSG_ERROR = 2
_RTM_NEWLINK, _RTM_NEWADDR, _RTM_NEWROUTE = 16, 20, 24
_NLM_F_REQUEST, _NLM_F_ACK, _NLM_F_EXCL, _NLM_F_CREATE = 0x1, 0x4, 0x200, 0x400
_IFF_UP = 0x1
_IFLA_MTU = 4
_IFA_ADDRESS, _IFA_LOCAL = 1, 2
_RTA_DST, _RTA_OIF, _RTA_GATEWAY = 1, 4, 5
_RT_TABLE_MAIN, _RTPROT_BOOT, _RT_SCOPE_UNIVERSE = 254, 3, 0
_RTN_UNICAST, _RTN_PROHIBIT = 1, 8
_TIMEOUT_S = 5.0  # the kernel answers at once; this only bounds a broken kernel

class NetlinkError(OSError):
    """The kernel refused one of the requests (its errno, and which request)."""


def can_join() -> bool:
    """Whether this process may join another user namespace's network namespace without
    entering that user namespace (which a threaded process cannot): root may."""
    return os.geteuid() == 0


def open_route_socket(net_fd: int, device: str) -> tuple[socket.socket, int]:
    """A NETLINK_ROUTE socket inside the network namespace `net_fd` refers to, and the index
    of `device` there."""
    libc = ctypes.CDLL(None, use_errno=True)
    opened: list[tuple[socket.socket, int]] = []
    failed: list[BaseException] = []

    def inside() -> None:
        # This thread ends once the socket exists; it never comes back to the host's namespace.
        try:
            if libc.setns(net_fd, _CLONE_NEWNET) != 0:
                err = ctypes.get_errno()
                raise OSError(err, f"setns into the run's network namespace: {os.strerror(err)}")
            sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
            try:
                sock.settimeout(_TIMEOUT_S)
                opened.append((sock, socket.if_nametoindex(device)))
            except BaseException:
                sock.close()
                raise
        except BaseException as exc:  # reported to the caller
            failed.append(exc)

    thread = threading.Thread(target=inside, name="tpmjs-netns", daemon=True)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]
    return opened[0]


def _attr(kind: int, payload: bytes) -> bytes:
    size = 4 + len(payload)
    return struct.pack("=HH", size, kind) + payload + b"\0" * (-size % 4)


def _message(kind: int, flags: int, seq: int, body: bytes) -> bytes:
    return struct.pack("=LHHLL", 16 + len(body), kind, _NLM_F_REQUEST | _NLM_F_ACK | flags, seq, 0) + body


def _route(kind: int, dst: IPv4Network, attrs: bytes) -> bytes:
    header = struct.pack(
        "=BBBBBBBBI", socket.AF_INET, dst.prefixlen, 0, 0, _RT_TABLE_MAIN, _RTPROT_BOOT,
        _RT_SCOPE_UNIVERSE, kind, 0,
    )  # fmt: skip
    if dst.prefixlen:
        attrs = _attr(_RTA_DST, dst.network_address.packed) + attrs
    return header + attrs


def requests(
    index: int, mtu: int, address: IPv4Interface, gateway: str, prohibit: Iterable[IPv4Network]
) -> list[tuple[int, int, bytes, str]]:
    """(type, flags, body, what) of each request, in the order `ip -batch` would send them."""
    link = struct.pack("=BxHiII", socket.AF_UNSPEC, 0, index, _IFF_UP, _IFF_UP)
    link += _attr(_IFLA_MTU, struct.pack("=I", mtu))
    packed = address.ip.packed
    addr = struct.pack("=BBBBI", socket.AF_INET, address.network.prefixlen, 0, 0, index)
    addr += _attr(_IFA_LOCAL, packed) + _attr(_IFA_ADDRESS, packed)
    gateway_packed = socket.inet_aton(gateway)
    default = _route(
        _RTN_UNICAST,
        IPv4Network("0.0.0.0/0"),
        _attr(_RTA_GATEWAY, gateway_packed) + _attr(_RTA_OIF, struct.pack("=i", index)),
    )
    new = _NLM_F_CREATE | _NLM_F_EXCL
    out = [
        (_RTM_NEWLINK, 0, link, f"link {index} mtu {mtu} up"),
        (_RTM_NEWADDR, new, addr, f"address {address}"),
        (_RTM_NEWROUTE, new, default, f"default route via {gateway}"),
    ]
    out += [(_RTM_NEWROUTE, new, _route(_RTN_PROHIBIT, net, b""), f"prohibit {net}")
            for net in prohibit]  # fmt: skip
    return out


def configure(
    sock: socket.socket,
    index: int,
    *,
    mtu: int,
    address: IPv4Interface,
    gateway: str,
    prohibit: Iterable[IPv4Network],
) -> None:
    """Send every request at once and wait for each one's acknowledgement (NetlinkError
    naming the first refused)."""
    todo = requests(index, mtu, address, gateway, prohibit)
    what = {seq: item[3] for seq, item in enumerate(todo, 1)}
    sock.sendall(b"".join(_message(t, f, seq, b) for seq, (t, f, b, _) in enumerate(todo, 1)))
    while what:
        data = sock.recv(65536)
        offset = 0
        while offset + 16 <= len(data):
            length, kind, _flags, seq, _pid = struct.unpack_from("=LHHLL", data, offset)
            if kind == _NLMSG_ERROR and seq in what:
                (error,) = struct.unpack_from("=i", data, offset + 16)
                label = what.pop(seq)
                if error:
                    raise NetlinkError(-error, f"{label}: {os.strerror(-error)}")
            offset += (length + 3) & ~3 if length else len(data)
