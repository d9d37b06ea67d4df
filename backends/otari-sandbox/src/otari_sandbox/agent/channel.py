"""Length-prefixed JSON frames on a stream socket, with descriptors riding on the header."""

import array
import json
import socket
import struct
from typing import Any

HEADER = struct.Struct("!I")
MAX_FDS = 4


def recv_exact(sock: socket.socket, size: int) -> bytes | None:
    """Read exactly ``size`` bytes, or None at end of stream."""
    chunks = bytearray()
    while len(chunks) < size:
        chunk = sock.recv(min(size - len(chunks), 1 << 20))
        if not chunk:
            return None
        chunks += chunk
    return bytes(chunks)


def receive(sock: socket.socket) -> tuple[dict[str, Any], list[int]] | None:
    """Read one request and the descriptors sent with it; None when the service hung up."""
    fds = array.array("i")
    header = bytearray()
    while len(header) < HEADER.size:
        data, ancdata, _flags, _addr = sock.recvmsg(
            HEADER.size - len(header),
            socket.CMSG_SPACE(MAX_FDS * fds.itemsize),
            socket.MSG_CMSG_CLOEXEC,
        )
        for level, kind, payload in ancdata:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                fds.frombytes(payload[: len(payload) - len(payload) % fds.itemsize])
        if not data:
            return None
        header += data
    (length,) = HEADER.unpack(header)
    body = recv_exact(sock, length)
    if body is None:
        return None
    message: dict[str, Any] = json.loads(body)
    return message, list(fds)


def send(sock: socket.socket, message: dict[str, Any]) -> None:
    """Write one frame."""
    # "replace" turns lone surrogates (undecodable file names) into "?": the service
    # only ever receives valid UTF-8.
    body = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode(
        "utf-8", "replace"
    )
    sock.sendall(HEADER.pack(len(body)) + body)
