"""A loopback HTTP server that fails on purpose, from a script: the client tests' flaky peer."""

from __future__ import annotations

import socket
import socketserver
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import BinaryIO

# One scripted answer: (status, headers, body); DROP closes the connection without a word;
# Drip(seconds) answers 200 and sends its body one byte per `seconds`.
Answer = tuple[int, dict[str, str], bytes]
DROP = "drop"


@dataclass(frozen=True)
class Drip:
    """Answer 200 with a 20-byte body, one byte every `seconds`."""

    seconds: float


@dataclass
class Seen:
    """A request as the server read it."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Script:
    """What the server answers, in turn (the last one again once the list is used up)."""

    answers: list[Answer | str | Drip]
    seen: list[Seen] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def next(self, request: Seen) -> Answer | str | Drip:
        with self.lock:
            self.seen.append(request)
            return self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]


def _read(stream: BinaryIO) -> Seen | None:
    line = stream.readline()
    if not line:
        return None
    method, path, _ = line.decode().split(" ", 2)
    headers: dict[str, str] = {}
    while header := stream.readline().decode().strip():
        name, _, value = header.partition(":")
        headers[name.strip().lower()] = value.strip()
    body = stream.read(int(headers.get("content-length", "0")))
    return Seen(method, path, headers, body)


def _handler(script: Script) -> type[socketserver.StreamRequestHandler]:
    class Handler(socketserver.StreamRequestHandler):
        def handle(self) -> None:
            while (request := _read(self.rfile)) is not None:
                answer = script.next(request)
                if answer == DROP:
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                if isinstance(answer, Drip):
                    self._drip(answer.seconds)
                    return
                assert not isinstance(answer, str)
                status, headers, body = answer
                lines = [f"HTTP/1.1 {status} X", f"content-length: {len(body)}"]
                lines += [f"{name}: {value}" for name, value in headers.items()]
                self.wfile.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)

        def _drip(self, seconds: float) -> None:
            head = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 20\r\n\r\n"
            self.wfile.write(head.encode())
            for _ in range(20):
                time.sleep(seconds)
                try:
                    self.wfile.write(b" ")
                except OSError:
                    return

    return Handler


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


@contextmanager
def failing_server(script: Script) -> Iterator[str]:
    """Serve `script` on a free loopback port; yield the base URL."""
    server = _Server(("127.0.0.1", 0), _handler(script))
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
