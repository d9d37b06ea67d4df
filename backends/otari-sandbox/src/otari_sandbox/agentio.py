"""The service's end of an agent: the framed control socket and the per-call output pipes."""

from __future__ import annotations

import array
import asyncio
import contextlib
import json
import os
import socket
import struct
from collections.abc import Sequence
from typing import Any

HEADER = struct.Struct("!I")


class ProtocolError(Exception):
    """The agent sent something that is not a well-formed frame; it is not trusted again."""


class Channel:
    """Length-prefixed JSON frames over a non-blocking stream socket."""

    def __init__(self, sock: socket.socket, max_frame: int) -> None:
        sock.setblocking(False)
        self.sock = sock
        self.max_frame = max_frame
        self._buffer = bytearray()

    async def send(self, message: dict[str, Any], fds: Sequence[int] = ()) -> None:
        """Write one frame; ``fds`` travel as SCM_RIGHTS with its header."""
        body = json.dumps(message, separators=(",", ":")).encode()
        data = HEADER.pack(len(body)) + body
        if fds:
            # Only one request is ever outstanding, so the socket buffer has room for the
            # four header bytes; the body may need to wait for the agent to read.
            sent = self.sock.sendmsg(
                [data[: HEADER.size]],
                [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))],
            )
            data = data[sent:]
        await asyncio.get_running_loop().sock_sendall(self.sock, data)

    async def receive(self) -> dict[str, Any]:
        """Read one frame; EOFError when the agent is gone."""
        (length,) = HEADER.unpack(await self._read(HEADER.size))
        if length > self.max_frame:
            raise ProtocolError(f"frame of {length} bytes")
        try:
            message = json.loads(await self._read(length))
        except ValueError as exc:
            raise ProtocolError("frame is not JSON") from exc
        if not isinstance(message, dict):
            raise ProtocolError("frame is not an object")
        return message

    async def _read(self, size: int) -> bytes:
        loop = asyncio.get_running_loop()
        while len(self._buffer) < size:
            chunk = await loop.sock_recv(self.sock, max(65536, size - len(self._buffer)))
            if not chunk:
                raise EOFError("agent closed the control socket")
            self._buffer += chunk
        data = bytes(self._buffer[:size])
        del self._buffer[:size]
        return data

    def close(self) -> None:
        """Close the socket (idempotent)."""
        self.sock.close()


class Capture:
    """Drains one pipe on the event loop, keeping the first ``cap`` bytes and counting the rest.

    A single 50 MB line is just 800 reads here; nothing is ever buffered past the cap.
    """

    def __init__(self, fd: int, cap: int) -> None:
        self.fd = fd
        self.cap = cap
        self.data = bytearray()
        self.dropped = 0
        self._loop = asyncio.get_running_loop()
        self._eof: asyncio.Future[None] = self._loop.create_future()
        self._open = True
        self._loop.add_reader(fd, self._on_readable)

    def _on_readable(self) -> None:
        try:
            chunk = os.read(self.fd, 65536)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self.close()
            return
        room = self.cap - len(self.data)
        if room > 0:
            self.data += chunk[:room]
        self.dropped += max(0, len(chunk) - max(room, 0))

    async def wait_eof(self, timeout: float) -> None:
        """Wait until every writer is gone, at most ``timeout`` seconds."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._eof), timeout)
        if self._open:
            # A writer outlived the call's clean-up; drain what is already there and stop.
            while self._open:
                before = len(self.data) + self.dropped
                self._on_readable()
                if len(self.data) + self.dropped == before:
                    break
        self.close()

    def close(self) -> None:
        """Stop reading and close the pipe (idempotent)."""
        if self._open:
            self._open = False
            self._loop.remove_reader(self.fd)
            os.close(self.fd)
            if not self._eof.done():
                self._eof.set_result(None)


def output_pipe(cap: int) -> tuple[Capture, int]:
    """A capture on a fresh pipe's read end, and the write end to hand to the agent."""
    read_end, write_end = os.pipe2(os.O_CLOEXEC)
    os.set_blocking(read_end, False)
    return Capture(read_end, cap), write_end
